import { beforeEach, describe, expect, it } from 'vitest';
import * as api from '../api';
import { ApiError } from '../api/error';
import type { Transport } from '../api/transport';
import type { DatasetInfo, SavedConnection } from '../api/types';
import { checkForm, connectionOf, ConnectState } from './connect.svelte';

const info: DatasetInfo = {
  name: 'chinook',
  path: '',
  dialect: 'postgresql',
  server: 'postgres://agent_lecteur@db:5432/chinook',
  demo: false,
  read_only: true,
  tables: 11,
  views: 0,
  size_bytes: 0,
  warnings: [],
  warnings_said: [],
  title: 'chinook (read-only) — Querent',
};
const saved: SavedConnection = { name: 'Sales', host: 'db', port: 6543, database: 'sales', username: 'reader', ssl: 'require', saved_at: '2026-01-01T00:00:00Z' };

function setup(impl: Record<string, (...a: unknown[]) => unknown>) {
  const calls: { target: string; args: unknown[] }[] = [];
  const t: Transport = {
    kind: 'browser',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      const target = `${service}.${method}`;
      calls.push({ target, args });
      const f = impl[target];
      return (f ? await f(...args) : undefined) as T;
    },
    on: () => () => {},
    fileURL: () => '',
  };
  const host = { opened: [] as DatasetInfo[], busy: [] as (string | null)[] };
  const c = new ConnectState({ connected: (i) => host.opened.push(i), busyOpening: (l) => host.busy.push(l) });
  return { t, calls, host, c };
}

describe('the connect form', () => {
  it('makes a connection object: trimmed, 5432 by default, no empty password or SSL mode', () => {
    expect(connectionOf({ host: ' db ', port: null, database: ' sales ', username: ' me ', password: '', ssl: '' })).toEqual({
      db_type: 'postgresql',
      host: 'db',
      port: 5432,
      database: 'sales',
      username: 'me',
    });
    expect(connectionOf({ host: 'db', port: 6543, database: 's', username: 'u', password: ' p w ', ssl: 'require' })).toMatchObject({ port: 6543, password: ' p w ', ssl: 'require' });
  });

  it('says which field stops it', () => {
    expect(checkForm({ port: 5432, database: 'x' })).toBeNull();
    expect(checkForm({ port: null, database: 'x' })).toBeNull();
    expect(checkForm({ port: 0, database: 'x' })).toBe('port');
    expect(checkForm({ port: 70000, database: 'x' })).toBe('port');
    expect(checkForm({ port: 5432.5, database: 'x' })).toBe('port');
    expect(checkForm({ port: 5432, database: '  ' })).toBe('database');
  });
});

describe('connecting', () => {
  let s: ReturnType<typeof setup>;
  beforeEach(async () => {
    s = setup({
      'Datasets.SavedConnections': () => [saved],
      'Datasets.TestConnection': () => ({ name: info.server, facts: null, tables: 11, views: 0, warnings: null, elapsed_s: 0.2 }),
      'Datasets.Connect': () => info,
      'Datasets.ForgetConnection': () => [],
    });
    await api.init(s.t);
  });

  it('lists the saved connections and fills the form from one, without a password', async () => {
    await s.c.open();
    expect(s.c.saved).toEqual([saved]);
    s.c.password = 'typed before';
    s.c.pick(saved);
    expect([s.c.host, s.c.port, s.c.database, s.c.username, s.c.ssl, s.c.password, s.c.picked]).toEqual(['db', 6543, 'sales', 'reader', 'require', '', 'Sales']);
    await s.c.forget('Sales');
    expect(s.c.saved).toEqual([]);
    expect(s.c.picked).toBe('');
  });

  it('tests with the password typed, and lists every fact and warning as lists', async () => {
    s.c.database = 'chinook';
    s.c.password = 'pw';
    await s.c.runTest();
    expect(s.calls.at(-1)).toEqual({ target: 'Datasets.TestConnection', args: [expect.objectContaining({ database: 'chinook', password: 'pw' })] });
    expect(s.c.test).toMatchObject({ facts: [], warnings: [], tables: 11 });
    s.c.edited();
    expect(s.c.test).toBeNull();
  });

  it('sends nothing while a field is wrong', async () => {
    s.c.database = '';
    await s.c.runTest();
    expect(await s.c.connect('Connecting…')).toBe(false);
    expect(s.calls).toEqual([]);
  });

  it('connects, forgets the password and asks again about saving', async () => {
    s.c.database = 'chinook';
    s.c.password = 'pw';
    s.c.save = true;
    s.c.name = ' Mine ';
    expect(await s.c.connect('Connecting…')).toBe(true);
    expect(s.calls.at(-1)?.args[0]).toMatchObject({ save: true, name: 'Mine', connection: { password: 'pw' } });
    expect(s.host.opened).toEqual([info]);
    expect(s.host.busy).toEqual(['Connecting…', null]);
    expect([s.c.password, s.c.save]).toEqual(['', false]);
  });

  it('shows a failure, and a cancel as stopped (not an error)', async () => {
    s = setup({
      'Datasets.Connect': () => {
        throw new ApiError({ type: 'database', message: 'password authentication failed for user "x"' });
      },
      'Datasets.TestConnection': () => {
        throw new ApiError({ type: 'cancelled', message: 'cancelled' });
      },
    });
    await api.init(s.t);
    s.c.database = 'chinook';
    expect(await s.c.connect('…')).toBe(false);
    expect(s.c.error?.type).toBe('database');
    await s.c.runTest();
    expect(s.c.error).toBeNull();
    expect(s.c.stopped).toBe(true);
    expect(s.c.busy).toBeNull();
  });

  it('forgets the password when the dialog closes', () => {
    s.c.password = 'pw';
    s.c.close();
    expect(s.c.password).toBe('');
  });
});

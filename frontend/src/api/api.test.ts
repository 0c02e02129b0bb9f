import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './index';
import { askProgress, importProgress, normalise, pullProgress } from './events';
import { ApiError } from './error';
import type { Transport } from './transport';

function fakeTransport(results: Record<string, unknown> = {}) {
  const calls: { target: string; args: unknown[] }[] = [];
  const handlers = new Map<string, (d: unknown) => void>();
  const t: Transport = {
    kind: 'browser',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      const target = `${service}.${method}`;
      calls.push({ target, args });
      const r = results[target];
      if (r instanceof Error) throw r;
      return r as T;
    },
    on(name, h) {
      handlers.set(name, h);
      return () => handlers.delete(name);
    },
    fileURL: (d, n) => `${d}?name=${n}`,
  };
  return { t, calls, handlers };
}

describe('the typed api', () => {
  let f: ReturnType<typeof fakeTransport>;
  beforeEach(async () => {
    f = fakeTransport({ 'Datasets.Recent': null, 'Ask.History': [{ sql: 'SELECT 1' }], 'Ask.Status': { running: true } });
    await api.init(f.t);
  });

  it('passes each method its arguments in order', async () => {
    await api.Ask.History(true, 50);
    await api.Export.Run({ sql: 'SELECT 1', out: '', format: 'csv', bom: true });
    await api.Datasets.ChooseNewDatabase('sales.sqlite');
    await api.Settings.Save({ ollama_host: '', model: '', max_rows: 100, timeout_s: 30, theme: 'dark' });
    expect(f.calls.map((c) => c.target)).toEqual(['Ask.History', 'Export.Run', 'Datasets.ChooseNewDatabase', 'Settings.Save']);
    expect(f.calls[0].args).toEqual([true, 50]);
    expect(f.calls[1].args).toEqual([{ sql: 'SELECT 1', out: '', format: 'csv', bom: true }]);
    expect(f.calls[2].args).toEqual(['sales.sqlite']);
  });

  it('turns a null list into an empty one', async () => {
    expect(await api.Datasets.Recent()).toEqual([]);
    expect(await api.Ask.History(false, 1)).toEqual([{ sql: 'SELECT 1' }]);
  });

  it('hands events over normalised', () => {
    const got = vi.fn();
    api.on('ask:progress', got);
    f.handlers.get('ask:progress')!({ Stage: 'repairing', Attempt: 3, Attempts: 4, Tokens: 16 });
    expect(got).toHaveBeenCalledWith({ stage: 'repairing', attempt: 3, attempts: 4, tokens: 16 });
  });

  it('says which mode it runs in and builds download addresses', () => {
    expect(api.mode()).toBe('browser');
    expect(api.downloadURL('/files/1', 'a.xlsx')).toBe('/files/1?name=a.xlsx');
  });
});

describe('event payloads', () => {
  it("reads Go's field names and snake_case alike", () => {
    expect(askProgress({ stage: 'writing SQL', tokens: 8 })).toEqual({ stage: 'writing SQL', attempt: 0, attempts: 0, tokens: 8 });
    expect(pullProgress({ Status: 'pulling 1a2b', Completed: 400, Total: 1000 })).toEqual({ status: 'pulling 1a2b', completed: 400, total: 1000 });
    expect(importProgress({ Phase: 'writing', Source: 'a.csv', BytesDone: 5, BytesTotal: 10, Rows: 3, RowsTotal: 9 })).toEqual({
      phase: 'writing',
      source: 'a.csv',
      bytes_done: 5,
      bytes_total: 10,
      rows: 3,
      rows_total: 9,
    });
    expect(normalise('export:progress', { rows: 10, bytes: 2048 })).toEqual({ rows: 10, bytes: 2048 });
  });

  it('reads dropped files in any reasonable shape', () => {
    expect(normalise('file:dropped', ['/a.db'])).toEqual(['/a.db']);
    expect(normalise('file:dropped', '/a.csv')).toEqual(['/a.csv']);
    expect(normalise('file:dropped', { paths: ['/b.xlsx', 3] })).toEqual(['/b.xlsx']);
    expect(normalise('window:title', 'T')).toBe('T');
  });

  it('survives junk', () => {
    expect(askProgress(null)).toEqual({ stage: '', attempt: 0, attempts: 0, tokens: 0 });
    expect(normalise('file:dropped', 42)).toEqual([]);
  });
});

describe('ApiError.from', () => {
  it('reads error documents, wrapped ones, strings and errors', () => {
    expect(ApiError.from({ type: 'refused', message: 'm', hint: 'h', query: 'DELETE', position: 0 }).toDoc()).toEqual({
      type: 'refused',
      message: 'm',
      hint: 'h',
      query: 'DELETE',
      position: 0,
    });
    expect(ApiError.from({ error: { type: 'usage', message: 'x' } }).type).toBe('usage');
    expect(ApiError.from('plain').message).toBe('plain');
    expect(ApiError.from(new Error('oops'))).toMatchObject({ type: 'internal', message: 'oops' });
    expect(ApiError.from(undefined).type).toBe('internal');
  });
});

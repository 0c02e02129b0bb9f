import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Transport } from '../api/transport';
import { ApiError } from '../api/error';
import type { Answer, DatasetInfo } from '../api/types';
import { app } from './app.svelte';

const demo: DatasetInfo = {
  name: 'Chinook demo (built in)',
  path: '',
  demo: true,
  read_only: true,
  tables: 11,
  views: 0,
  size_bytes: 0,
  warnings: [],
  title: 'Chinook demo (built in) (read-only) — Querent',
};

function answer(over: Partial<Answer> = {}): Answer {
  return {
    question: null,
    query: 'SELECT 1 AS n',
    executed_sql: '',
    columns: [{ name: 'n', type: 'INTEGER' }],
    results: [{ n: 1 }],
    row_count: 1,
    truncated: false,
    execution_time_s: 0.001,
    stats: {},
    optimization_hints: [],
    visualization_suggestion: 'table',
    visualization_reason: '',
    explanation: '',
    follow_up_questions: [],
    tables_used: [],
    session_context: {},
    model: null,
    attempts: [],
    errors: [],
    warnings: [],
    tables_shown: null,
    ...over,
  };
}

type Handler = (...args: unknown[]) => unknown;

function fake(impl: Record<string, Handler>) {
  const calls: { target: string; args: unknown[] }[] = [];
  const handlers = new Map<string, (d: unknown) => void>();
  const defaults: Record<string, Handler> = {
    'Datasets.Current': () => demo,
    'Datasets.Schema': () => ({ database: demo.name, tables: [] }),
    'Datasets.Recent': () => [],
    'Settings.Get': () => ({ ollama_host: '', model: '', max_rows: 1000, timeout_s: 30, theme: 'system' }),
    'Settings.Version': () => 'v1.2.3',
    'Ask.Status': () => ({ running: true, host: '', models: [], model: 'qwen2.5-coder:7b', embed_model: '', problem: '', fix: '', code: '' }),
  };
  const t: Transport = {
    kind: 'browser',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      const target = `${service}.${method}`;
      calls.push({ target, args });
      const f = impl[target] ?? defaults[target];
      if (!f) return undefined as T;
      return (await f(...args)) as T;
    },
    on(name, h) {
      handlers.set(name, h);
      return () => handlers.delete(name);
    },
    fileURL: () => '',
  };
  return { t, calls, handlers, emit: (name: string, d: unknown) => handlers.get(name)?.(d) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('the app state', () => {
  beforeEach(() => {
    app.dataset = null;
    app.shown = null;
    app.busy = null;
    app.banner = null;
    app.unauthorized = false;
    app.turns = 0;
    app.panel = null;
  });

  it('boots with the open database, its schema, the settings and the version', async () => {
    const f = fake({});
    await app.boot(f.t);
    await tick();
    expect(app.booted).toBe(true);
    expect(app.dataset?.name).toBe(demo.name);
    expect(app.title).toBe(demo.title);
    expect(app.canAsk).toBe(true);
    expect(app.version).toBe('v1.2.3');
    expect(f.calls.map((c) => c.target)).toContain('Datasets.Schema');
    expect(app.ollama?.model).toBe('qwen2.5-coder:7b');
  });

  it('shows what went wrong at launch (the app:error event of the desktop app)', async () => {
    const f = fake({});
    await app.boot(f.t);
    f.emit('app:error', { type: 'database', message: 'cannot open /x/missing.db: no such file', hint: 'check the path' });
    expect(app.banner?.type).toBe('database');
    expect(app.banner?.message).toContain('missing.db');
  });

  it('takes a file off the recent list', async () => {
    const gone = { path: '/data/old.db', name: 'old.db', opened_at: '2026-01-01T00:00:00Z', exists: false };
    const kept = { path: '/data/new.db', name: 'new.db', opened_at: '2026-02-01T00:00:00Z', exists: true };
    const f = fake({ 'Datasets.Recent': () => [kept, gone], 'Datasets.ForgetRecent': () => [kept] });
    await app.boot(f.t);
    await tick();
    expect(app.recent).toHaveLength(2);
    app.forgetRecent(gone.path);
    await tick();
    expect(f.calls.find((c) => c.target === 'Datasets.ForgetRecent')?.args).toEqual([gone.path]);
    expect(app.recent).toEqual([kept]);
  });

  it('asks, shows the answer with its rows, and counts the conversation', async () => {
    const f = fake({
      'Ask.Question': (q) =>
        answer({ question: q as string, session_context: { turns: [{ question: 'x', sql: 'y', row_count: 1, time: '' }] } }),
    });
    await app.boot(f.t);
    const p = app.ask('  How many?  ');
    expect(app.busy?.kind).toBe('ask');
    f.emit('ask:progress', { Stage: 'writing SQL', Attempt: 1, Attempts: 4, Tokens: 24 });
    expect(app.busy?.progress).toEqual({ stage: 'writing SQL', attempt: 1, attempts: 4, tokens: 24 });
    await p;
    expect(f.calls.find((c) => c.target === 'Ask.Question')?.args).toEqual(['How many?']);
    expect(app.busy).toBeNull();
    expect(app.shown?.heading).toBe('How many?');
    expect(app.shown?.rows).toEqual([[1]]);
    expect(app.turns).toBe(1);
  });

  it('runs SQL and previews tables without the model', async () => {
    const f = fake({ 'Results.Run': () => answer(), 'Results.Preview': () => answer({ query: 'SELECT * FROM "Album" LIMIT 200' }) });
    await app.boot(f.t);
    await app.run('SELECT 1 AS n', { fromEditor: true });
    expect(app.shown?.source).toBe('sql');
    expect(app.shown?.fromEditor).toBe(true);
    await app.preview('Album');
    expect(app.shown?.heading).toBe('Preview of Album');
    expect(f.calls.find((c) => c.target === 'Results.Preview')?.args).toEqual(['Album']);
  });

  it('cancels what runs: the question, or the query', async () => {
    let release: (a: Answer) => void = () => {};
    const f = fake({ 'Ask.Question': () => new Promise((r) => (release = r)) });
    await app.boot(f.t);
    const p = app.ask('slow?');
    await app.cancel();
    expect(f.calls.map((c) => c.target)).toContain('Ask.Cancel');
    release(answer({ errors: [{ type: 'cancelled', message: 'cancelled', hint: '' }] }));
    await p;
    expect(app.shown?.doc.errors[0].type).toBe('cancelled');
  });

  it('keeps only the newest answer when two overlap', async () => {
    let first: (a: Answer) => void = () => {};
    const f = fake({
      'Ask.Question': () => new Promise((r) => (first = r)),
      'Results.Run': () => answer({ query: 'SELECT 2' }),
    });
    await app.boot(f.t);
    const p = app.ask('slow');
    await app.run('SELECT 2');
    first(answer({ query: 'late' }));
    await p;
    expect(app.shown?.doc.query).toBe('SELECT 2');
  });

  it('shows a failed call as a banner, and a refused token as the token screen', async () => {
    const f = fake({ 'Datasets.Open': () => Promise.reject(new ApiError({ type: 'database', message: 'not a database', hint: '' })) });
    await app.boot(f.t);
    expect(await app.open('/tmp/x.txt')).toBe(false);
    expect(app.banner?.type).toBe('database');
    const g = fake({ 'Datasets.Current': () => Promise.reject(new ApiError({ type: 'unauthorized', message: 'no token' })) });
    await app.boot(g.t);
    expect(app.unauthorized).toBe(true);
  });

  it('opens a dropped database, and offers to import dropped spreadsheets', async () => {
    const f = fake({ 'Datasets.Open': (p) => ({ ...demo, name: 'sales.db', path: p, demo: false, title: 'sales.db (read-only) — Querent' }) });
    await app.boot(f.t);
    f.emit('file:dropped', ['/data/sales.db']);
    await tick();
    await tick();
    expect(f.calls.find((c) => c.target === 'Datasets.Open')?.args).toEqual(['/data/sales.db']);
    expect(app.dataset?.name).toBe('sales.db');
    f.emit('file:dropped', ['/data/a.csv', '/data/b.xlsx']);
    expect(app.panel).toBe('import');
    expect(app.importPreset).toEqual(['/data/a.csv', '/data/b.xlsx']);
  });

  it('follows the window title and database changes from Go', async () => {
    const f = fake({});
    await app.boot(f.t);
    f.emit('window:title', 'other.db (read-only) — Querent');
    expect(app.title).toBe('other.db (read-only) — Querent');
    f.emit('dataset:changed', { ...demo, name: 'new.sqlite', path: '/x/new.sqlite', demo: false, title: 'new.sqlite (read-only) — Querent' });
    expect(app.dataset?.name).toBe('new.sqlite');
    expect(app.shown).toBeNull();
  });

  it('downloads a model with progress, then checks Ollama again', async () => {
    let finish: () => void = () => {};
    const f = fake({ 'Ask.PullModel': () => new Promise<void>((r) => (finish = r)) });
    await app.boot(f.t);
    const p = app.pullModel();
    expect(app.pull.running).toBe(true);
    f.emit('model:pull', { Status: 'pulling', Completed: 400, Total: 1000 });
    expect(app.pull.progress?.completed).toBe(400);
    finish();
    await p;
    expect(app.pull.done).toBe(true);
    expect(f.calls.filter((c) => c.target === 'Ask.Status').length).toBeGreaterThanOrEqual(2);
  });

  it('starts a new conversation', async () => {
    const f = fake({});
    await app.boot(f.t);
    app.turns = 3;
    await app.newConversation();
    expect(app.turns).toBe(0);
    expect(f.calls.map((c) => c.target)).toContain('Ask.NewConversation');
  });

  it('saves settings and re-checks Ollama when the model changes', async () => {
    const f = fake({ 'Settings.Save': (s) => s });
    await app.boot(f.t);
    const before = f.calls.filter((c) => c.target === 'Ask.Status').length;
    await app.saveSettings({ ollama_host: '', model: 'sqlcoder:7b', max_rows: 100, timeout_s: 30, theme: 'dark' });
    expect(app.settings?.max_rows).toBe(100);
    expect(f.calls.filter((c) => c.target === 'Ask.Status').length).toBe(before + 1);
  });

  it('shows a toast once per message', () => {
    vi.useFakeTimers();
    app.toasts = [];
    app.toast('Copied');
    app.toast('Copied');
    expect(app.toasts).toHaveLength(1);
    vi.advanceTimersByTime(4000);
    expect(app.toasts).toHaveLength(0);
    vi.useRealTimers();
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Transport } from '../api/transport';
import { ApiError } from '../api/error';
import type { Answer, DatasetInfo, EvalResult, GoldSetInfo, ModelReport } from '../api/types';
import { app } from './app.svelte';

const demo: DatasetInfo = {
  name: 'Chinook demo (built in)',
  dialect: 'sqlite',
  server: '',
  path: '',
  demo: true,
  read_only: true,
  tables: 11,
  views: 0,
  size_bytes: 0,
  warnings: [],
  warnings_said: [],
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
    visualization_reasons: {},
    visualization: { type: 'table', x: '', y: [], series: '', x_axis: '', y2: [], time_unit: '' },
    explanation: '',
    follow_up_questions: [],
    tables_used: [],
    session_context: {},
    model: null,
    attempts: [],
    time_to_rows_s: null,
    model_stats: null,
    confidence: null,
    errors: [],
    warnings: [],
    tables_shown: null,
    glossary_used: [],
    masked_columns: [],
    context_used: [],
    examples_used: [],
    ...over,
  };
}

type Handler = (...args: unknown[]) => unknown;

function fake(impl: Record<string, Handler>, kind: 'browser' | 'desktop' = 'browser') {
  const calls: { target: string; args: unknown[] }[] = [];
  const handlers = new Map<string, (d: unknown) => void>();
  const defaults: Record<string, Handler> = {
    'Datasets.Current': () => demo,
    'Datasets.Schema': () => ({ database: demo.name, tables: [] }),
    'Datasets.Recent': () => [],
    'Settings.Get': () => ({ ollama_host: '', llm_url: '', api_key_set: false, model: '', max_rows: 1000, timeout_s: 30, theme: 'system' }),
    'Settings.Version': () => 'v1.2.3',
    'Ask.Status': () => ({ running: true, host: '', models: [], model: 'qwen2.5-coder:7b', embed_model: '', problem: '', fix: '', code: '' }),
  };
  const t: Transport = {
    kind,
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
    app.thread = [];
    app.busy = null;
    app.question = '';
    app.banner = null;
    app.unauthorized = false;
    app.context = [];
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
      'Ask.QuestionWith': (q) =>
        answer({ question: q as string, session_context: { turns: [{ question: 'x', sql: 'y', row_count: 1, time: '' }] } }),
    });
    await app.boot(f.t);
    const p = app.ask('  How many?  ');
    expect(app.busy?.kind).toBe('ask');
    f.emit('ask:progress', { Stage: 'writing SQL', Attempt: 1, Attempts: 4, Tokens: 24 });
    expect(app.busy?.progress).toEqual({ stage: 'writing SQL', attempt: 1, attempts: 4, tokens: 24 });
    await p;
    expect(f.calls.find((c) => c.target === 'Ask.QuestionWith')?.args).toEqual(['How many?', '']);
    expect(app.busy).toBeNull();
    expect(app.shown?.heading).toBe('How many?');
    expect(app.shown?.rows).toEqual([[1]]);
    expect(app.turns).toBe(1);
  });

  it('runs SQL and previews tables without the model', async () => {
    const f = fake({ 'Results.Run': () => answer(), 'Results.Preview': () => answer({ query: 'SELECT * FROM "Album"' }) });
    await app.boot(f.t);
    await app.run('SELECT 1 AS n', { fromEditor: true });
    expect(app.shown?.source).toBe('sql');
    expect(app.shown?.fromEditor).toBe(true);
    await app.preview('Album');
    expect(app.shown?.heading).toBe('Preview of Album');
    expect(f.calls.find((c) => c.target === 'Results.Preview')?.args).toEqual(['Album']);
    // Browsing tables replaces the preview at the bottom rather than piling up.
    await app.preview('Artist');
    expect(app.thread.map((c) => c.heading)).toEqual(['Your SQL', 'Preview of Artist']);
  });

  it('cancels what runs: the question, or the query', async () => {
    let release: (a: Answer) => void = () => {};
    const f = fake({ 'Ask.QuestionWith': () => new Promise((r) => (release = r)) });
    await app.boot(f.t);
    app.question = 'slow?';
    const p = app.ask('slow?');
    expect(app.question).toBe('');
    await app.cancel();
    expect(f.calls.map((c) => c.target)).toContain('Ask.Cancel');
    release(answer({ columns: [], results: [], errors: [{ type: 'cancelled', message: 'cancelled', hint: '', query: '' }] }));
    await p;
    // Stopped before any rows: no card, and the question is back in the box.
    expect(app.thread).toHaveLength(0);
    expect(app.question).toBe('slow?');
  });

  it('shows the rows first, then the votes of a doubtful answer: the majority and the alternatives (issue 23)', async () => {
    let release: (a: Answer) => void = () => {};
    const f = fake({ 'Ask.QuestionWith': () => new Promise((r) => (release = r)) });
    await app.boot(f.t);
    const p = app.ask('Total sales?');
    const conf = (votes: string, over = {}) => ({ level: 'medium', samples: 1, agreeing: 1, reasons: ['the SQL needed a repair before it ran'], reasons_said: [], signals: ['repaired'], votes, alternatives: [], ...over });
    f.emit('ask:rows', answer({ query: 'SELECT sum(Milliseconds) FROM Track', confidence: conf('pending') }));
    expect(app.shown?.doc?.query).toBe('SELECT sum(Milliseconds) FROM Track');
    expect(app.shown?.doc?.confidence?.votes).toBe('pending');
    const alt = { sql: 'SELECT sum(Milliseconds) FROM Track', columns: [], rows: [], row_count: 1, truncated: false, error: null, agreeing: 1, reason: '1 read Track.Milliseconds instead of Invoice.Total', reason_said: null, tables_used: ['Track'] };
    const voted = answer({ query: 'SELECT sum(Total) FROM Invoice', confidence: conf('done', { samples: 4, agreeing: 3, alternatives: [alt] }) });
    f.emit('ask:rows', voted);
    expect(app.shown?.doc?.query).toBe('SELECT sum(Total) FROM Invoice');
    expect(app.shown?.doc?.confidence?.alternatives?.[0].reason).toContain('instead of');
    release({ ...voted, explanation: 'Adds up the invoices.' });
    await p;
    expect(app.thread).toHaveLength(1);
    expect(app.shown?.doc?.confidence?.agreeing).toBe(3);
  });

  it('keeps only the newest answer when two overlap', async () => {
    let first: (a: Answer) => void = () => {};
    const f = fake({
      'Ask.QuestionWith': () => new Promise((r) => (first = r)),
      'Results.Run': () => answer({ query: 'SELECT 2' }),
    });
    await app.boot(f.t);
    const p = app.ask('slow');
    await app.run('SELECT 2');
    first(answer({ query: 'late' }));
    await p;
    expect(app.shown?.doc?.query).toBe('SELECT 2');
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

  it('opens one dropped data file at once, through its workspace (issue 27)', async () => {
    const f = fake({ 'Datasets.Open': (p) => ({ ...demo, name: p, path: p, demo: false, title: 'orders.parquet (read-only) — Querent' }) });
    await app.boot(f.t);
    f.emit('file:dropped', ['/data/orders.parquet']);
    await tick();
    await tick();
    expect(f.calls.filter((c) => c.target === 'Datasets.Open').map((c) => c.args)).toEqual([['/data/orders.parquet']]);
    expect(app.panel).not.toBe('import');
    expect(app.dataset?.name).toBe('/data/orders.parquet');
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
    app.context = [{ question: 'a', sql: 'x', row_count: 1, time: '2026-01-01T00:00:00Z', columns: [] }];
    await app.newConversation();
    expect(app.turns).toBe(0);
    expect(f.calls.map((c) => c.target)).toContain('Ask.NewConversation');
  });

  it('keeps each database’s thread: restored with its context on switching back, a fresh context without one', async () => {
    const store = new Map<string, string>();
    (globalThis as { localStorage?: unknown }).localStorage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    try {
      const turn = { question: 'Sales by country', sql: 'SELECT 1', row_count: 1, time: '2026-12-02T10:00:00Z', columns: ['n'] };
      const f = fake({
        'Ask.QuestionWith': (q) => answer({ question: q as string, session_context: { turns: [turn] } }),
        'Datasets.Open': (p) => ({ ...demo, name: 'sales.db', path: p, demo: false, title: 'sales.db (read-only) — Querent' }),
        'Datasets.OpenDemo': () => demo,
      });
      await app.boot(f.t);
      await app.ask('Sales by country');
      app.thread[0].tab = 'stats';
      expect(await app.open('/data/sales.db')).toBe(true);
      expect(app.thread).toHaveLength(0);
      expect(app.turns).toBe(0);
      expect(f.calls.at(-1)?.target === 'Ask.NewConversation' || f.calls.some((c) => c.target === 'Ask.NewConversation')).toBe(true);
      expect(await app.open(null)).toBe(true);
      expect(app.thread.map((c) => c.heading)).toEqual(['Sales by country']);
      expect(app.thread[0].tab).toBe('stats');
      expect(app.thread[0].restored).toBe(true);
      expect(app.turns).toBe(1);
      expect(f.calls.filter((c) => c.target === 'Ask.RestoreContext').at(-1)?.args).toEqual([[turn]]);
    } finally {
      delete (globalThis as { localStorage?: unknown }).localStorage;
    }
  });

  it('saves settings and re-checks Ollama when the model changes', async () => {
    const f = fake({ 'Settings.Save': (s) => s });
    await app.boot(f.t);
    const before = f.calls.filter((c) => c.target === 'Ask.Status').length;
    await app.saveSettings({ ollama_host: '', llm_url: '', api_key_set: false, model: 'sqlcoder:7b', max_rows: 100, timeout_s: 30, theme: 'dark', skip_explanation: false, skip_votes: false, require_readonly_role: false, allow_superuser: false, language: '', thinking_models: []  });
    expect(app.settings?.max_rows).toBe(100);
    expect(f.calls.filter((c) => c.target === 'Ask.Status').length).toBe(before + 1);
  });

  it('keeps the answers in a thread: newest last, older ones folded, a follow-up building on its card', async () => {
    const f = fake({
      // Go reads "Sales by country" and "Fresh" on their own, the others as follow-ups.
      'Ask.QuestionWith': (q) => {
        const alone = q === 'Sales by country' || q === 'Fresh';
        const turn = { question: 'x', sql: 'y', row_count: 1, time: '', columns: [] };
        return answer({ question: q as string, follow_up_questions: ['And by year?'], session_context: { turns: [turn] }, context_used: alone ? [] : [turn] });
      },
    });
    await app.boot(f.t);
    await app.ask('Sales by country');
    const first = app.thread[0];
    expect(app.scrollTo?.card).toBe(first.id);
    await app.ask('And by year?', { parent: first.id });
    expect(app.thread.map((c) => c.heading)).toEqual(['Sales by country', 'And by year?']);
    expect(app.thread[0].collapsed).toBe(true);
    expect(app.thread[1].collapsed).toBe(false);
    expect(app.thread[1].parent).toBe(first.id);
    // A follow-up chip says so to Go; a typed question lets Go decide.
    expect(f.calls.filter((c) => c.target === 'Ask.QuestionWith').map((c) => c.args[1])).toEqual(['', 'yes']);
    // A typed question in the conversation builds on its last answer.
    await app.ask('Only 2012');
    expect(app.thread[2].parent).toBe(app.thread[1].id);
    // The newest card's heading is brought into view (defect 9).
    expect(app.scrollTo?.card).toBe(app.thread[2].id);
    app.reveal(first.id);
    expect(first.collapsed).toBe(false);
    await app.newConversation();
    expect(app.thread).toHaveLength(0); // "New conversation" clears the thread…
    await app.undoNewConversation();
    expect(app.thread.map((c) => c.heading)).toEqual(['Sales by country', 'And by year?', 'Only 2012']); // …once undoable
    expect(f.calls.at(-1)?.target).toBe('Ask.RestoreContext');
    await app.newConversation();
    await app.ask('Fresh');
    expect(app.thread[0].parent).toBeNull();
  });

  it('counts a truncated result in the background and loads the next 1,000', async () => {
    const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ n: from + i }));
    let release: (v: { rows: number }) => void = () => {};
    const f = fake({
      'Results.Run': () => answer({ query: 'SELECT n FROM t', results: rows(0, 1000), row_count: 1000, truncated: true }),
      'Results.Count': () => new Promise((r) => (release = r)),
      'Results.Page': (req) => {
        const { offset } = req as { offset: number };
        return answer({ results: rows(offset, offset < 3000 ? 1000 : 503), truncated: offset < 3000 });
      },
    });
    await app.boot(f.t);
    await app.run('SELECT n FROM t');
    const c = app.thread[0];
    expect(c.more).toBe(true);
    expect(c.total.state).toBe('counting');
    expect(f.calls.find((x) => x.target === 'Results.Count')?.args).toEqual(['SELECT n FROM t']);
    release({ rows: 3503 });
    await tick();
    expect(c.total).toEqual({ state: 'done', rows: 3503 });
    await app.loadMore(c.id);
    expect(c.rows).toHaveLength(2000);
    expect(c.rows[1000]).toEqual([1000]);
    expect(f.calls.find((x) => x.target === 'Results.Page')?.args).toEqual([{ sql: 'SELECT n FROM t', offset: 1000, limit: 1000 }]);
    await app.loadMore(c.id);
    await app.loadMore(c.id);
    expect(c.rows).toHaveLength(3503);
    expect(c.more).toBe(false);
  });

  it('stops a count on Cancel', async () => {
    let reject: (e: unknown) => void = () => {};
    const f = fake({
      'Results.Run': () => answer({ results: [{ n: 1 }], truncated: true }),
      'Results.Count': () => new Promise((_, r) => (reject = r)),
      'Results.CancelCount': () => reject(new ApiError({ type: 'cancelled', message: 'cancelled' })),
    });
    await app.boot(f.t);
    await app.run('SELECT 1 AS n');
    const c = app.thread[0];
    await app.cancelCount(c.id);
    await tick();
    expect(c.total.state).toBe('cancelled');
    expect(f.calls.map((x) => x.target)).toContain('Results.CancelCount');
  });

  it('pages a preview through the whole table, its total known from the schema', async () => {
    const f = fake({
      'Datasets.Schema': () => ({ database: 'big', tables: [{ name: 'events', kind: 'table', row_count: 100000, row_count_estimated: false, columns: [] }] }),
      'Results.Preview': () => answer({ query: 'SELECT * FROM "events"', results: [{ n: 1 }], truncated: true }),
    });
    await app.boot(f.t);
    await tick();
    await app.preview('events');
    const c = app.thread[0];
    expect(c.total).toEqual({ state: 'done', rows: 100000 });
    expect(c.sql).toBe('SELECT * FROM "events"');
    expect(f.calls.map((x) => x.target)).not.toContain('Results.Count');
  });

  it('keeps the question in the box when it fails (defect 12)', async () => {
    const f = fake({
      'Ask.QuestionWith': () => answer({ query: '', columns: [], results: [], errors: [{ type: 'refused', message: 'DELETE from Invoice would write', hint: '', query: '' }] }),
    });
    await app.boot(f.t);
    app.question = 'Delete the old invoices';
    await app.ask(app.question);
    expect(app.question).toBe('Delete the old invoices');
    expect(app.thread).toHaveLength(1);
  });

  it('lets Go tell a question from SQL, and answers the other way on request (defect 1)', async () => {
    const q = 'Select the top 10 customers by spending';
    const f = fake({
      'Ask.QuestionWith': (text) =>
        text === 'SELECT 1 AS n' ? answer({ question: null }) : answer({ question: text as string, query: 'SELECT CustomerId FROM Invoice LIMIT 10' }),
      'Ask.AsQuestion': (text) => answer({ question: text as string, query: 'SELECT 2' }),
      'Results.Run': () => answer({ errors: [{ type: 'syntax', message: 'near "the"', hint: '', query: q }] }),
    });
    await app.boot(f.t);
    app.question = q;
    app.submit();
    await tick();
    await tick();
    expect(f.calls.filter((c) => c.target === 'Results.Run')).toHaveLength(0);
    expect(f.calls.find((c) => c.target === 'Ask.QuestionWith')?.args).toEqual([q, '']);
    const c = app.thread[0];
    expect(c.taken).toBe('question');
    // "Run as SQL": the same text through Results.Run, in the same card.
    app.switchTaken(c.id);
    await tick();
    await tick();
    expect(f.calls.at(-1)).toEqual({ target: 'Results.Run', args: [q] });
    expect(app.thread).toHaveLength(1);
    expect(c.taken).toBe('sql');
    // SQL typed in the box ran as SQL: "Ask as a question" asks it.
    await app.ask('SELECT 1 AS n');
    const d = app.thread[1];
    expect(d.taken).toBe('sql');
    app.switchTaken(d.id);
    await tick();
    await tick();
    expect(f.calls.at(-1)).toEqual({ target: 'Ask.AsQuestion', args: ['SELECT 1 AS n'] });
    expect(d.taken).toBe('question');
  });

  it('asks Ollama again when the model panel opens (defect 6)', async () => {
    let running = true;
    const f = fake({ 'Ask.Status': () => ({ running, host: 'http://127.0.0.1:11434', host_source: 'default', models: [], model: running ? 'm' : '', embed_model: '', problem: '', fix: '', code: '' }) });
    await app.boot(f.t);
    await tick();
    expect(app.ollama?.running).toBe(true);
    running = false; // Ollama stopped
    app.openPanel('ollama');
    expect(app.ollamaChecking).toBe(true);
    await tick();
    expect(app.ollama?.running).toBe(false);
    expect(app.panel).toBe('ollama');
  });

  it('marks an answer wrong through its history entry', async () => {
    const f = fake({
      'Ask.QuestionWith': (q) => answer({ question: q as string, query: 'SELECT 7' }),
      'History.List': () => [
        { id: 3, question: 'Top', sql: 'SELECT 6' },
        { id: 4, question: 'Top', sql: 'SELECT 7' },
      ],
    });
    await app.boot(f.t);
    await app.ask('Top');
    expect(await app.markWrong(app.thread[0].id)).toBe(true);
    expect(f.calls.at(-1)).toEqual({ target: 'History.MarkWrong', args: [4, true] });
  });

  it('folds the sidebar and remembers it', async () => {
    const before = app.sidebarCollapsed;
    app.toggleSidebar();
    expect(app.sidebarCollapsed).toBe(!before);
    app.toggleSidebar();
    expect(app.sidebarCollapsed).toBe(before);
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
  it('goes back to "Connect to PostgreSQL", its form kept, from the Settings it opened', async () => {
    const f = fake({ 'Datasets.SavedConnections': () => [] });
    await app.boot(f.t);
    app.openConnect();
    app.connection.username = 'postgres';
    app.connection.password = 'typed';
    app.connection.error = { type: 'database', message: 'the role postgres is a superuser', hint: '', query: '' };
    app.openPanel('settings'); // the refusal's "Open Settings"
    expect(app.panel).toBe('settings');
    app.closePanel();
    expect(app.panel).toBe('connect');
    expect(app.connection.username).toBe('postgres');
    expect(app.connection.password).toBe('typed');
    expect(app.connection.error).toBeNull();
    // Settings opened from elsewhere close to nothing.
    app.closeConnect();
    expect(app.connection.password).toBe('');
    app.openPanel('settings');
    app.closePanel();
    expect(app.panel).toBeNull();
  });
});

const chinook: GoldSetInfo = {
  name: 'chinook',
  title: 'Built-in: chinook (Chinook)',
  source: 'built-in',
  database: 'Chinook',
  builtin: true,
  items: 69,
  answerable: 59,
  unanswerable: 10,
  follow_ups: 7,
  fits: true,
};
const other: GoldSetInfo = { ...chinook, name: 'northwind', title: 'Built-in: northwind (Northwind)', database: 'Northwind', fits: false };
const fileSet = (path: string): GoldSetInfo => ({ ...chinook, name: path, title: 'sales-gold', source: path, database: 'sales', builtin: false, items: 12 });

const twoModels = () => ({
  running: true,
  host: '',
  models: [
    { name: 'qwen2.5-coder:7b', family: '', parameter_size: '7.6B', quantization: '', size_bytes: 4.7e9, digest: '', context_length: 32768, capabilities: ['completion', 'tools'] },
    { name: 'llama3.1:8b', family: '', parameter_size: '8B', quantization: '', size_bytes: 4.9e9, digest: '', context_length: 131072, capabilities: ['completion', 'tools'] },
  ],
  model: 'qwen2.5-coder:7b',
  embed_model: '',
  problem: '',
  fix: '',
  code: '',
});

function modelReport(model: string, acc: number): ModelReport {
  return {
    items: [],
    execution_accuracy: acc,
    abstention: 1,
    false_refusals: 0,
    by_difficulty: {},
    pass_at_k: null,
    pass_hat_k: null,
    latency_p50_s: 0.1,
    latency_p95_s: 0.2,
    tokens_total: 0,
    lenient: false,
    model,
    gold: 'chinook',
    database: demo.name,
    source: 'model',
    k: 1,
    matches: 0,
    questions: 69,
    outcomes: {},
    unanswerable: 10,
    repairs: 0,
    repaired_items: 0,
    relaxed_matches: 0,
    warnings: [],
    errors: [],
  };
}

function evalResult(over: Partial<EvalResult> = {}): EvalResult {
  return {
    gold: 'chinook',
    database: demo.name,
    k: 1,
    lenient: false,
    elapsed_s: 2,
    models: [modelReport('qwen2.5-coder:7b', 1), modelReport('llama3.1:8b', 0)],
    items: [],
    report_dir: '/data/evals/1',
    warnings: [],
    errors: [],
    ...over,
  };
}

describe('evaluating models', () => {
  const evalDefaults = {
    'Ask.Status': twoModels,
    'Evaluate.GoldSets': () => [chinook, other],
    'Evaluate.DefaultDraftName': () => '/home/me/chinook-gold.toml',
  };
  const ev = app.evaluation;

  beforeEach(() => {
    app.dataset = null;
    app.banner = null;
    app.view = 'ask';
    app.panel = null;
    app.ollama = null;
    ev.reset();
  });

  it('opens with the sets that fit chosen and the model in use ticked', async () => {
    const f = fake(evalDefaults);
    await app.boot(f.t);
    await tick();
    app.panel = 'ollama';
    app.openEvaluate();
    await tick();
    await tick();
    expect(app.view).toBe('evaluate');
    expect(app.panel).toBeNull();
    expect(ev.sets.map((s) => s.name)).toEqual(['chinook', 'northwind']);
    expect(ev.gold).toBe('chinook');
    expect(ev.chosen?.items).toBe(69);
    expect(ev.models).toEqual(['qwen2.5-coder:7b']);
    expect(ev.installed).toEqual(['qwen2.5-coder:7b', 'llama3.1:8b']);
    expect(ev.draft.out).toBe('/home/me/chinook-gold.toml');
    expect(ev.canRun).toBe(true);
    app.closeEvaluate();
    expect(app.view).toBe('ask');
  });

  it('keeps the ticked models in the installed order, and the tries between 1 and 5', async () => {
    const f = fake(evalDefaults);
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    ev.toggleModel('qwen2.5-coder:7b', false);
    expect(ev.canRun).toBe(false);
    ev.toggleModel('llama3.1:8b', true);
    ev.toggleModel('qwen2.5-coder:7b', true);
    expect(ev.models).toEqual(['qwen2.5-coder:7b', 'llama3.1:8b']);
    ev.toggleModel('qwen2.5-coder:7b', false);
    ev.tickDefault(); // the user's choice stands
    expect(ev.models).toEqual(['llama3.1:8b']);
    ev.setK(9);
    expect(ev.k).toBe(5);
    ev.setK(0);
    expect(ev.k).toBe(1);
    ev.setK(3);
    ev.toggleModel('qwen2.5-coder:7b', true);
    expect(ev.questions).toBe(69 * 3 * 2);
  });

  it('runs with progress and running counts, then shows the result', async () => {
    let finish: (r: EvalResult) => void = () => {};
    const f = fake({ ...evalDefaults, 'Evaluate.Run': () => new Promise((r) => (finish = r)) });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    ev.toggleModel('llama3.1:8b', true);
    ev.lenient = true;
    const p = ev.start();
    expect(ev.running).toBe(true);
    expect(ev.canRun).toBe(false);
    expect(f.calls.find((c) => c.target === 'Evaluate.Run')?.args).toEqual([
      { gold: 'chinook', models: ['qwen2.5-coder:7b', 'llama3.1:8b'], k: 1, lenient: true },
    ]);
    const step = { item_id: 'a', question: 'How many tracks?', try: 1, k: 1, total: 138, difficulty: 'easy', outcome: '' };
    f.emit('eval:progress', { ...step, model: 'qwen2.5-coder:7b', done: 0, scored: false, match: false });
    expect(ev.run?.progress?.question).toBe('How many tracks?');
    f.emit('eval:progress', { ...step, model: 'qwen2.5-coder:7b', done: 1, scored: true, match: true, outcome: 'match' });
    f.emit('eval:progress', { ...step, model: 'llama3.1:8b', done: 70, scored: true, match: false, outcome: 'wrong_result' });
    expect(ev.run?.scored).toEqual({ 'qwen2.5-coder:7b': 1, 'llama3.1:8b': 1 });
    expect(ev.run?.matches).toEqual({ 'qwen2.5-coder:7b': 1 });
    finish(evalResult());
    await p;
    expect(ev.running).toBe(false);
    expect(ev.run).toBeNull();
    expect(ev.result?.models.map((m) => m.execution_accuracy)).toEqual([1, 0]);
    expect(f.handlers.has('eval:progress')).toBe(false); // unsubscribed
  });

  it('cancels a run and keeps the partial result', async () => {
    let finish: (r: EvalResult) => void = () => {};
    const f = fake({ ...evalDefaults, 'Evaluate.Run': () => new Promise((r) => (finish = r)) });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    const p = ev.start();
    await ev.cancel();
    expect(f.calls.map((c) => c.target)).toContain('Evaluate.Cancel');
    finish(evalResult({ errors: [{ type: 'cancelled', message: 'cancelled', hint: '', query: '' }] }));
    await p;
    expect(ev.result?.errors[0].type).toBe('cancelled');
    expect(ev.error).toBeNull();
  });

  it('says why a run could not start, and checks Ollama again when it is down', async () => {
    const f = fake({
      ...evalDefaults,
      'Evaluate.Run': () => Promise.reject(new ApiError({ type: 'llm_unavailable', message: 'Ollama is not running', hint: 'start it' })),
    });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    const before = f.calls.filter((c) => c.target === 'Ask.Status').length;
    await ev.start();
    expect(ev.error?.type).toBe('llm_unavailable');
    expect(ev.result).toBeNull();
    expect(f.calls.filter((c) => c.target === 'Ask.Status').length).toBe(before + 1);
  });

  it('does not run with nothing open', async () => {
    const f = fake({ ...evalDefaults, 'Datasets.Current': () => null });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    expect(app.dataset).toBeNull();
    expect(ev.canRun).toBe(false);
    await ev.start();
    expect(f.calls.map((c) => c.target)).not.toContain('Evaluate.Run');
  });

  it('asks for the path in the browser, and loads a gold file, listing its mistakes', async () => {
    const f = fake({
      ...evalDefaults,
      'Evaluate.LoadGold': (p) =>
        p === '/data/bad.toml'
          ? Promise.reject(new ApiError({ type: 'usage', message: 'bad.toml:3: unknown field "sqll"\nbad.toml:9: no question', hint: 'fix the gold set file' }))
          : fileSet(p as string),
    });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    await ev.chooseFile();
    expect(ev.askPath).toBe(true);
    expect(f.calls.map((c) => c.target)).not.toContain('Evaluate.ChooseGoldFile');
    expect(await ev.loadFile('/data/bad.toml')).toBe(false);
    expect(ev.goldError?.message).toContain('sqll');
    expect(ev.gold).toBe('chinook');
    expect(await ev.loadFile('  /data/sales-gold.toml ')).toBe(true);
    expect(f.calls.filter((c) => c.target === 'Evaluate.LoadGold').at(-1)?.args).toEqual(['/data/sales-gold.toml']);
    expect(ev.goldError).toBeNull();
    expect(ev.gold).toBe('/data/sales-gold.toml');
    expect(ev.files.map((g) => g.name)).toEqual(['/data/sales-gold.toml']);
    expect(ev.chosen?.items).toBe(12);
  });

  it('uses the open dialog on the desktop, and the path field when there is none', async () => {
    let dialog: () => unknown = () => '/data/sales-gold.toml';
    const f = fake({ ...evalDefaults, 'Evaluate.ChooseGoldFile': () => dialog(), 'Evaluate.LoadGold': (p) => fileSet(p as string) }, 'desktop');
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    await ev.chooseFile();
    expect(ev.gold).toBe('/data/sales-gold.toml');
    dialog = () => ''; // closed without a choice
    await ev.chooseFile();
    expect(ev.gold).toBe('/data/sales-gold.toml');
    dialog = () => Promise.reject(new ApiError({ type: 'usage', message: 'this window has no file dialog', hint: "type the file's path instead" }));
    await ev.chooseFile();
    expect(ev.askPath).toBe(true);
    expect(ev.goldError).toBeNull();
  });

  it('drafts a gold set with progress, then chooses it; an existing file is replaced only when asked', async () => {
    let finish: () => void = () => {};
    const drafted = fileSet('/home/me/chinook-gold.toml');
    let exists = false;
    const f = fake({
      ...evalDefaults,
      'Evaluate.Draft': (req) => {
        const r = req as { out: string; force: boolean };
        if (exists && !r.force) return Promise.reject(new ApiError({ type: 'export', key: 'eval.exists', message: `${r.out} already exists`, hint: 'choose another file, or replace it' }));
        return new Promise((res) => (finish = () => res({ out: r.out, model: 'qwen2.5-coder:7b', items: 28, dropped: 2, gold: drafted })));
      },
    });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    await tick();
    ev.openDraft();
    ev.draft.n = 30;
    const p = ev.startDraft();
    expect(ev.draft.running).toBe(true);
    expect(ev.canRun).toBe(false);
    f.emit('eval:draft', { kept: 12, want: 30 });
    expect([ev.draft.kept, ev.draft.want]).toEqual([12, 30]);
    finish();
    await p;
    expect(f.calls.find((c) => c.target === 'Evaluate.Draft')?.args).toEqual([{ out: '/home/me/chinook-gold.toml', n: 30, model: '', force: false }]);
    expect(ev.draft.running).toBe(false);
    expect(ev.draft.result?.items).toBe(28);
    expect(ev.gold).toBe('/home/me/chinook-gold.toml');
    expect(ev.files).toHaveLength(1);

    exists = true;
    await ev.startDraft();
    expect(ev.draft.exists).toBe(true);
    expect(ev.draft.error).toBeNull();
    const q = ev.startDraft(true);
    finish();
    await q;
    expect(f.calls.filter((c) => c.target === 'Evaluate.Draft').at(-1)?.args).toEqual([
      { out: '/home/me/chinook-gold.toml', n: 30, model: '', force: true },
    ]);
    expect(ev.draft.exists).toBe(false);
  });

  it('says where to save a draft, and why it could not be saved', async () => {
    const f = fake({
      ...evalDefaults,
      'Evaluate.Draft': () => Promise.reject(new ApiError({ type: 'export', message: 'open /data/x.toml: permission denied', hint: '' })),
    });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    ev.draft.out = '  ';
    await ev.startDraft();
    expect(ev.draft.error?.type).toBe('usage');
    expect(f.calls.map((c) => c.target)).not.toContain('Evaluate.Draft');
    ev.draft.out = '/data/x.toml';
    await ev.startDraft();
    expect(ev.draft.error).toMatchObject({ type: 'usage', message: 'The gold set could not be saved: open /data/x.toml: permission denied' });
  });

  it('stops a draft on Cancel, saying that nothing was saved', async () => {
    let stop: () => void = () => {};
    const f = fake({
      ...evalDefaults,
      'Evaluate.Draft': () => new Promise((_, reject) => (stop = () => reject(new ApiError({ type: 'cancelled', message: 'cancelled' })))),
      'Evaluate.Cancel': () => stop(),
    });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    ev.draft.out = '/tmp/g.toml';
    const p = ev.startDraft();
    await ev.cancel();
    await p;
    expect(ev.draft).toMatchObject({ running: false, stopped: true, error: null, result: null });
    expect(ev.gold).toBe('chinook');
  });

  it('keeps the database open while an evaluation runs on it, and reloads the sets when another opens', async () => {
    let finish: (r: EvalResult) => void = () => {};
    const sales = { ...demo, name: 'sales.db', path: '/data/sales.db', demo: false, title: 'sales.db (read-only) — Querent' };
    const f = fake({
      ...evalDefaults,
      'Evaluate.Run': () => new Promise((r) => (finish = r)),
      'Datasets.Open': () => sales,
    });
    await app.boot(f.t);
    await tick();
    app.openEvaluate();
    await tick();
    const p = ev.start();
    expect(await app.open('/data/sales.db')).toBe(false);
    expect(app.banner?.message).toBe('An evaluation is running on this database');
    expect(f.calls.map((c) => c.target)).not.toContain('Datasets.Open');
    finish(evalResult());
    await p;
    const sets = f.calls.filter((c) => c.target === 'Evaluate.GoldSets').length;
    expect(await app.open('/data/sales.db')).toBe(true);
    await tick();
    expect(f.calls.filter((c) => c.target === 'Evaluate.GoldSets').length).toBe(sets + 1);
    expect(app.view).toBe('evaluate');
  });

  it('goes back to the questions when one is asked (from the history, say)', async () => {
    const f = fake({ ...evalDefaults, 'Ask.QuestionWith': () => answer() });
    await app.boot(f.t);
    app.openEvaluate();
    await app.ask('How many?');
    expect(app.view).toBe('ask');
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as api from './index';
import { askProgress, draftProgress, evalProgress, importProgress, normalise, pullProgress } from './events';
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
    f = fakeTransport({ 'Datasets.Recent': null, 'History.List': [{ sql: 'SELECT 1' }], 'Ask.Status': { running: true } });
    await api.init(f.t);
  });

  it('passes each method its arguments in order', async () => {
    await api.History.List({ all: true, limit: 50 });
    await api.Export.Run({ sql: 'SELECT 1', out: '', format: 'csv', bom: true });
    await api.Datasets.ChooseNewDatabase('sales.sqlite');
    await api.Settings.Save({ ollama_host: '', llm_url: '', api_key_set: false, model: '', max_rows: 100, timeout_s: 30, theme: 'dark', skip_explanation: false, skip_votes: false, require_readonly_role: false, allow_superuser: false, language: '', thinking_models: []  });
    expect(f.calls.map((c) => c.target)).toEqual(['History.List', 'Export.Run', 'Datasets.ChooseNewDatabase', 'Settings.Save']);
    expect(f.calls[0].args).toEqual([{ all: true, limit: 50 }]);
    expect(f.calls[1].args).toEqual([{ sql: 'SELECT 1', out: '', format: 'csv', bom: true }]);
    expect(f.calls[2].args).toEqual(['sales.sqlite']);
  });

  it('turns a null list into an empty one', async () => {
    expect(await api.Datasets.Recent()).toEqual([]);
    expect(await api.History.List({ limit: 1 })).toEqual([{ sql: 'SELECT 1' }]);
  });

  it('hands events over normalised', () => {
    const got = vi.fn();
    api.on('ask:progress', got);
    f.handlers.get('ask:progress')!({ Stage: 'repairing', Attempt: 3, Attempts: 4, Tokens: 16 });
    expect(got).toHaveBeenCalledWith({ stage: 'repairing', attempt: 3, attempts: 4, tokens: 16 });
  });

  it('calls Evaluate with its request, and fills the lists Go left null', async () => {
    const g = fakeTransport({
      'Evaluate.GoldSets': null,
      'Evaluate.Run': {
        gold: 'chinook',
        database: 'Chinook',
        k: 1,
        lenient: false,
        elapsed_s: 1.5,
        models: [{ model: 'qwen2.5-coder:7b', items: [{ id: 'a', match: true, relaxed: null }], warnings: null, errors: null, by_difficulty: null, outcomes: null }],
        items: null,
        report_dir: '/data/evals/x',
        warnings: null,
        errors: null,
      },
      'Evaluate.Draft': { out: '/tmp/g.toml', model: 'm', items: 3, dropped: 1 },
    });
    await api.init(g.t);
    expect(await api.Evaluate.GoldSets()).toEqual([]);
    const res = await api.Evaluate.Run({ gold: 'chinook', models: ['qwen2.5-coder:7b', 'llama3.1:8b'], k: 3, lenient: true });
    expect(g.calls[1]).toEqual({ target: 'Evaluate.Run', args: [{ gold: 'chinook', models: ['qwen2.5-coder:7b', 'llama3.1:8b'], k: 3, lenient: true }] });
    expect(res.items).toEqual([]);
    expect(res.warnings).toEqual([]);
    expect(res.errors).toEqual([]);
    expect(res.models[0]).toMatchObject({ warnings: [], errors: [], by_difficulty: {}, outcomes: {} });
    expect(res.models[0].items[0].relaxed).toEqual([]);
    const d = await api.Evaluate.Draft({ out: '/tmp/g.toml', n: 3, model: '', force: false });
    expect(g.calls[2].args).toEqual([{ out: '/tmp/g.toml', n: 3, model: '', force: false }]);
    expect(d.gold).toBeNull();
    await api.Evaluate.LoadGold('/tmp/g.toml');
    await api.Evaluate.ChooseGoldFile();
    await api.Evaluate.ChooseDraftFile();
    await api.Evaluate.DefaultDraftName();
    await api.Evaluate.Cancel();
    expect(g.calls.slice(3).map((c) => c.target)).toEqual([
      'Evaluate.LoadGold',
      'Evaluate.ChooseGoldFile',
      'Evaluate.ChooseDraftFile',
      'Evaluate.DefaultDraftName',
      'Evaluate.Cancel',
    ]);
    expect(g.calls[3].args).toEqual(['/tmp/g.toml']);
  });

  it('hands evaluation events over normalised', async () => {
    const got = vi.fn();
    api.on('eval:progress', got);
    f.handlers.get('eval:progress')!({ model: 'm', item_id: 'a', question: 'Q?', try: 1, k: 1, done: 3, total: 138, scored: true, match: true, outcome: 'match', difficulty: 'easy' });
    expect(got).toHaveBeenCalledWith({ model: 'm', item_id: 'a', question: 'Q?', try: 1, k: 1, done: 3, total: 138, scored: true, match: true, outcome: 'match', difficulty: 'easy' });
    const draft = vi.fn();
    api.on('eval:draft', draft);
    f.handlers.get('eval:draft')!({ kept: 4, want: 30 });
    expect(draft).toHaveBeenCalledWith({ kept: 4, want: 30 });
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

  it("reads the evaluation's events, Go's names too", () => {
    expect(evalProgress({ Model: 'm', ItemID: 'x', Question: 'Q', Try: 2, K: 3, Done: 5, Total: 9, Scored: false })).toEqual({
      model: 'm',
      item_id: 'x',
      question: 'Q',
      try: 2,
      k: 3,
      done: 5,
      total: 9,
      scored: false,
      match: false,
      outcome: '',
      difficulty: '',
    });
    expect(evalProgress(null).done).toBe(0);
    expect(evalProgress({ scored: 'yes', match: 1 })).toMatchObject({ scored: false, match: false });
    expect(draftProgress({ Kept: 2, Want: 5 })).toEqual({ kept: 2, want: 5 });
    expect(normalise('eval:draft', 'junk')).toEqual({ kept: 0, want: 0 });
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

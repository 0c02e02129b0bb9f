import { beforeEach, describe, expect, it } from 'vitest';
import type { Transport } from '../api/transport';
import { ApiError } from '../api/error';
import type { Answer, HistoryItem } from '../api/types';
import { app } from './app.svelte';
import { approve, correct } from './verdict';

const demo = { name: 'Chinook demo (built in)', dialect: 'sqlite', server: '', path: '', demo: true, read_only: true, tables: 11, views: 0, size_bytes: 0, warnings: [], warnings_said: [], title: 'Querent' };

function answer(over: Partial<Answer> = {}): Answer {
  return {
    question: null, query: 'SELECT 1 AS n', executed_sql: '', columns: [{ name: 'n', type: 'INTEGER' }], results: [{ n: 1 }], row_count: 1,
    truncated: false, execution_time_s: 0.001, stats: {}, optimization_hints: [], visualization_suggestion: 'table', visualization_reason: '',
    visualization_reasons: {}, visualization: { type: 'table', x: '', y: [], series: '', x_axis: '', y2: [], time_unit: '' }, explanation: '', follow_up_questions: [], tables_used: [], session_context: {}, model: null, attempts: [],
    time_to_rows_s: null, model_stats: null, errors: [], warnings: [], tables_shown: null, examples_used: [], glossary_used: [], masked_columns: [], context_used: [], confidence: null, ...over,
  };
}

const wrong = 'SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1';
const right = 'SELECT t.Name FROM InvoiceLine il JOIN Track t USING (TrackId) GROUP BY 1 ORDER BY sum(il.Quantity) DESC LIMIT 1';

// A transport whose History holds the two answers to the question (the
// older one with other SQL), and whose Correct refuses SQL with "Quantiti".
function fake() {
  const calls: { target: string; args: unknown[] }[] = [];
  const entries = [
    { id: 7, question: 'Which track sold best?', sql: wrong },
    { id: 3, question: 'Which track sold best?', sql: 'SELECT 1' },
  ] as HistoryItem[];
  const impl: Record<string, (...a: unknown[]) => unknown> = {
    'Datasets.Current': () => demo,
    'Datasets.Schema': () => ({ database: demo.name, tables: [] }),
    'Datasets.Recent': () => [],
    'Settings.Get': () => ({ ollama_host: '', model: '', max_rows: 1000, timeout_s: 30, theme: 'system' }),
    'Ask.Status': () => ({ running: true, host: '', models: [], model: 'm', embed_model: '', problem: '', fix: '', code: '' }),
    'Ask.QuestionWith': (q) => answer({ question: q as string, query: wrong, results: [{ Name: 'Occupation / Precipice' }], columns: [{ name: 'Name', type: 'TEXT' }] }),
    'History.List': () => entries,
    'History.Approve': (id) => ({ ...entries[0], id, verified_as: 'approved' }),
    'History.Correct': (_id, sql) =>
      String(sql).includes('Quantiti')
        ? Promise.reject(new ApiError({ type: 'unknown_column', message: 'the correction of entry 7 was refused, the answer is unchanged: no such column: il.Quantiti', hint: 'did you mean Quantity?' }))
        : answer({ query: String(sql), results: [{ Name: 'Balls to the Wall' }], columns: [{ name: 'Name', type: 'TEXT' }] }),
  };
  const t: Transport = {
    kind: 'browser',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      calls.push({ target: `${service}.${method}`, args });
      const f = impl[`${service}.${method}`];
      return (f ? await f(...args) : undefined) as T;
    },
    on: () => () => {},
    fileURL: () => '',
  };
  return { t, calls };
}

describe("the analyst's verdict on a card", () => {
  beforeEach(() => {
    app.thread = [];
    app.banner = null;
  });

  it('approves the entry with the answer as the model gave it', async () => {
    const f = fake();
    await app.boot(f.t);
    await app.ask('Which track sold best?');
    const card = app.shown!;
    expect(await approve(card)).toBe(true);
    expect(f.calls.find((c) => c.target === 'History.Approve')?.args).toEqual([7]);
  });

  it('refuses a correction that does not compile, keeping the answer; a right one replaces it', async () => {
    const f = fake();
    await app.boot(f.t);
    await app.ask('Which track sold best?');
    const card = app.shown!;
    const rev = card.rev;
    expect(await correct(card, right.replace('Quantity', 'Quantiti'))).toBe(false);
    expect(app.banner?.type).toBe('unknown_column');
    expect(app.banner?.message).toContain('refused, the answer is unchanged');
    expect(card.rev).toBe(rev);
    expect(card.doc?.query).toBe(wrong);
    expect(await correct(card, right)).toBe(true);
    expect(app.banner).toBeNull();
    expect(f.calls.filter((c) => c.target === 'History.Correct').map((c) => c.args)).toEqual([[7, right.replace('Quantity', 'Quantiti')], [7, right]]);
    expect(card.doc?.query).toBe(right);
    expect(card.rows).toEqual([['Balls to the Wall']]);
    expect(card.question).toBe('Which track sold best?');
  });
});

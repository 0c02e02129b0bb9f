import { beforeEach, describe, expect, it } from 'vitest';
import * as api from '../api';
import type { Transport } from '../api/transport';
import type { ExportProgress, ExportResult, HistoryItem, ImportProgress, ImportReport } from '../api/types';
import { errorDoc } from './app.svelte';
import { chooseColumn, chooseTable, exporting, glossary, history, importing, normalisePlan, overrides, tableKey, type ImportChoices } from './files';

type Handler = (...args: unknown[]) => unknown;

function fake(impl: Record<string, Handler> = {}) {
  const calls: { target: string; args: unknown[] }[] = [];
  const handlers = new Map<string, Set<(d: unknown) => void>>();
  const t: Transport = {
    kind: 'browser',
    async call<T>(service: string, method: string, args: unknown[]): Promise<T> {
      const target = `${service}.${method}`;
      calls.push({ target, args });
      const f = impl[target];
      return (f ? await f(...args) : undefined) as T;
    },
    on(name, h) {
      if (!handlers.has(name)) handlers.set(name, new Set());
      handlers.get(name)!.add(h);
      return () => handlers.get(name)?.delete(h);
    },
    fileURL: (d, n) => `${d}?name=${n}`,
  };
  const emit = (name: string, d: unknown) => handlers.get(name)?.forEach((h) => h(d));
  const listening = (name: string) => handlers.get(name)?.size ?? 0;
  return { t, calls, emit, listening };
}

const exported: ExportResult = { path: '/tmp/x.csv', format: 'csv', rows: 3, truncated: false, sheets: [], warnings: [], elapsed_s: 0.1, masked_columns: [] };
const report: ImportReport = { database: '/tmp/sales.sqlite', elapsed_s: 0.2, warnings: [], errors: [], tables: [] };

describe('the calls of the dialogs', () => {
  let f: ReturnType<typeof fake>;
  let release: () => void;

  beforeEach(async () => {
    release = () => {};
    f = fake({
      'Export.DefaultName': (format) => `/home/me/chinook.${format}`,
      'Export.ChooseFile': (name) => `${name}.chosen`,
      'Export.Run': () => new Promise((r) => (release = () => r(exported))),
      'Datasets.ChooseImportFiles': () => null,
      'Datasets.ChooseNewDatabase': (name) => `/data/${name}`,
      'Datasets.Import': () => new Promise((r) => (release = () => r(report))),
      'History.List': () => [{ sql: 'SELECT 1' }],
      'History.MarkWrong': () => null,
    });
    await api.init(f.t);
  });

  it('proposes and chooses where an export goes', async () => {
    expect(await exporting.defaultName('csv')).toBe('/home/me/chinook.csv');
    expect(await exporting.chooseFile('/home/me/a.xlsx')).toBe('/home/me/a.xlsx.chosen');
    expect(f.calls).toEqual([
      { target: 'Export.DefaultName', args: ['csv', ''] },
      { target: 'Export.ChooseFile', args: ['/home/me/a.xlsx'] },
    ]);
    expect(exporting.downloadURL('/files/1', 'a.csv')).toBe('/files/1?name=a.csv');
  });

  it('exports with its progress, listening only while it runs', async () => {
    const seen: ExportProgress[] = [];
    const p = exporting.run({ sql: 'SELECT 1', out: '', format: 'csv' }, (e) => seen.push(e));
    expect(f.listening('export:progress')).toBe(1);
    f.emit('export:progress', { rows: 10, bytes: 80 });
    release();
    expect(await p).toEqual(exported);
    expect(f.listening('export:progress')).toBe(0);
    f.emit('export:progress', { rows: 20, bytes: 160 });
    expect(seen).toEqual([{ rows: 10, bytes: 80 }]);
    expect(f.calls.at(-1)).toEqual({ target: 'Export.Run', args: [{ sql: 'SELECT 1', out: '', format: 'csv' }] });
  });

  it('stops listening when an export fails, and says why', async () => {
    const g = fake({ 'Export.Run': () => Promise.reject({ type: 'cancelled', message: 'cancelled', hint: '' }) });
    await api.init(g.t);
    const err = await exporting.run({ sql: 'SELECT 1' }, () => {}).catch(errorDoc);
    expect(err).toEqual({ type: 'cancelled', message: 'cancelled', hint: '', query: '' });
    expect(g.listening('export:progress')).toBe(0);
    await exporting.cancel();
    expect(g.calls.at(-1)?.target).toBe('Export.Cancel');
  });

  it('chooses what to import and where', async () => {
    expect(await importing.chooseFiles()).toEqual([]); // a closed dialog
    expect(await importing.chooseTarget('sales.sqlite')).toBe('/data/sales.sqlite');
    expect(f.calls.map((c) => c.target)).toEqual(['Datasets.ChooseImportFiles', 'Datasets.ChooseNewDatabase']);
  });

  it('imports with its progress, listening only while it runs', async () => {
    const seen: ImportProgress[] = [];
    const req = { target: '/data/sales.sqlite', inputs: ['/data/sales.csv'], open: true };
    const p = importing.run(req, (e) => seen.push(e));
    expect(f.listening('import:progress')).toBe(1);
    f.emit('import:progress', { phase: 'writing', source: 'sales.csv', bytes_done: 1, bytes_total: 2, rows: 5, rows_total: 10 });
    release();
    expect(await p).toEqual(report);
    expect(f.listening('import:progress')).toBe(0);
    expect(seen).toEqual([{ phase: 'writing', source: 'sales.csv', bytes_done: 1, bytes_total: 2, rows: 5, rows_total: 10 }]);
    expect(f.calls.at(-1)).toEqual({ target: 'Datasets.Import', args: [req] });
    await importing.cancel();
    expect(f.calls.at(-1)?.target).toBe('Datasets.CancelImport');
  });

  it('previews with its progress, and lets Go forget the preview', async () => {
    const g = fake({
      'Datasets.PreviewImport': () => ({
        plan_version: 1,
        database: '',
        warnings: null,
        errors: null,
        tables: [{ source: 'a.csv', source_path: '/d/a.csv', sheet: null, columns: [{ name: 'x', bad_at: null, overridden: null }], preview_rows: [null, [1]] }],
      }),
    });
    await api.init(g.t);
    const seen: ImportProgress[] = [];
    const req = { inputs: ['/d/a.csv'], overrides: [{ source: '/d/a.csv', sheet: '', table: 't' }] };
    const p = importing.preview(req, (e) => seen.push(e));
    expect(g.listening('import:progress')).toBe(1);
    g.emit('import:progress', { phase: 'reading', source: 'a.csv', bytes_done: 1, bytes_total: 2, rows: 0, rows_total: 0 });
    const plan = await p;
    expect(g.listening('import:progress')).toBe(0);
    expect(seen.length).toBe(1);
    expect(plan.warnings).toEqual([]);
    expect(plan.errors).toEqual([]);
    expect(plan.tables[0].preview_rows).toEqual([[], [1]]);
    expect(plan.tables[0].columns[0]).toMatchObject({ bad_at: [], overridden: [] });
    expect(plan.tables[0].warnings).toEqual([]);
    expect(g.calls.at(-1)).toEqual({ target: 'Datasets.PreviewImport', args: [req] });
    await importing.forgetPreview();
    expect(g.calls.at(-1)?.target).toBe('Datasets.ForgetPreview');
  });

  it('lists the history', async () => {
    const entries: HistoryItem[] = await history.list({ all: true, text: 'top', limit: 200 });
    expect(entries).toEqual([{ sql: 'SELECT 1' }]);
    await history.markWrong(7, true);
    expect(f.calls).toEqual([
      { target: 'History.List', args: [{ all: true, text: 'top', limit: 200 }] },
      { target: 'History.MarkWrong', args: [7, true] },
    ]);
  });

  it('turns any rejection into an error document', () => {
    expect(errorDoc('{"type":"export","message":"exists","hint":"choose another","query":""}')).toEqual({
      type: 'export',
      message: 'exists',
      hint: 'choose another',
      query: '',
    });
    expect(errorDoc(new Error('boom'))).toMatchObject({ type: 'internal', message: 'boom' });
  });
});

// Only src/api and src/state talk to Go: the components and helpers import
// nothing but types from src/api.
describe('the way to Go', () => {
  const sources = import.meta.glob(['../components/*.svelte', '../lib/*.ts', '../i18n/*.ts', '../App.svelte', '../main.ts', '!../**/*.test.ts'], {
    query: '?raw',
    import: 'default',
    eager: true,
  }) as Record<string, string>;

  it('goes through src/state', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    const offenders = Object.entries(sources)
      .filter(([, text]) => /import\s+(?!type\b)[^;]*?from\s+['"](\.\.?\/)+api(\/[^'"]*)?['"]/.test(text))
      .map(([path]) => path);
    expect(offenders).toEqual([]);
  });
});

// The import dialog's choices, and the overrides they make.
describe('the choices of an import', () => {
  const csv = tableKey({ source_path: '/d/cabinet.csv', sheet: null });
  const sheet = tableKey({ source_path: '/d/book.xlsx', sheet: 'Data' });

  it('keeps a column\'s choices by position, and only what differs from detection', () => {
    let c: ImportChoices = {};
    c = chooseColumn(c, csv, 4, { type: 'date', on_bad: 'null' });
    c = chooseColumn(c, csv, 6, { name: 'days' });
    c = chooseColumn(c, csv, 8, { skip: true });
    expect(overrides(c)).toEqual([
      {
        source: '/d/cabinet.csv',
        sheet: '',
        columns: [
          { column: '#4', type: 'date', on_bad: 'null' },
          { column: '#6', name: 'days' },
          { column: '#8', skip: true },
        ],
      },
    ]);
    // Back to what was detected: the choice goes, and a policy goes with its type.
    c = chooseColumn(c, csv, 4, { type: undefined });
    c = chooseColumn(c, csv, 8, { skip: false });
    expect(overrides(c)[0].columns).toEqual([{ column: '#6', name: 'days' }]);
    c = chooseColumn(c, csv, 6, { name: '' });
    expect(overrides(c)).toEqual([]);
  });

  it('keeps a table\'s choices, and forgets its columns when it is read another way', () => {
    let c: ImportChoices = chooseColumn({}, sheet, 2, { type: 'integer' });
    c = chooseTable(c, sheet, { table: 'data_2024' });
    expect(overrides(c)).toEqual([{ source: '/d/book.xlsx', sheet: 'Data', table: 'data_2024', columns: [{ column: '#2', type: 'integer' }] }]);
    c = chooseTable(c, sheet, { range: 'B3:F' });
    expect(overrides(c)).toEqual([{ source: '/d/book.xlsx', sheet: 'Data', table: 'data_2024', range: 'B3:F' }]);
    c = chooseTable(c, csv, { header_row: -1, delimiter: ';' });
    expect(overrides(c)[1]).toEqual({ source: '/d/cabinet.csv', sheet: '', delimiter: ';', header_row: -1 });
    c = chooseTable(c, csv, { header_row: undefined, delimiter: undefined });
    expect(overrides(c).length).toBe(1);
  });

  it('makes every list of a plan a list', () => {
    const p = normalisePlan({ plan_version: 1, database: '', tables: null, warnings: null, errors: null });
    expect(p).toEqual({ plan_version: 1, database: '', tables: [], warnings: [], errors: [] });
  });
});

describe('the glossary panel’s calls', () => {
  it('lists, adds and removes entries, with Go’s null lists made empty', async () => {
    const f = fake({
      'Glossary.List': () => [{ term: 'big invoice', meaning: 'over 20', synonyms: null, sql: 'Total > 20', tables: null, stale: true, problem: { type: 'unknown_column' } }],
      'Glossary.Add': (e) => ({ ...(e as object), synonyms: null, tables: ['Invoice'], kind: 'condition' }),
      'Glossary.Remove': () => null,
    });
    await api.init(f.t);
    const [e] = await glossary.list();
    expect(e.synonyms).toEqual([]);
    expect(e.tables).toEqual([]);
    expect(e.stale).toBe(true);
    const saved = await glossary.add({ term: 'churn', meaning: 'customers who left', synonyms: [], sql: '' });
    expect(saved.synonyms).toEqual([]);
    expect(saved.tables).toEqual(['Invoice']);
    await glossary.remove('churn');
    expect(f.calls.map((c) => c.target)).toEqual(['Glossary.List', 'Glossary.Add', 'Glossary.Remove']);
    expect(f.calls[2].args).toEqual(['churn']);
  });
});

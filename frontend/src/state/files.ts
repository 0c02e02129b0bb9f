// Importing files, exporting answers and the history of questions: the
// calls of the import and export dialogs and the history drawer, which keep
// only what they show. Like the rest of src/state, the components' one way
// to Go (through src/api).
import * as api from '../api';
import type {
  BadValue,
  ErrorDoc,
  ExportProgress,
  ExportRequest,
  ExportResult,
  GlossaryEntry,
  GlossaryInput,
  GlossaryStatus,
  HistoryItem,
  HistoryQuery,
  ImportPlan,
  ImportProgress,
  ImportReport,
  ImportRequest,
  PlanColumn,
  PlanTable,
  TableOverride,
  Value,
} from '../api';

/** Writing a query's whole result to an XLSX or CSV file. */
export const exporting = {
  /** defaultName proposes the file's path (in the home folder), named after
   * the question or heading (top-10-customers-by-spending.xlsx). */
  defaultName: (format: 'xlsx' | 'csv', title = ''): Promise<string> => api.Export.DefaultName(format, title),
  /** chooseFile shows the desktop's save dialog ("" when it was closed). */
  chooseFile: (proposed: string): Promise<string> => api.Export.ChooseFile(proposed),
  /** run exports, passing each "export:progress" to onProgress until it ends. */
  async run(req: ExportRequest, onProgress: (p: ExportProgress) => void): Promise<ExportResult> {
    const off = api.on('export:progress', onProgress);
    try {
      return await api.Export.Run(req);
    } finally {
      off();
    }
  },
  /** cancel stops a running export (nothing is left behind). */
  cancel: (): Promise<void> => api.Export.Cancel(),
  /** downloadURL is where the browser fetches an exported file. */
  downloadURL: (download: string, name: string): string => api.downloadURL(download, name),
};

/** Importing CSV and XLSX files into a new SQLite database. */
export const importing = {
  /** chooseFiles shows the desktop's open dialog (no paths when it was closed). */
  chooseFiles: (): Promise<string[]> => api.Datasets.ChooseImportFiles(),
  /** chooseTarget shows the desktop's save dialog for the new database ("" when closed). */
  chooseTarget: (defaultName: string): Promise<string> => api.Datasets.ChooseNewDatabase(defaultName),
  /** preview says what the import would do, writing nothing (the plan),
   * passing each "import:progress" to onProgress while the files are read. */
  async preview(req: ImportRequest, onProgress: (p: ImportProgress) => void): Promise<Preview> {
    const off = api.on('import:progress', onProgress);
    try {
      return normalisePlan(await api.Datasets.PreviewImport(req));
    } finally {
      off();
    }
  },
  /** forgetPreview lets Go drop the files the last preview read (the dialog closed). */
  forgetPreview: (): Promise<void> => api.Datasets.ForgetPreview(),
  /** run imports, passing each "import:progress" to onProgress until it ends. */
  async run(req: ImportRequest, onProgress: (p: ImportProgress) => void): Promise<ImportReport> {
    const off = api.on('import:progress', onProgress);
    try {
      return await api.Datasets.Import(req);
    } finally {
      off();
    }
  },
  /** cancel stops a running import (the target is left as it was). */
  cancel: (): Promise<void> => api.Datasets.CancelImport(),
};

/** The history of questions and queries: listed (searched, or the saved
 * ones), deleted, marked wrong (never again an example for the model),
 * saved under a name. */
export const history = {
  list: (q: HistoryQuery): Promise<HistoryItem[]> => api.History.List(q),
  remove: (id: number): Promise<void> => api.History.Delete(id),
  markWrong: (id: number, wrong: boolean): Promise<void> => api.History.MarkWrong(id, wrong),
  save: (id: number, name: string): Promise<void> => api.History.Save(id, name),
};

// The analyst's choices in the import dialog, kept by table and by column
// position, and turned into the request's overrides. Pure functions: the
// dialog keeps the state, these say how it changes.

/** The choices for one column; a field left out keeps what Querent detects. */
export interface ColumnChoice {
  name?: string;
  type?: string;
  on_bad?: string;
  skip?: boolean;
  keep?: boolean;
}

/** The choices for one table (a CSV file, or a sheet). */
export interface TableChoice {
  table?: string;
  /** skip leaves the whole table out (a sheet not wanted). */
  skip?: boolean;
  encoding?: string;
  delimiter?: string;
  /** header_row: the line or row of the header, -1 for none. */
  header_row?: number;
  range?: string;
  /** columns by position (from 1). */
  columns: Record<number, ColumnChoice>;
}

/** ImportChoices are every table's choices, by tableKey. */
export type ImportChoices = Record<string, TableChoice>;

/** The types a column can be given, as the request writes them. */
export const columnTypes = ['text', 'integer', 'real', 'date', 'datetime', 'boolean'] as const;

/** tableKey names a table of a plan: its file and sheet. */
export function tableKey(t: { source_path: string; sheet: string | null }): string {
  return t.sheet === null ? t.source_path : `${t.source_path}\u0000${t.sheet}`;
}

function splitKey(key: string): { source: string; sheet: string } {
  const i = key.indexOf('\u0000');
  return i < 0 ? { source: key, sheet: '' } : { source: key.slice(0, i), sheet: key.slice(i + 1) };
}

function clean<T extends object>(o: T): T {
  const out = {} as T;
  for (const [k, v] of Object.entries(o)) {
    if (v !== undefined && v !== '' && v !== false && v !== 0) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** chooseColumn returns choices with a column's choice changed (a field
 * set to undefined, '' or false goes back to what Querent detects). */
export function chooseColumn(choices: ImportChoices, key: string, position: number, patch: ColumnChoice): ImportChoices {
  const t = choices[key] ?? { columns: {} };
  const c = clean({ ...t.columns[position], ...patch });
  if (!c.type) delete c.on_bad; // a policy is for a chosen type
  if (c.skip) delete c.keep;
  const columns = { ...t.columns };
  if (Object.keys(c).length) columns[position] = c;
  else delete columns[position];
  return { ...choices, [key]: { ...t, columns } };
}

/** chooseTable returns choices with a table's own choices changed. A new
 * way of reading it (encoding, delimiter, header row, range) forgets its
 * column choices: the columns may be others. */
export function chooseTable(choices: ImportChoices, key: string, patch: Omit<TableChoice, 'columns'>): ImportChoices {
  const t = choices[key] ?? { columns: {} };
  const next = { ...t, ...patch } as TableChoice;
  const layout = (['encoding', 'delimiter', 'header_row', 'range'] as const).some((k) => k in patch && patch[k] !== t[k]);
  return { ...choices, [key]: { ...clean({ ...next, columns: undefined }), columns: layout ? {} : t.columns } };
}

/** overrides turns the choices into the request's overrides. */
export function overrides(choices: ImportChoices): TableOverride[] {
  const out: TableOverride[] = [];
  for (const [key, t] of Object.entries(choices)) {
    const { source, sheet } = splitKey(key);
    const columns = Object.entries(t.columns).map(([pos, c]) => ({ column: `#${pos}`, ...c }));
    const o: TableOverride = {
      source,
      sheet,
      ...clean({ table: t.table, skip: t.skip, encoding: t.encoding, delimiter: t.delimiter, header_row: t.header_row, range: t.range }),
    };
    if (columns.length) o.columns = columns;
    if (Object.keys(o).length > 2) out.push(o);
  }
  return out;
}

/** A plan column whose lists are lists. */
export interface PreviewColumn extends PlanColumn {
  bad_at: BadValue[];
  overridden: string[];
}
/** A plan table whose lists are lists. */
export interface PreviewTable extends Omit<PlanTable, 'columns' | 'preview_rows' | 'overridden' | 'warnings'> {
  columns: PreviewColumn[];
  preview_rows: Value[][];
  overridden: string[];
  warnings: string[];
}
/** An import plan whose lists are lists: what the dialog shows. */
export interface Preview extends Omit<ImportPlan, 'tables' | 'warnings' | 'errors'> {
  tables: PreviewTable[];
  warnings: string[];
  errors: ErrorDoc[];
}

/** normalisePlan makes every list of a plan a list (Go may send null). */
export function normalisePlan(p: ImportPlan): Preview {
  const column = (c: PlanColumn): PreviewColumn => ({ ...c, bad_at: c.bad_at ?? [], overridden: c.overridden ?? [] });
  return {
    ...p,
    tables: (p.tables ?? []).map((t) => ({
      ...t,
      columns: (t.columns ?? []).map(column),
      preview_rows: (t.preview_rows ?? []).map((r) => r ?? []),
      overridden: t.overridden ?? [],
      warnings: t.warnings ?? [],
    })),
    warnings: p.warnings ?? [],
    errors: p.errors ?? [],
  };
}

/** The analyst's glossary of the open database (the Glossary panel): the
 * business's words, their meaning and SQL; lists Go may send as null
 * become empty ones. */
export const glossary = {
  list: async (): Promise<GlossaryStatus[]> =>
    (await api.Glossary.List()).map((e) => ({ ...e, synonyms: e.synonyms ?? [], tables: e.tables ?? [] })),
  add: async (entry: GlossaryInput): Promise<GlossaryEntry> => {
    const e = await api.Glossary.Add(entry);
    return { ...e, synonyms: e.synonyms ?? [], tables: e.tables ?? [] };
  },
  remove: (term: string): Promise<void> => api.Glossary.Remove(term),
};

// The page's one door to Go: a typed function per bound method, events, and
// the transport chosen at startup. No other module calls Go.
import { ApiError } from './error';
import { normalise } from './events';
import { detect, type Transport } from './transport';
import type {
  Answer,
  DatasetInfo,
  DraftRequest,
  DraftResult,
  EvalRequest,
  EvalResult,
  EventMap,
  EventName,
  ExportRequest,
  ExportResult,
  GoldSetInfo,
  HistoryEntry,
  ImportReport,
  ImportRequest,
  ModelReport,
  OllamaStatus,
  RecentFile,
  Schema,
  SettingsData,
} from './types';

export { ApiError, isUnauthorized } from './error';
export type * from './types';

let transport: Transport | null = null;

/** init picks the transport (once); tests pass their own. */
export async function init(t?: Transport): Promise<Transport> {
  transport = t ?? (await detect());
  return transport;
}

function current(): Transport {
  if (!transport) throw new ApiError({ type: 'internal', message: 'the api is used before init()' });
  return transport;
}

/** mode is "desktop" (Wails) or "browser" (querent serve). */
export function mode(): 'desktop' | 'browser' {
  return current().kind;
}

function call<T>(service: string, method: string, ...args: unknown[]): Promise<T> {
  return current().call<T>(service, method, args);
}

/** on subscribes to an event with its typed payload; returns the unsubscribe. */
export function on<K extends EventName>(name: K, handler: (data: EventMap[K]) => void): () => void {
  return current().on(name, (raw) => handler(normalise(name, raw)));
}

/** downloadURL is where the browser fetches an export (token included). */
export function downloadURL(download: string, name: string): string {
  return current().fileURL(download, name);
}

const list = <T>(p: Promise<T[] | null>): Promise<T[]> => p.then((v) => v ?? []);

export const Datasets = {
  Current: () => call<DatasetInfo | null>('Datasets', 'Current'),
  OpenDemo: () => call<DatasetInfo>('Datasets', 'OpenDemo'),
  Open: (path: string) => call<DatasetInfo>('Datasets', 'Open', path),
  Recent: () => list(call<RecentFile[] | null>('Datasets', 'Recent')),
  ForgetRecent: (path: string) => list(call<RecentFile[] | null>('Datasets', 'ForgetRecent', path)),
  ChooseFile: () => call<string>('Datasets', 'ChooseFile'),
  ChooseImportFiles: () => list(call<string[] | null>('Datasets', 'ChooseImportFiles')),
  ChooseNewDatabase: (defaultName: string) => call<string>('Datasets', 'ChooseNewDatabase', defaultName),
  Schema: () => call<Schema>('Datasets', 'Schema'),
  Import: (req: ImportRequest) => call<ImportReport>('Datasets', 'Import', req),
  CancelImport: () => call<void>('Datasets', 'CancelImport'),
};

export const Ask = {
  Status: () => call<OllamaStatus>('Ask', 'Status'),
  Question: (question: string) => call<Answer>('Ask', 'Question', question),
  Cancel: () => call<void>('Ask', 'Cancel'),
  NewConversation: () => call<void>('Ask', 'NewConversation'),
  History: (all: boolean, limit: number) => list(call<HistoryEntry[] | null>('Ask', 'History', all, limit)),
  PullModel: (name: string) => call<void>('Ask', 'PullModel', name),
  CancelPull: () => call<void>('Ask', 'CancelPull'),
};

export const Results = {
  Run: (sql: string) => call<Answer>('Results', 'Run', sql),
  Preview: (table: string) => call<Answer>('Results', 'Preview', table),
  Cancel: () => call<void>('Results', 'Cancel'),
};

export const Export = {
  ChooseFile: (defaultName: string) => call<string>('Export', 'ChooseFile', defaultName),
  Run: (req: ExportRequest) => call<ExportResult>('Export', 'Run', req),
  Cancel: () => call<void>('Export', 'Cancel'),
  DefaultName: (format: 'xlsx' | 'csv') => call<string>('Export', 'DefaultName', format),
};

export const Settings = {
  Get: () => call<SettingsData>('Settings', 'Get'),
  Save: (data: SettingsData) => call<SettingsData>('Settings', 'Save', data),
  Version: () => call<string>('Settings', 'Version'),
};

// Lists Go may send as null (a nil slice) become empty ones, so the screens
// never test for null.
function evalResult(r: EvalResult): EvalResult {
  const report = (m: ModelReport): ModelReport => ({
    ...m,
    items: (m.items ?? []).map((it) => ({ ...it, relaxed: it.relaxed ?? [] })),
    by_difficulty: m.by_difficulty ?? {},
    outcomes: m.outcomes ?? {},
    warnings: m.warnings ?? [],
    errors: m.errors ?? [],
  });
  return {
    ...r,
    models: (r.models ?? []).map(report),
    items: r.items ?? [],
    warnings: r.warnings ?? [],
    errors: r.errors ?? [],
    report_dir: r.report_dir ?? '',
  };
}

export const Evaluate = {
  /** The built-in gold sets, saying which fit the open database. */
  GoldSets: () => list(call<GoldSetInfo[] | null>('Evaluate', 'GoldSets')),
  /** Validates a gold set file (or a built-in name); the error lists every mistake. */
  LoadGold: (nameOrPath: string) => call<GoldSetInfo>('Evaluate', 'LoadGold', nameOrPath),
  /** The open dialog for a gold file ("" if closed); browser mode: a "usage" error. */
  ChooseGoldFile: () => call<string>('Evaluate', 'ChooseGoldFile'),
  /** The save dialog for a drafted gold set; browser mode: a "usage" error. */
  ChooseDraftFile: () => call<string>('Evaluate', 'ChooseDraftFile'),
  DefaultDraftName: () => call<string>('Evaluate', 'DefaultDraftName'),
  /** Asks every question of each model (events "eval:progress"); Cancel returns the partial result. */
  Run: (req: EvalRequest) => call<EvalResult>('Evaluate', 'Run', req).then(evalResult),
  /** Stops a run or a draft. */
  Cancel: () => call<void>('Evaluate', 'Cancel'),
  /** Drafts a gold set from the open database (events "eval:draft"). */
  Draft: (req: DraftRequest) => call<DraftResult>('Evaluate', 'Draft', req).then((d) => ({ ...d, gold: d.gold ?? null })),
};

// The page's one door to Go: a typed function per bound method, events, and
// the transport chosen at startup. No other module calls Go, and only src/state
// calls this one (the components import its types only).
import { ApiError } from './error';
import { normalise } from './events';
import { detect, type Transport } from './transport';
import type {
  Connection,
  ConnectRequest,
  DraftRequest,
  EvalRequest,
  EvalResult,
  EventMap,
  EventName,
  ExportRequest,
  GlossaryInput,
  HistoryQuery,
  ImportRequest,
  PageRequest,
  PinRequest,
  BoardView,
  ModelReport,
  Services,
  SessionTurn,
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

// A service's method as Go declares it (types.gen.ts): its arguments and
// its result, so that every call below is checked against the Go side.
type Args<F> = F extends (...args: infer A) => unknown ? A : never;
type Result<F> = F extends (...args: never[]) => infer R ? R : never;

function call<S extends keyof Services, M extends keyof Services[S] & string>(
  service: S,
  method: M,
  ...args: Args<Services[S][M]>
): Promise<Result<Services[S][M]>> {
  return current().call(service, method, args);
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
// A pointer a method returns with a nil error is never nil (Current's aside).
const some = <T>(p: Promise<T | null>): Promise<T> => p as Promise<T>;

export const Datasets = {
  Current: () => call('Datasets', 'Current'),
  OpenDemo: () => some(call('Datasets', 'OpenDemo')),
  Open: (path: string) => some(call('Datasets', 'Open', path)),
  Recent: () => list(call('Datasets', 'Recent')),
  ForgetRecent: (path: string) => list(call('Datasets', 'ForgetRecent', path)),
  ChooseFile: () => call('Datasets', 'ChooseFile'),
  ChooseImportFiles: () => list(call('Datasets', 'ChooseImportFiles')),
  ChooseNewDatabase: (defaultName: string) => call('Datasets', 'ChooseNewDatabase', defaultName),
  Schema: () => some(call('Datasets', 'Schema')),
  Explore: (language: string) => some(call('Datasets', 'Explore', language)),
  CancelExplore: () => call('Datasets', 'CancelExplore'),
  Import: (req: ImportRequest) => some(call('Datasets', 'Import', req)),
  PreviewImport: (req: ImportRequest) => some(call('Datasets', 'PreviewImport', req)),
  ForgetPreview: () => call('Datasets', 'ForgetPreview'),
  CancelImport: () => call('Datasets', 'CancelImport'),
  /** Connects to a PostgreSQL database and makes it the window's (read-only); the password is never stored. */
  Connect: (req: ConnectRequest) => some(call('Datasets', 'Connect', req)),
  /** Connects, reads what the role may do and what it can read, and disconnects. */
  TestConnection: (conn: Connection) => some(call('Datasets', 'TestConnection', conn)),
  /** Stops a connection test or a connect that waits on a server. */
  CancelConnect: () => call('Datasets', 'CancelConnect'),
  /** The saved connections (without their passwords), newest first. */
  SavedConnections: () => list(call('Datasets', 'SavedConnections')),
  ForgetConnection: (name: string) => list(call('Datasets', 'ForgetConnection', name)),
};

export const Ask = {
  Status: () => some(call('Ask', 'Status')),
  Question: (question: string) => some(call('Ask', 'Question', question)),
  /** Asks with the analyst's follow-up choice: '' (when it reads as one), 'yes' or 'no'. */
  QuestionWith: (question: string, followUp: '' | 'yes' | 'no') => some(call('Ask', 'QuestionWith', question, followUp)),
  /** The conversation's earlier questions, oldest first. */
  Context: () => list(call('Ask', 'Context')),
  /** Takes the earlier question asked at time out of the conversation; returns what is left. */
  DropContext: (at: string) => list(call('Ask', 'DropContext', at)),
  /** Makes turns the conversation (a restored thread). */
  RestoreContext: (turns: SessionTurn[]) => call('Ask', 'RestoreContext', turns),
  /** Asks text with the model even when it compiles as SQL ("Ask as a question"). */
  AsQuestion: (question: string) => some(call('Ask', 'AsQuestion', question)),
  Cancel: () => call('Ask', 'Cancel'),
  NewConversation: () => call('Ask', 'NewConversation'),
  PullModel: (name: string) => call('Ask', 'PullModel', name),
  CancelPull: () => call('Ask', 'CancelPull'),
};

export const Results = {
  Run: (sql: string) => some(call('Results', 'Run', sql)),
  Preview: (table: string) => some(call('Results', 'Preview', table)),
  Cancel: () => call('Results', 'Cancel'),
  /** Rows offset+1 … offset+limit of a query's result (not recorded in the history). */
  Page: (req: PageRequest) => some(call('Results', 'Page', req)),
  /** The number of rows of a query's whole result; CancelCount (or another query) stops it. */
  Count: (sql: string) => some(call('Results', 'Count', sql)),
  CancelCount: () => call('Results', 'CancelCount'),
};

export const History = {
  /** Entries newest first: of the open database unless q.all; searched, or only the saved ones. */
  List: (q: HistoryQuery) => list(call('History', 'List', q)),
  Delete: (id: number) => call('History', 'Delete', id),
  /** A wrong answer is never used again as an example for the model. */
  MarkWrong: (id: number, wrong: boolean) => call('History', 'MarkWrong', id, wrong),
  /** Saves the entry's query under a name ("" unsaves it). */
  Save: (id: number, name: string) => call('History', 'Save', id, name),
  /** Approves an answer: only verified answers are examples for the model. */
  Approve: (id: number) => call('History', 'Approve', id),
  /** Corrects an answer with SQL (checked by the guard, run on the open database); its result replaces the answer. */
  Correct: (id: number, sql: string) => some(call('History', 'Correct', id, sql)),
};

export const Glossary = {
  /** The open database's glossary, each entry as it stands against the schema now (stale ones flagged). */
  List: () => list(call('Glossary', 'List')),
  /** Saves an entry (replacing the same term's); its SQL is checked against the database first. */
  Add: (entry: GlossaryInput) => some(call('Glossary', 'Add', entry)),
  Remove: (term: string) => call('Glossary', 'Remove', term),
};

// Go makes every list of a board (engine/board); a card's rows stay as sent.
const boardView = (v: BoardView): BoardView => ({ ...v, pins: v.pins ?? [] });

export const Board = {
  /** The open database's board of pinned answers, as last saved. */
  List: () => some(call('Board', 'List')).then(boardView),
  /** Pins an answer: its SQL runs again under the guard and its result is kept. */
  Pin: (req: PinRequest) => some(call('Board', 'Pin', req)),
  Unpin: (id: string) => call('Board', 'Unpin', id),
  SetNote: (id: string, note: string) => some(call('Board', 'SetNote', id, note)),
  /** Runs every card's SQL again; each card says what changed since it was pinned. */
  RerunAll: () => some(call('Board', 'RerunAll')).then(boardView),
  /** A card's SQL run now as an answer (for comparing), not recorded in the history. */
  Answer: (id: string) => some(call('Board', 'Answer', id)),
  Cancel: () => call('Board', 'Cancel'),
};

export const Sensitive = {
  /** The open database's columns marked sensitive and the likely ones not marked yet (offered, never marked silently). */
  List: () => call('Sensitive', 'List'),
  /** Marks a column ("Table.Column") sensitive; a wrong name is refused with the closest ones. */
  Add: (name: string) => call('Sensitive', 'Add', name),
  /** Unmarks a column: models and agents see its values again. */
  Remove: (name: string) => call('Sensitive', 'Remove', name),
};

export const Export = {
  ChooseFile: (defaultName: string) => call('Export', 'ChooseFile', defaultName),
  Run: (req: ExportRequest) => some(call('Export', 'Run', req)),
  Cancel: () => call('Export', 'Cancel'),
  /** A file name from the question (or heading) the answer has; "" for the database's name and the time. */
  DefaultName: (format: 'xlsx' | 'csv', title: string) => call('Export', 'DefaultName', format, title),
};

export const Settings = {
  Get: () => some(call('Settings', 'Get')),
  Save: (data: SettingsData) => some(call('Settings', 'Save', data)),
  Version: () => call('Settings', 'Version'),
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
  GoldSets: () => list(call('Evaluate', 'GoldSets')),
  /** Validates a gold set file (or a built-in name); the error lists every mistake. */
  LoadGold: (nameOrPath: string) => some(call('Evaluate', 'LoadGold', nameOrPath)),
  /** The open dialog for a gold file ("" if closed); browser mode: a "usage" error. */
  ChooseGoldFile: () => call('Evaluate', 'ChooseGoldFile'),
  /** The save dialog for a drafted gold set; browser mode: a "usage" error. */
  ChooseDraftFile: () => call('Evaluate', 'ChooseDraftFile'),
  DefaultDraftName: () => call('Evaluate', 'DefaultDraftName'),
  /** Asks every question of each model (events "eval:progress"); Cancel returns the partial result. */
  Run: (req: EvalRequest) => some(call('Evaluate', 'Run', req)).then(evalResult),
  /** Stops a run or a draft. */
  Cancel: () => call('Evaluate', 'Cancel'),
  /** Drafts a gold set from the open database (events "eval:draft"). */
  Draft: (req: DraftRequest) => some(call('Evaluate', 'Draft', req)).then((d) => ({ ...d, gold: d.gold ?? null })),
};

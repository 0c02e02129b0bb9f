// Types mirroring the Go side's JSON, written by hand from app/desktop/*.go
// and engine/*.go. Keep the JSON names exactly as the Go tags spell them.

/** One cell as SQLite stored it: numbers as numbers, text as stored, blobs
 * as base64 text, NULL as null. ±Infinity arrive as the strings
 * "Infinity"/"-Infinity" (JSON has no infinities). */
export type Value = number | string | boolean | null;

/** engine.ErrorDoc: the one error shape, in answers and rejected calls. */
export interface ErrorDoc {
  type: ErrorType | string;
  message: string;
  hint: string;
  query?: string;
  /** 0-based byte offset in query where the problem was found. */
  position?: number;
}

/** The contract's error types (engine/errors.go). */
export type ErrorType =
  | 'refused'
  | 'syntax'
  | 'unknown_table'
  | 'unknown_column'
  | 'timeout'
  | 'too_big'
  | 'clarification_needed'
  | 'unanswerable'
  | 'model_error'
  | 'import'
  | 'export'
  | 'usage'
  | 'database'
  | 'llm_unavailable'
  | 'model_missing'
  | 'internal'
  | 'cancelled';

/** engine.Column: a result column. */
export interface Column {
  name: string;
  type: string;
}

export interface AttemptError {
  type: string;
  message: string;
}

/** engine.Attempt: one try of the ask loop. */
export interface Attempt {
  sql: string;
  error: AttemptError | null;
}

export interface TopValue {
  value: Value;
  count: number;
}

/** engine.ColumnStats. */
export interface ColumnStats {
  count: number;
  null_count: number;
  distinct: number;
  min: Value;
  max: Value;
  mean: number | null;
  std: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  outliers: Value[];
  top_values: TopValue[];
}

export type ChartKind = 'bar' | 'line' | 'pie' | 'scatter' | 'histogram';
export type Suggestion = ChartKind | 'table';

/** engine.Answer: the sub-agent output document. */
export interface Answer {
  question: string | null;
  query: string;
  executed_sql: string;
  columns: Column[];
  /** One object per row, keyed by column name (use columns for the order). */
  results: Record<string, Value>[];
  row_count: number;
  truncated: boolean;
  execution_time_s: number;
  stats: Record<string, ColumnStats>;
  optimization_hints: string[];
  visualization_suggestion: Suggestion | string;
  visualization_reason: string;
  explanation: string;
  follow_up_questions: string[];
  tables_used: string[];
  session_context: { database?: string; turns?: SessionTurn[] } & Record<string, unknown>;
  model: string | null;
  attempts: Attempt[];
  errors: ErrorDoc[];
  warnings: string[];
  tables_shown: string[] | null;
}

export interface SessionTurn {
  question: string;
  sql: string;
  columns?: string[];
  row_count: number;
  time: string;
}

/** desktop.DatasetInfo. */
export interface DatasetInfo {
  name: string;
  path: string;
  demo: boolean;
  read_only: boolean;
  tables: number;
  views: number;
  size_bytes: number;
  warnings: string[] | null;
  title: string;
}

/** desktop.RecentFile. */
export interface RecentFile {
  path: string;
  name: string;
  opened_at: string;
  exists: boolean;
}

/** desktop.ImportRequest. */
export interface ImportRequest {
  target: string;
  inputs: string[];
  table: string;
  sheets: string[];
  replace: boolean;
  append: boolean;
  encoding: string;
  delimiter: string;
  ragged: string;
  open: boolean;
}

/** engine.ImportColumn. */
export interface ImportColumn {
  name: string;
  original_name: string;
  type: 'INTEGER' | 'REAL' | 'TEXT' | 'DATE' | 'DATETIME' | 'BOOLEAN' | string;
  converted: number;
  kept_as_text: number;
  reason: string;
}

export interface ImportedTable {
  name: string;
  source: string;
  sheet: string | null;
  rows: number;
  action: 'created' | 'replaced' | 'appended' | string;
  columns: ImportColumn[];
}

/** engine.ImportReport. */
export interface ImportReport {
  database: string;
  elapsed_s: number;
  warnings: string[] | null;
  errors: ErrorDoc[] | null;
  tables: ImportedTable[] | null;
}

/** engine.Schema. */
export interface Schema {
  database: string;
  tables: Table[];
}

export interface TableColumn {
  name: string;
  type: string;
  affinity: string;
  nullable: boolean;
  default: string | null;
  pk: number;
  original_name: string | null;
  generated?: string;
}

export interface ForeignKey {
  column: string;
  /** "Table(column)" */
  references: string;
}

export interface Index {
  name: string;
  columns: string[];
  unique: boolean;
}

export interface Table {
  name: string;
  kind: 'table' | 'view' | string;
  row_count: number;
  row_count_estimated: boolean;
  internal: boolean;
  columns: TableColumn[] | null;
  primary_key: string[] | null;
  foreign_keys: ForeignKey[] | null;
  indexes: Index[] | null;
  samples?: Record<string, Value>[];
  distinct_values?: Record<string, Value[]>;
  sql?: string;
  note?: string;
}

/** engine.ModelInfo. */
export interface ModelInfo {
  name: string;
  family: string;
  parameter_size: string;
  quantization: string;
  size_bytes: number;
}

/** desktop.OllamaStatus. */
export interface OllamaStatus {
  running: boolean;
  host: string;
  models: ModelInfo[] | null;
  model: string;
  embed_model: string;
  problem: string;
  fix: string;
  code: string;
}

/** engine.HistoryEntry. */
export interface HistoryEntry {
  time: string;
  database: string;
  database_sha256: string;
  question: string;
  sql: string;
  status: string;
  row_count: number;
  duration_s: number;
  model: string;
  client: string;
}

/** desktop.ExportRequest. */
export interface ExportRequest {
  sql: string;
  /** Where to write; "" in the browser mode (the answer carries a download). */
  out: string;
  format: 'xlsx' | 'csv';
  delimiter?: string;
  bom?: boolean;
  raw?: boolean;
  force?: boolean;
  chart?: 'none' | 'auto' | ChartKind;
  max_rows?: number;
  question?: string;
  model?: string;
}

/** desktop.ExportResult. */
export interface ExportResult {
  path: string;
  format: string;
  rows: number;
  truncated: boolean;
  sheets: string[] | null;
  warnings: string[] | null;
  elapsed_s: number;
  /** Browser mode: "/files/<id>". */
  download?: string;
}

/** desktop.SettingsData. */
export interface SettingsData {
  ollama_host: string;
  model: string;
  max_rows: number;
  timeout_s: number;
  theme: 'system' | 'light' | 'dark';
}

/** desktop.GoldSetInfo: a gold set the page can run. */
export interface GoldSetInfo {
  /** What Run takes: a built-in name ("chinook") or the file's path. */
  name: string;
  title: string;
  /** "built-in" or the file. */
  source: string;
  /** The database the set was written for. */
  database: string;
  builtin: boolean;
  items: number;
  answerable: number;
  unanswerable: number;
  follow_ups: number;
  /** fits: written for the open database (the built-in chinook fits the demo). */
  fits: boolean;
}

/** desktop.EvalRequest. */
export interface EvalRequest {
  /** A built-in name or a gold file's path. */
  gold: string;
  models: string[];
  /** Tries per question (1 by default; pass@k and pass^k need more). */
  k: number;
  lenient: boolean;
}

/** engine/eval's outcomes of one asked question (eval.Outcomes). */
export type Outcome = 'match' | 'wrong_result' | 'failed' | 'abstained' | 'missing';

/** eval.ItemScore: one question and try of a model's report. */
export interface ItemScore {
  id: string;
  match: boolean;
  outcome: Outcome | string;
  reason: string;
  latency_s: number | null;
  attempts: number;
  repairs: number;
  tokens: number;
  try: number;
  difficulty: string;
  relaxed: string[] | null;
}

/** eval.DifficultyScore. */
export interface DifficultyScore {
  questions: number;
  matches: number;
  execution_accuracy: number;
}

/** eval.ModelReport: one model's scores (the `querent eval --format json` document). */
export interface ModelReport {
  items: ItemScore[];
  /** 0..1 */
  execution_accuracy: number;
  /** 0..1, null without unanswerable questions. */
  abstention: number | null;
  false_refusals: number;
  by_difficulty: Record<string, DifficultyScore>;
  pass_at_k: number | null;
  /** null when k = 1. */
  pass_hat_k: number | null;
  latency_p50_s: number | null;
  latency_p95_s: number | null;
  tokens_total: number;
  lenient: boolean;
  /** null for ready-made predictions (never from the page). */
  model: string | null;
  gold: string;
  database: string;
  source: string;
  k: number;
  matches: number;
  questions: number;
  outcomes: Record<string, number>;
  unanswerable: number;
  repairs: number;
  repaired_items: number;
  relaxed_matches: number;
  warnings: string[] | null;
  errors: ErrorDoc[] | null;
}

/** desktop.EvalItem: a question of the gold set. */
export interface EvalItem {
  id: string;
  question: string;
  difficulty: string;
  unanswerable: boolean;
  /** The id of the question this one follows up ("" if none). */
  follows: string;
}

/** desktop.EvalResult: a finished (or stopped) run. */
export interface EvalResult {
  gold: string;
  database: string;
  k: number;
  lenient: boolean;
  elapsed_s: number;
  models: ModelReport[];
  items: EvalItem[];
  /** Where report.md, report.json and records.jsonl are ("" if not written: see warnings). */
  report_dir: string;
  warnings: string[];
  /** The error that stopped the run early ("cancelled" after Cancel). */
  errors: ErrorDoc[];
}

/** desktop.DraftRequest. */
export interface DraftRequest {
  out: string;
  /** How many questions (1–500; 0 means 30). */
  n: number;
  /** "" for the default model. */
  model: string;
  force: boolean;
}

/** desktop.DraftResult. */
export interface DraftResult {
  out: string;
  model: string;
  items: number;
  dropped: number;
  gold: GoldSetInfo | null;
}

// Event payloads, normalised by src/api/events.ts (the Go structs of these
// three have no JSON tags, so they arrive with Go's field names).

/** engine.AskProgress ("ask:progress"). */
export interface AskProgress {
  /** preparing, writing SQL, checking, running, repairing, checking values, done */
  stage: string;
  attempt: number;
  attempts: number;
  tokens: number;
}

/** engine.PullProgress ("model:pull"). */
export interface PullProgress {
  status: string;
  completed: number;
  total: number;
}

/** engine.ImportProgress ("import:progress"). */
export interface ImportProgress {
  phase: 'reading' | 'writing' | string;
  source: string;
  bytes_done: number;
  bytes_total: number;
  rows: number;
  rows_total: number;
}

/** "export:progress". */
export interface ExportProgress {
  rows: number;
  bytes: number;
}

/** desktop.EvalProgress ("eval:progress"): a question asked (scored false) or scored. */
export interface EvalProgress {
  model: string;
  item_id: string;
  question: string;
  try: number;
  k: number;
  /** Questions finished so far, of total (items × k × models). */
  done: number;
  total: number;
  scored: boolean;
  match: boolean;
  outcome: string;
  difficulty: string;
}

/** "eval:draft": questions kept so far, of those wanted. */
export interface DraftProgress {
  kept: number;
  want: number;
}

/** The events the page listens to, by name. */
export interface EventMap {
  'ask:progress': AskProgress;
  'import:progress': ImportProgress;
  'export:progress': ExportProgress;
  'model:pull': PullProgress;
  'eval:progress': EvalProgress;
  'eval:draft': DraftProgress;
  'dataset:changed': DatasetInfo;
  'window:title': string;
  'file:dropped': string[];
  /** The desktop app could not do something at launch (open the file it was given). */
  'app:error': ErrorDoc;
}

export type EventName = keyof EventMap;

// Event payloads normalised to the page's types (EventMap, generated from
// page.PageEvents): a missing or mistyped field gets its zero value. Every
// payload's Go type has JSON tags, so Go sends snake_case (bytes_done,
// item_id…); Go's field names (BytesDone, ItemID…) are still accepted, as
// they were when some of those types had no tags.
import type {
  AskProgress,
  DatasetInfo,
  DraftProgress,
  EvalProgress,
  EventMap,
  EventName,
  ExportProgress,
  ImportProgress,
  PullProgress,
  Answer,
} from './types';
import { ApiError } from './error';

type Raw = Record<string, unknown>;

function pick(o: Raw, ...keys: string[]): unknown {
  for (const k of keys) if (o[k] !== undefined) return o[k];
  return undefined;
}
const num = (v: unknown): number => (typeof v === 'number' && isFinite(v) ? v : 0);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const bool = (v: unknown): boolean => v === true;
const obj = (v: unknown): Raw => (v && typeof v === 'object' ? (v as Raw) : {});

export function askProgress(v: unknown): AskProgress {
  const o = obj(v);
  return {
    stage: str(pick(o, 'stage', 'Stage')),
    attempt: num(pick(o, 'attempt', 'Attempt')),
    attempts: num(pick(o, 'attempts', 'Attempts')),
    tokens: num(pick(o, 'tokens', 'Tokens')),
  };
}

export function pullProgress(v: unknown): PullProgress {
  const o = obj(v);
  return {
    status: str(pick(o, 'status', 'Status')),
    completed: num(pick(o, 'completed', 'Completed')),
    total: num(pick(o, 'total', 'Total')),
  };
}

export function importProgress(v: unknown): ImportProgress {
  const o = obj(v);
  return {
    phase: str(pick(o, 'phase', 'Phase')),
    source: str(pick(o, 'source', 'Source')),
    bytes_done: num(pick(o, 'bytes_done', 'BytesDone')),
    bytes_total: num(pick(o, 'bytes_total', 'BytesTotal')),
    rows: num(pick(o, 'rows', 'Rows')),
    rows_total: num(pick(o, 'rows_total', 'RowsTotal')),
  };
}

export function exportProgress(v: unknown): ExportProgress {
  const o = obj(v);
  return { rows: num(pick(o, 'rows', 'Rows')), bytes: num(pick(o, 'bytes', 'Bytes')) };
}

export function evalProgress(v: unknown): EvalProgress {
  const o = obj(v);
  return {
    model: str(pick(o, 'model', 'Model')),
    item_id: str(pick(o, 'item_id', 'ItemID')),
    question: str(pick(o, 'question', 'Question')),
    try: num(pick(o, 'try', 'Try')),
    k: num(pick(o, 'k', 'K')),
    done: num(pick(o, 'done', 'Done')),
    total: num(pick(o, 'total', 'Total')),
    scored: bool(pick(o, 'scored', 'Scored')),
    match: bool(pick(o, 'match', 'Match')),
    outcome: str(pick(o, 'outcome', 'Outcome')),
    difficulty: str(pick(o, 'difficulty', 'Difficulty')),
  };
}

export function draftProgress(v: unknown): DraftProgress {
  const o = obj(v);
  return { kept: num(pick(o, 'kept', 'Kept')), want: num(pick(o, 'want', 'Want')) };
}

function paths(v: unknown, depth = 0): string[] {
  if (Array.isArray(v)) return v.filter((p): p is string => typeof p === 'string');
  if (typeof v === 'string') return [v];
  if (depth > 0 || !v || typeof v !== 'object') return [];
  return paths(pick(obj(v), 'paths', 'Paths', 'files'), depth + 1);
}

const normalisers: { [K in EventName]: (v: unknown) => EventMap[K] } = {
  'ask:progress': askProgress,
  'import:progress': importProgress,
  'export:progress': exportProgress,
  'model:pull': pullProgress,
  'eval:progress': evalProgress,
  'eval:draft': draftProgress,
  'ask:rows': (v) => v as Answer,
  'dataset:changed': (v) => v as DatasetInfo,
  'window:title': (v) => str(v),
  'file:dropped': (v) => paths(v),
  'app:error': (v) => ApiError.from(v).toDoc(),
};

/** normalise turns an event's raw data into its typed payload. */
export function normalise<K extends EventName>(name: K, data: unknown): EventMap[K] {
  return normalisers[name](data);
}

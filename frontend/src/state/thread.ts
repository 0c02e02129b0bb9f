// The thread kept per database (issue 25): the cards of the conversation —
// their questions, SQL, answers with their first rows, tabs and charts —
// and the conversation's earlier questions, in the browser's storage, so
// that a reload or a switch back to the database finds them as they were.
// Only the answers' first SAVED_ROWS rows are kept (the rest are paged in
// again from the SQL, read-only like every query); nothing is written to
// the database. A thread is cleared only by "New conversation", which can
// be undone once.
import type { Answer, DatasetInfo, SessionTurn } from '../api';
import type { ChartChoice } from '../lib/chart';

/** How many rows of each answer the stored thread keeps. */
export const SAVED_ROWS = 200;
/** The most characters a stored thread takes (the storage holds ~5 MB per site). */
export const SAVED_MAX_CHARS = 1_500_000;

export type SavedTab = 'table' | 'stats' | 'chart';

/** One card as it is stored. */
export interface SavedCard {
  id: number;
  source: 'ask' | 'sql' | 'preview';
  heading: string;
  question: string;
  taken: 'question' | 'sql';
  sql: string;
  table: string;
  tableRows: number;
  parent: number | null;
  collapsed: boolean;
  fromEditor: boolean;
  chart: ChartChoice | null;
  tab: SavedTab;
  doc: Answer;
}

/** A database's stored thread. */
export interface SavedThread {
  v: 1;
  cards: SavedCard[];
  turns: SessionTurn[];
}

/** threadKey names a database's thread: its server (PostgreSQL), path and name. */
export function threadKey(d: Pick<DatasetInfo, 'path' | 'name' | 'server'>): string {
  return `querent.thread.${d.server ?? ''}|${d.path ?? ''}|${d.name ?? ''}`;
}

/** capRows keeps an answer's first n rows; a cut answer says more rows follow. */
export function capRows(doc: Answer, n: number): Answer {
  const rows = doc.results ?? [];
  if (rows.length <= n) return doc;
  return { ...doc, results: rows.slice(0, n), truncated: true };
}

/** encode is the thread as stored: within SAVED_MAX_CHARS, the older
 * cards' rows given up first, then the oldest cards. */
export function encode(cards: SavedCard[], turns: SessionTurn[]): string {
  let kept = cards.map((c) => ({ ...c, doc: capRows(c.doc, SAVED_ROWS) }));
  for (let rows = SAVED_ROWS; ; ) {
    const s = JSON.stringify({ v: 1, cards: kept, turns } satisfies SavedThread);
    if (s.length <= SAVED_MAX_CHARS || kept.length === 0) return s;
    if (rows > 10) {
      rows = Math.floor(rows / 4);
      kept = kept.map((c, i) => (i < kept.length - 1 ? { ...c, doc: capRows(c.doc, rows) } : c));
    } else {
      kept = kept.slice(1);
    }
  }
}

/** decode reads a stored thread; anything else (an older format, a broken value) is none. */
export function decode(s: string | null): SavedThread | null {
  if (!s) return null;
  try {
    const t = JSON.parse(s) as SavedThread;
    if (t?.v !== 1 || !Array.isArray(t.cards) || !Array.isArray(t.turns)) return null;
    const cards = t.cards.filter((c) => c && typeof c.id === 'number' && c.doc && typeof c.heading === 'string');
    return { v: 1, cards, turns: t.turns };
  } catch {
    return null;
  }
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** save stores a database's thread (an empty one is removed); a full
 * storage keeps what it had (the thread lasts the session). */
export function save(key: string, cards: SavedCard[], turns: SessionTurn[]): void {
  const st = storage();
  if (!st) return;
  try {
    if (cards.length === 0 && turns.length === 0) st.removeItem(key);
    else st.setItem(key, encode(cards, turns));
  } catch {
    // full or refused: the thread lasts the session
  }
}

/** load reads a database's stored thread. */
export function load(key: string): SavedThread | null {
  return decode(storage()?.getItem(key) ?? null);
}

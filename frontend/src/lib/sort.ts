// Sorting the grid: numbers numerically, text naturally and
// case-insensitively, NULLs last in both directions; a stable sort, so a
// second click keeps ties in their previous order.
import type { Value } from '../api/types';

export type SortDir = 'asc' | 'desc';

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** compareValues orders two non-NULL values: numbers before text, numbers
 * by value, text with a natural collation. */
export function compareValues(a: Value, b: Value): number {
  const na = typeof a === 'number';
  const nb = typeof b === 'number';
  if (na && nb) return (a as number) - (b as number) || 0;
  if (na) return -1;
  if (nb) return 1;
  return collator.compare(String(a), String(b));
}

/** sortIndex returns the row indexes in sorted order for column col. */
export function sortIndex(rows: Value[][], col: number, dir: SortDir): number[] {
  const idx = rows.map((_, i) => i);
  const sign = dir === 'asc' ? 1 : -1;
  idx.sort((i, j) => {
    const a = rows[i][col];
    const b = rows[j][col];
    const an = a === null || a === undefined;
    const bn = b === null || b === undefined;
    if (an || bn) return an && bn ? i - j : an ? 1 : -1; // NULLs last, always
    return sign * compareValues(a, b) || i - j;
  });
  return idx;
}

/** nextSort cycles a header's clicks: ascending, descending, unsorted. */
export function nextSort(cur: { col: number; dir: SortDir } | null, col: number): { col: number; dir: SortDir } | null {
  if (!cur || cur.col !== col) return { col, dir: 'asc' };
  if (cur.dir === 'asc') return { col, dir: 'desc' };
  return null;
}

/** sortSubset sorts the row indexes idx (a filtered view) by column col,
 * with sortIndex's rules. */
export function sortSubset(rows: Value[][], idx: number[], col: number, dir: SortDir): number[] {
  const out = idx.slice();
  const sign = dir === 'asc' ? 1 : -1;
  out.sort((i, j) => {
    const a = rows[i][col];
    const b = rows[j][col];
    const an = a === null || a === undefined;
    const bn = b === null || b === undefined;
    if (an || bn) return an && bn ? i - j : an ? 1 : -1;
    return sign * compareValues(a, b) || i - j;
  });
  return out;
}

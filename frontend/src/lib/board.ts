// What a pinned card says of its re-run: the row count before → now, how
// many rows changed, the sums that moved and a few changed values, or that
// nothing changed. Pure: the words come from the page's catalogue.
import type { BoardChange, BoardPin, Value } from '../api';
import { i18n } from '../i18n/index.svelte';
import { columnDecimals, formatCount, formatDateTime, formatNumber, isNull, viewText } from './format';

/** decimal writes a Go decimal text ("2328.6") with the locale's separators; other text stays. */
export function decimal(s: string): string {
  const n = Number(s);
  return s.trim() !== '' && Number.isFinite(n) ? formatNumber(n) : s;
}

/** changeLines are the sentences of a card's change, the headline first. */
export function changeLines(pin: BoardPin): string[] {
  const B = i18n.m.board;
  if (pin.error) return [B.failed(pin.error)];
  const c: BoardChange | undefined = pin.change;
  if (!c || !pin.now) return [B.notRerun];
  if (c.unchanged) return [B.unchanged(formatDateTime(pin.now.at))];
  if (c.columns_changed) return [B.rowCount(formatCount(c.rows_before), formatCount(c.rows_now)), B.columnsChanged];
  const head: string[] = [];
  if (c.changed) head.push(B.changed(c.changed, formatCount(c.changed)));
  if (c.added) head.push(B.added(formatCount(c.added)));
  if (c.removed) head.push(B.removed(formatCount(c.removed)));
  head.push(B.rowCount(formatCount(c.rows_before), formatCount(c.rows_now)));
  for (const t of c.totals ?? []) head.push(B.total(t.column, decimal(t.before), decimal(t.now)));
  const lines = [head.join(' · ') + (c.partial ? ' ' + B.partial(formatCount(Math.min(pin.pinned.rows.length, pin.now.rows.length))) : '')];
  for (const x of c.cells ?? []) lines.push(B.cell(x.row, x.column, decimal(x.before), decimal(x.now)));
  return lines;
}

/** viewRows is the export's view: the grid's rows in its order when it is
 * filtered or sorted, else undefined (the whole result). */
export function viewRows(order: number[] | undefined, total: number): number[] | undefined {
  if (!order) return undefined;
  if (order.length === total && order.every((v, i) => v === i)) return undefined;
  return order;
}

/** miniTable is a snapshot's first rows as the grid writes them: each
 * number column with one number of decimals, and which columns are numbers. */
export function miniTable(rows: (Value[] | null)[], ncols: number, n = 5): { cells: string[][]; numeric: boolean[] } {
  const all = rows.map((r) => r ?? []);
  const numeric = Array.from({ length: ncols }, (_, j) => all.some((r) => typeof r[j] === 'number') && all.every((r) => isNull(r[j]) || typeof r[j] === 'number'));
  const views = numeric.map((num, j) => ({ decimals: num ? columnDecimals(all, j) : -1, blob: false, percent: false }));
  return { cells: all.slice(0, n).map((r) => Array.from({ length: ncols }, (_, j) => viewText(r[j], views[j]))), numeric };
}

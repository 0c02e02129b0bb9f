// What a pinned card says of its re-run: the row count before → now, how
// many rows changed, the sums that moved and a few changed values, or that
// nothing changed. Pure: the words come from the page's catalogue.
import type { BoardChange, BoardPin, Value } from '../api';
import { i18n } from '../i18n/index.svelte';
import { formatCount, formatDateTime, formatNumber } from './format';

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

/** firstRows are a snapshot's first n rows (for the card's small table). */
export function firstRows(rows: (Value[] | null)[], n = 5): Value[][] {
  return rows.slice(0, n).map((r) => r ?? []);
}

/** viewRows is the export's view: the grid's rows in its order when it is
 * filtered or sorted, else undefined (the whole result). */
export function viewRows(order: number[] | undefined, total: number): number[] | undefined {
  if (!order) return undefined;
  if (order.length === total && order.every((v, i) => v === i)) return undefined;
  return order;
}

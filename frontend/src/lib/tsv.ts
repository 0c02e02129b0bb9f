// Copying cells: tab-separated values, the format spreadsheets paste. A
// cell holding a tab, a newline or a quote is quoted like Excel does; NULL
// is an empty cell.
import type { Value } from '../api/types';
import { rawText } from './format';

export function tsvCell(v: Value | undefined): string {
  const s = rawText(v);
  if (/[\t\n\r"]/.test(s)) return '"' + s.replace(/"/g, '""') + '"';
  return s;
}

/** toTSV writes rows (and the header, when given) as TSV lines. */
export function toTSV(rows: Value[][], header?: string[]): string {
  const lines: string[] = [];
  if (header) lines.push(header.map((h) => tsvCell(h)).join('\t'));
  for (const r of rows) lines.push(r.map(tsvCell).join('\t'));
  return lines.join('\n');
}

/** Selection is a rectangle of the grid in view order (inclusive). */
export interface Selection {
  r0: number;
  r1: number;
  c0: number;
  c1: number;
}

export function normaliseSelection(s: Selection): Selection {
  return { r0: Math.min(s.r0, s.r1), r1: Math.max(s.r0, s.r1), c0: Math.min(s.c0, s.c1), c1: Math.max(s.c0, s.c1) };
}

/** selectionTSV copies the selected rectangle; order maps view rows to
 * data rows (the sort). A whole-row selection brings its header along. */
export function selectionTSV(rows: Value[][], order: number[], sel: Selection, columns: string[], withHeader = false): string {
  const s = normaliseSelection(sel);
  const out: Value[][] = [];
  for (let r = s.r0; r <= s.r1 && r < order.length; r++) {
    const row = rows[order[r]];
    out.push(row.slice(s.c0, s.c1 + 1));
  }
  return toTSV(out, withHeader ? columns.slice(s.c0, s.c1 + 1) : undefined);
}

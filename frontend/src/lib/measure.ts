// Column widths from the rendered text: each column is as wide as its
// header and its values need in the grid's own font (canvas measureText),
// within bounds, so that "2020-01-01" and "United Kingdom" show whole. A
// measure function is passed in, so the fitting is tested without a canvas.
import type { Column, Value } from '../api/types';
import { cellText, isNull } from './format';

/** Measure returns the width in pixels of text in the grid's font (bold: the header's). */
export type Measure = (text: string, bold?: boolean) => number;

export interface FitOptions {
  /** min and max bound the width (max: the automatic width's cap). */
  min: number;
  max: number;
  /** pad is the cell's horizontal padding and border. */
  pad: number;
  /** headPad is what the header adds beside its name (sort arrow, menu button). */
  headPad: number;
  /** sample is how many rows are measured at most (evenly spread, the first ones included). */
  sample: number;
}

export const AUTO_FIT: FitOptions = { min: 64, max: 440, pad: 24, headPad: 58, sample: 2000 };
/** FULL_FIT is a double-click on a column's edge: fit every value, up to a wide cap. */
export const FULL_FIT: FitOptions = { min: 48, max: 1200, pad: 24, headPad: 58, sample: 20000 };

/** sampleRows picks up to n row indexes: the first half of n in order, the rest evenly spread. */
export function sampleRows(count: number, n: number): number[] {
  if (count <= n) return Array.from({ length: count }, (_, i) => i);
  const head = Math.floor(n / 2);
  const out: number[] = [];
  for (let i = 0; i < head; i++) out.push(i);
  const rest = n - head;
  const step = (count - head) / rest;
  for (let k = 0; k < rest; k++) out.push(head + Math.floor(k * step));
  return out;
}

/** fitColumn is column j's width: its header's and its values' widest,
 * bounded; text writes a value as the grid shows it (default cellText). */
export function fitColumn(col: Column, rows: Value[][], j: number, measure: Measure, o: FitOptions, text: (v: Value) => string = cellText): number {
  let w = measure(col.name, true) + o.headPad;
  const nullW = measure('NULL') * 0.85 + 12; // the NULL pill: smaller text, its own padding
  const seen = new Set<string>();
  for (const i of sampleRows(rows.length, o.sample)) {
    const v = rows[i][j];
    if (isNull(v)) {
      w = Math.max(w, nullW + o.pad);
      continue;
    }
    let t = text(v);
    if (t.length > 400) t = t.slice(0, 400); // far past any cap
    if (seen.has(t)) continue;
    seen.add(t);
    w = Math.max(w, measure(t) + o.pad);
    if (w >= o.max) break;
  }
  return Math.round(Math.min(o.max, Math.max(o.min, w)));
}

/** fitWidths is every column's width. */
export function fitWidths(
  columns: Column[],
  rows: Value[][],
  measure: Measure,
  o: FitOptions = AUTO_FIT,
  text?: (v: Value, j: number) => string,
): number[] {
  return columns.map((c, j) => fitColumn(c, rows, j, measure, o, text ? (v) => text(v, j) : undefined));
}

/** canvasMeasure measures in the given CSS fonts, with a cache (the grid
 * measures the same values again when a column is auto-fitted). */
export function canvasMeasure(font: string, boldFont: string): Measure {
  const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  const cache = new Map<string, number>();
  return (text: string, bold = false) => {
    if (!ctx) return text.length * 7.5; // no canvas (tests): an average glyph
    const key = (bold ? 'b' : 'n') + text;
    let w = cache.get(key);
    if (w === undefined) {
      ctx.font = bold ? boldFont : font;
      w = ctx.measureText(text).width;
      if (cache.size > 50000) cache.clear();
      cache.set(key, w);
    }
    return w;
  };
}

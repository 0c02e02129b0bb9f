// Rows as arrays in column order. The answer's results are JSON objects
// (engine.Rows); JavaScript objects put integer-like keys ("1", "2024")
// first, so the page reads each row by the columns' names, in their order.
import type { Answer, Column, Value } from '../api/types';

export function toRows(columns: Column[], results: Record<string, Value>[]): Value[][] {
  const names = columns.map((c) => c.name);
  const out: Value[][] = new Array(results.length);
  for (let i = 0; i < results.length; i++) {
    const r = results[i];
    const row: Value[] = new Array(names.length);
    for (let j = 0; j < names.length; j++) {
      const v = r[names[j]];
      row[j] = v === undefined ? null : v;
    }
    out[i] = row;
  }
  return out;
}

export function answerRows(a: Answer): Value[][] {
  return toRows(a.columns ?? [], a.results ?? []);
}

/** numericColumns lists the indexes of the columns whose non-NULL values
 * are all numbers (and there is at least one). */
export function numericColumns(rows: Value[][], ncols: number): boolean[] {
  const out: boolean[] = [];
  for (let j = 0; j < ncols; j++) {
    let seen = false;
    let ok = true;
    for (let i = 0; i < rows.length && ok; i++) {
      const v = rows[i][j];
      if (v === null) continue;
      if (typeof v === 'number') seen = true;
      else ok = false;
    }
    out.push(ok && seen);
  }
  return out;
}

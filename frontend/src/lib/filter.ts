// The grid's filter row: one expression per column, every one must hold.
//   text        the value contains it (case and accents ignored)
//   =text       the value is it        !text   the value does not contain it
//   >5 >=5 <5 <=5 =5 !=5               compared as numbers in a number column,
//                                      as text otherwise (ISO dates compare right)
//   5..10       between, inclusive     null / !null   NULL or not
// A plain number in a number column is equality.
import type { Value } from '../api/types';
import { cellText, isNull } from './format';
import { compareValues } from './sort';

export type Predicate = (v: Value) => boolean;

const fold = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

function asNumber(s: string): number | null {
  const t = s.trim().replace(/,/g, '');
  if (t === '' || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return null;
  return Number(t);
}

/** parseFilter turns a column's filter text into a test, or null when empty. */
export function parseFilter(text: string, numeric: boolean): Predicate | null {
  const t = text.trim();
  if (!t) return null;
  const lower = t.toLowerCase();
  if (lower === 'null' || lower === 'is null') return (v) => isNull(v);
  if (lower === '!null' || lower === 'not null' || lower === 'is not null') return (v) => !isNull(v);
  const range = /^(.+?)\s*\.\.\s*(.+)$/.exec(t);
  if (range) {
    const lo = parseFilter('>=' + range[1], numeric);
    const hi = parseFilter('<=' + range[2], numeric);
    if (lo && hi) return (v) => lo(v) && hi(v);
  }
  const cmp = /^(>=|<=|!=|<>|>|<|=)\s*(.*)$/.exec(t);
  if (cmp) {
    const [, op, rawArg] = cmp;
    const arg = rawArg.trim();
    const n = asNumber(arg);
    const test = (c: number) =>
      op === '>' ? c > 0 : op === '>=' ? c >= 0 : op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '=' ? c === 0 : c !== 0;
    if (numeric && n !== null) {
      return (v) => typeof v === 'number' && test(v - n);
    }
    if (op === '=' || op === '!=' || op === '<>') {
      const a = fold(arg);
      const eq = (v: Value) => !isNull(v) && fold(cellText(v)) === a;
      return op === '=' ? eq : (v) => !eq(v);
    }
    return (v) => !isNull(v) && test(compareValues(typeof v === 'number' ? v : String(v), arg));
  }
  if (t.startsWith('!')) {
    const a = fold(t.slice(1));
    return (v) => isNull(v) || !fold(cellText(v)).includes(a);
  }
  const n = asNumber(t);
  if (numeric && n !== null) return (v) => v === n;
  const a = fold(t);
  return (v) => !isNull(v) && fold(cellText(v)).includes(a);
}

/** filterIndex returns the indexes of the rows every filter keeps, or
 * null when no filter is set (every row). */
export function filterIndex(rows: Value[][], filters: Record<number, string>, numeric: boolean[]): number[] | null {
  const tests: [number, Predicate][] = [];
  for (const [k, text] of Object.entries(filters)) {
    const j = Number(k);
    const p = parseFilter(text, !!numeric[j]);
    if (p) tests.push([j, p]);
  }
  if (!tests.length) return null;
  const out: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    let ok = true;
    for (const [j, p] of tests) {
      if (!p(r[j])) {
        ok = false;
        break;
      }
    }
    if (ok) out.push(i);
  }
  return out;
}

// How values and sizes read on screen: numbers with the user's separators,
// NULL distinct from the text 'NULL', dates as stored, sizes in KB/MB.
import type { Value } from '../api/types';
import { i18n } from '../i18n/index.svelte';
import { localDate, localMark, localNumberText, numberFormat } from './locale';

// Whole numbers with the locale's thousands separators (3,503; 3 503; 3,503).
const intFmt = { format: (n: number) => numberFormat({ maximumFractionDigits: 0 }).format(n) };

/** formatCount writes a whole number with thousands separators: 3,503. */
export function formatCount(n: number): string {
  return intFmt.format(n);
}

/** formatNumber writes a number for reading: integers with separators,
 * fractions with up to 4 significant decimals, huge or tiny ones in
 * exponent form. */
export function formatNumber(n: number): string {
  if (!isFinite(n)) return n > 0 ? '∞' : n < 0 ? '−∞' : 'NaN';
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return intFmt.format(n);
  const a = Math.abs(n);
  if (a !== 0 && (a >= 1e15 || a < 1e-4)) return localMark(n.toExponential(3).replace('e+', 'e'));
  const decimals = a >= 1000 ? 2 : a >= 1 ? 4 : 6;
  return numberFormat({ maximumFractionDigits: decimals }).format(n);
}

/** formatStat writes a statistic (mean, std, percentiles): at most 2
 * decimals when the number is large, up to 4 significant otherwise. */
export function formatStat(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  if (!isFinite(n)) return formatNumber(n);
  const a = Math.abs(n);
  if (Number.isInteger(n)) return intFmt.format(n);
  if (a >= 100) return numberFormat({ maximumFractionDigits: 2 }).format(n);
  if (a !== 0 && a < 1e-4) return localMark(n.toExponential(2));
  return numberFormat({ maximumSignificantDigits: 4 }).format(n);
}

/** isNull tells a SQL NULL (only null: the text 'NULL' is a value). */
export function isNull(v: Value | undefined): v is null | undefined {
  return v === null || v === undefined;
}

/** isNumeric tells a number cell (±Infinity arrive as text markers). */
export function isNumeric(v: Value | undefined): v is number {
  return typeof v === 'number';
}

/** cellText is a cell as the grid shows it; NULL is drawn separately, so
 * it returns "" for it (callers check isNull first). Numbers keep their
 * full precision here: the grid is for reading exact values. */
export function cellText(v: Value | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return formatCell(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return localDate(v);
}

/** formatCell writes a number cell: thousands separators for integers up to
 * 2^53, floats as JavaScript reads them back (no rounding away data). */
export function formatCell(n: number): string {
  if (!isFinite(n)) return formatNumber(n);
  if (Number.isInteger(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER) return intFmt.format(n);
  return localNumberText(n);
}

/** rawText is a cell for copying: exact, no separators; NULL is empty. */
export function rawText(v: Value | undefined): string {
  if (v === null || v === undefined) return '';
  return String(v);
}

/** formatValue writes a value in a sentence or a statistics cell. */
export function formatValue(v: Value | undefined): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return formatNumber(v);
  return localDate(String(v));
}

/** formatBytes writes a size: 0 B, 980 B, 1.5 KB, 12.3 MB, 4.1 GB. */
export function formatBytes(n: number): string {
  if (!isFinite(n) || n < 0) return '—';
  const U = i18n.m.units;
  if (n < 1000) return `${n} ${U.b}`;
  const units = [U.kb, U.mb, U.gb, U.tb];
  let v = n;
  let i = -1;
  do {
    v /= 1000;
    i++;
  } while (v >= 1000 && i < units.length - 1);
  return `${v >= 100 ? Math.round(v) : oneDecimal(v)} ${units[i]}`;
}

/** formatDuration writes seconds: 12 ms, 1.3 s, 2 min 5 s. */
export function formatDuration(s: number): string {
  if (!isFinite(s) || s < 0) return '—';
  const U = i18n.m.units;
  if (s < 0.001) return `< 1 ${U.ms}`;
  if (s < 1) return `${Math.round(s * 1000)} ${U.ms}`;
  if (s < 60) return `${s < 10 ? oneDecimal(s) : Math.round(s)} ${U.s}`;
  const m = Math.floor(s / 60);
  return `${m} ${U.min} ${Math.round(s - m * 60)} ${U.s}`;
}

/** formatDateTime writes an ISO time from Go as local date and time:
 * "2026-12-01 14:07". Invalid input is returned as is. */
export function formatDateTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const sameDay = d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  if (sameDay) return i18n.m.units.today(time);
  return `${localDate(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`)} ${time}`;
}

/** oneDecimal writes 1.5, 2.0 (1,5 and 2,0 in French). */
export function oneDecimal(n: number): string {
  return numberFormat({ minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false }).format(n);
}

/** plural writes "1 row", "3,503 rows" (English words: callers that show it
 * pass the catalogue's). */
export function plural(n: number, one: string, many = one + 's'): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** isNumericType tells a declared or storage type that holds numbers. */
export function isNumericType(t: string): boolean {
  return /INT|REAL|FLOA|DOUB|NUM|DEC|integer|real/i.test(t);
}

/** sentence starts s with a capital and ends it with a full stop — unless
 * its first word is a name whose case belongs to the user: a file or path
 * ("imports/messy.sqlite", "binary.csv"), an identifier (sqlite_master), or
 * one of keep (a result's column names). */
export function sentence(s: string, keep: string[] = []): string {
  const t = s.trim();
  if (!t) return '';
  const first = t.split(/\s/)[0].replace(/[:,;.!?]+$/, '');
  const own = /[/\\._0-9@]/.test(first) || keep.includes(first) || /^['"`“(]/.test(first);
  const c = own ? t : t[0].toUpperCase() + t.slice(1);
  if (/[.!?:。！？：]$/.test(c)) return c;
  // A Chinese sentence ends with its own full stop.
  return /[\u3400-\u9fff]/.test(c) ? c + '。' : c + '.';
}

/** CellView is how a column's cells read in the grid: numbers with the
 * column's own number of decimals (1.5 and 2.25 as 1.50 and 2.25), blobs as
 * their size. */
export interface ColumnView {
  /** decimals: -1 keeps each number as it is; 0 or more pads to that many. */
  decimals: number;
  blob: boolean;
  /** percent: the column holds shares (0.08) shown as percentages (8.0 %). */
  percent?: boolean;
}

/** The words that name a share, as the workbook's number formats read
 * them (engine/export/numfmt.go). */
const SHARE_WORDS = ['pct', 'percent', 'percentage', 'share', 'ratio', 'rate', 'fraction', 'proportion'];

/** percentColumn reports a column of shares, read as the exported
 * workbook reads it: named with % or a share word (Primary %,
 * share_of_sales, PctPrimary) and every number between -1 and 1, as an
 * imported percentage is stored (8% → 0.08). Its cells then show as
 * percentages, in the grid as in the workbook. */
export function percentColumn(name: string, rows: Value[][], j: number, sample = 2000): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  if (!name.includes('%') && !words.some((w) => SHARE_WORDS.includes(w))) return false;
  let seen = 0;
  const step = Math.max(1, Math.floor(rows.length / sample));
  for (let i = 0; i < rows.length; i += step) {
    const v = rows[i][j];
    if (v === null) continue;
    if (typeof v !== 'number' || Math.abs(v) > 1) return false;
    seen++;
  }
  return seen > 0;
}

function decimalsOf(n: number): number {
  for (let d = 0; d <= 6; d++) {
    const m = n * 10 ** d;
    if (Math.abs(m - Math.round(m)) <= 1e-9 * Math.max(1, Math.abs(m))) return d;
  }
  return 99;
}

/** columnDecimals is how many decimals a numeric column's values show: the
 * most any of them has (up to 4), or -1 when one has more (each number then
 * shows as it is). */
export function columnDecimals(rows: Value[][], j: number, sample = 2000): number {
  let most = 0;
  const step = Math.max(1, Math.floor(rows.length / sample));
  for (let i = 0; i < rows.length; i += step) {
    const v = rows[i][j];
    if (typeof v !== 'number' || Number.isInteger(v)) continue;
    const d = decimalsOf(v);
    if (d > 4) return -1;
    most = Math.max(most, d);
  }
  return most;
}


/** viewText is a cell as the grid shows it, in its column's view. */
export function viewText(v: Value | undefined, cv: ColumnView | undefined): string {
  if (v === null || v === undefined) return '';
  if (cv?.blob && typeof v === 'string') {
    const pad = v.endsWith('==') ? 2 : v.endsWith('=') ? 1 : 0;
    const n = Math.max(0, Math.floor((v.length * 3) / 4) - pad);
    return i18n.m.units.bytes(n, formatCount(n));
  }
  if (typeof v === 'number' && cv?.percent && isFinite(v)) {
    return numberFormat({ style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(v);
  }
  if (typeof v === 'number' && cv && cv.decimals > 0 && isFinite(v) && Math.abs(v) < 1e15 && decimalsOf(v) <= cv.decimals) {
    let f: Intl.NumberFormat | undefined;
    {
      f = numberFormat({ minimumFractionDigits: cv.decimals, maximumFractionDigits: cv.decimals });
    }
    return f.format(v);
  }
  return cellText(v);
}

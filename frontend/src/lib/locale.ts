// Numbers and dates for the page's language (i18n.locale): one cached
// Intl.NumberFormat per set of options, the locale's decimal separator, and
// dates written the locale's way. English keeps ISO dates (2020-01-22, as
// stored, which is how an analyst reads them in English); French and
// Chinese get their own forms. Nothing here changes a value: copies and
// exports use the exact values (lib/tsv.ts, Go's export).
import { i18n } from '../i18n/index.svelte';

const formats = new Map<string, Intl.NumberFormat>();

/** numberFormat is Intl.NumberFormat for the page's locale with opts (cached). */
export function numberFormat(opts: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = i18n.locale + JSON.stringify(opts);
  let f = formats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(i18n.locale, opts);
    formats.set(key, f);
  }
  return f;
}

/** decimalSeparator is the locale's decimal mark ("." or ","). */
export function decimalSeparator(): string {
  return numberFormat({ minimumFractionDigits: 1 }).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.';
}

/** localNumberText writes a number's shortest exact text (String(n): 0.1 stays
 * 0.1, nothing rounded away) with the locale's decimal mark. */
export function localNumberText(n: number): string {
  return localMark(String(n));
}

/** localMark puts the locale's decimal mark in a number's text ("1.5e-5"). */
export function localMark(s: string): string {
  const sep = decimalSeparator();
  return sep === '.' ? s : s.replace('.', sep);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(opts: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = i18n.locale + JSON.stringify(opts);
  let f = dateFormats.get(key);
  if (!f) {
    // UTC: the wall time as stored, no zone invented.
    f = new Intl.DateTimeFormat(i18n.locale, { ...opts, timeZone: 'UTC' });
    dateFormats.set(key, f);
  }
  return f;
}

export type DateUnit = 'year' | 'month' | 'day' | 'hour';

/** dateTick writes a time axis' tick at ms (UTC wall time) for its unit, or
 * null to keep the ISO form (English). */
export function dateTick(ms: number, unit: DateUnit): string | null {
  if (i18n.lang === 'en') return null;
  switch (unit) {
    case 'year':
      return dateFormat({ year: 'numeric' }).format(ms);
    case 'month':
      return dateFormat({ year: 'numeric', month: 'short' }).format(ms);
    case 'day':
      return dateFormat({ year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);
    case 'hour':
      return dateFormat({ month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  }
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?$/;

/** localDate writes a stored ISO date or date-time ("2020-01-22",
 * "2020-01-22 14:05:00") the locale's way; any other text, a date with a
 * zone, and every text in English come back as they are. */
export function localDate(text: string): string {
  if (i18n.lang === 'en' || text.length < 10 || text.length > 26) return text;
  const m = ISO.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi, s] = m;
  const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0));
  const back = new Date(ms);
  if (isNaN(ms) || back.getUTCDate() !== Number(d) || back.getUTCMonth() !== Number(mo) - 1) return text;
  const opts: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
  if (h !== undefined) Object.assign(opts, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }, s !== undefined ? { second: '2-digit' } : {});
  return dateFormat(opts).format(ms);
}

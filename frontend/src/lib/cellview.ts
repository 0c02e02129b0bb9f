// What the cell panel shows of one value: a number exactly, text whole
// (with its length), JSON laid out, a blob's size with its first bytes in
// hex, NULL as NULL.
import { i18n } from '../i18n/index.svelte';
import type { Column, Value } from '../api/types';
import { formatCount } from './format';

export interface CellView {
  kind: 'null' | 'number' | 'text' | 'json' | 'blob';
  /** text is the value as copied (exact, JSON as stored, a blob's base64). */
  text: string;
  /** shown is what the panel displays (laid out JSON, a hex dump). */
  shown: string;
  /** about says what the value is: "text, 1,234 characters", "blob, 20 bytes". */
  about: string;
}

export function isBlobColumn(c: Column | undefined): boolean {
  return !!c && /blob/i.test(c.type);
}

function base64Bytes(s: string): Uint8Array | null {
  try {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** hexDump writes bytes as lines of 16: offset, hex, and the printable characters. */
export function hexDump(b: Uint8Array, max = 512): string {
  const lines: string[] = [];
  for (let off = 0; off < Math.min(b.length, max); off += 16) {
    const chunk = b.subarray(off, Math.min(off + 16, b.length));
    const hex = Array.from(chunk, (x) => x.toString(16).padStart(2, '0')).join(' ');
    const asc = Array.from(chunk, (x) => (x >= 32 && x < 127 ? String.fromCharCode(x) : '·')).join('');
    lines.push(`${off.toString(16).padStart(6, '0')}  ${hex.padEnd(47)}  ${asc}`);
  }
  if (b.length > max) lines.push(`… ${formatCount(b.length - max)} more bytes`);
  return lines.join('\n');
}

export function viewCell(v: Value, column: Column | undefined): CellView {
  if (v === null || v === undefined) return { kind: 'null', text: '', shown: 'NULL', about: i18n.m.grid.about.null };
  if (typeof v === 'number') return { kind: 'number', text: String(v), shown: String(v), about: Number.isInteger(v) ? i18n.m.grid.about.integer : i18n.m.grid.about.number };
  if (typeof v === 'boolean') return { kind: 'text', text: String(v), shown: String(v), about: i18n.m.grid.about.boolean };
  if (isBlobColumn(column)) {
    const b = base64Bytes(v);
    if (b) return { kind: 'blob', text: v, shown: hexDump(b), about: i18n.m.grid.about.blob(b.length, formatCount(b.length)) };
  }
  const t = v.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      const parsed = JSON.parse(t);
      return { kind: 'json', text: v, shown: JSON.stringify(parsed, null, 2), about: i18n.m.grid.about.json(Array.isArray(parsed) ? formatCount(parsed.length) : null, formatCount(v.length)) };
    } catch {
      // not JSON after all: text
    }
  }
  const n = [...v].length;
  return { kind: 'text', text: v, shown: v, about: i18n.m.grid.about.text(n, formatCount(n)) };
}

import { afterEach, describe, expect, it } from 'vitest';
import type { BoardPin } from '../api';
import { setLanguage } from '../i18n/index.svelte';
import { changeLines, decimal, miniTable, viewRows } from './board';

function pin(over: Partial<BoardPin> = {}): BoardPin {
  const snap = { columns: ['country', 'total'], rows: [['USA', 523.06]], row_count: 24, at: '2026-12-01T10:00:00Z' };
  return { id: 'a', question: 'q', sql: 'SELECT 1', chart: 'bar', note: '', pinned_at: snap.at, pinned: snap, ...over };
}
const change = {
  unchanged: false, rows_before: 24, rows_now: 25, changed: 3, added: 1, removed: 0, keyed: true, partial: false, columns_changed: false,
  cells: [{ row: 'USA', column: 'total', before: '523.06', now: '533.56' }],
  totals: [{ column: 'total', before: '1234', now: '1301.5' }],
};

afterEach(() => setLanguage('en'));

describe('changeLines', () => {
  it('says a card not re-run, unchanged, or failed', () => {
    expect(changeLines(pin())).toEqual(['Not re-run since it was pinned.']);
    const now = { ...pin().pinned, at: '2020-01-02T03:04:00Z' };
    expect(changeLines(pin({ now, change: { ...change, unchanged: true } }))[0]).toMatch(/^Unchanged since it was pinned \(re-run /);
    expect(changeLines(pin({ error: 'no such table: Invoice' }))).toEqual(['The re-run failed: no such table: Invoice']);
  });
  it('counts the rows and sums that changed, then the values', () => {
    const lines = changeLines(pin({ now: pin().pinned, change }));
    expect(lines).toEqual(['3 rows changed · 1 added · rows 24 → 25 · total total 1,234 → 1,301.5', 'USA · total: 523.06 → 533.56']);
  });
  it('speaks French and Chinese', () => {
    setLanguage('fr');
    const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');
    expect(plain(changeLines(pin({ now: pin().pinned, change }))[0])).toBe('3 lignes modifiées · 1 ajoutée(s) · lignes 24 → 25 · total total 1 234 → 1 301,5');
    setLanguage('zh');
    expect(changeLines(pin({ now: pin().pinned, change }))[0]).toContain('3 行有变化');
  });
  it('marks a partial comparison', () => {
    const lines = changeLines(pin({ now: pin().pinned, change: { ...change, partial: true } }));
    expect(lines[0]).toMatch(/\(the first 1 rows compared\)$/);
  });
});

describe('decimal and viewRows', () => {
  it('writes Go decimals in the locale, other text as is', () => {
    expect(decimal('2328.6')).toBe('2,328.6');
    expect(decimal('Rock')).toBe('Rock');
  });
  it('is the grid order only when it differs from the result', () => {
    expect(viewRows(undefined, 3)).toBeUndefined();
    expect(viewRows([0, 1, 2], 3)).toBeUndefined();
    expect(viewRows([2, 0], 3)).toEqual([2, 0]);
    expect(viewRows([0, 1], 3)).toEqual([0, 1]);
  });
});

describe('miniTable', () => {
  it('writes a number column with its decimals, text as is, NULL empty', () => {
    const t = miniTable([['Brazil', 190.1], ['USA', 523.06], ['Chile', null], null], 2, 3);
    expect(t.numeric).toEqual([false, true]);
    expect(t.cells).toEqual([['Brazil', '190.10'], ['USA', '523.06'], ['Chile', '']]);
  });
});

import { describe, expect, it } from 'vitest';
import { selectionTSV, toTSV, tsvCell } from './tsv';
import type { Value } from '../api/types';

describe('TSV copy', () => {
  it('writes rows and the header with tabs and newlines', () => {
    expect(
      toTSV(
        [
          ['Iron Maiden', 21],
          ['U2', 10],
        ],
        ['artist', 'albums'],
      ),
    ).toBe('artist\talbums\nIron Maiden\t21\nU2\t10');
  });

  it('leaves NULL empty and keeps the text NULL', () => {
    expect(toTSV([[null, 'NULL']])).toBe('\tNULL');
  });

  it('quotes cells holding tabs, newlines or quotes', () => {
    expect(tsvCell('a\tb')).toBe('"a\tb"');
    expect(tsvCell('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(tsvCell('say "hi"')).toBe('"say ""hi"""');
    expect(tsvCell(1234.5)).toBe('1234.5');
  });

  it('copies the selected rectangle in view order', () => {
    const rows: Value[][] = [
      [1, 'a', 'x'],
      [2, 'b', 'y'],
      [3, 'c', 'z'],
    ];
    const order = [2, 1, 0]; // sorted descending
    expect(selectionTSV(rows, order, { r0: 1, c0: 2, r1: 0, c1: 1 }, ['n', 'l', 'm'])).toBe('c\tz\nb\ty');
    expect(selectionTSV(rows, order, { r0: 0, c0: 0, r1: 0, c1: 2 }, ['n', 'l', 'm'], true)).toBe('n\tl\tm\n3\tc\tz');
  });
});

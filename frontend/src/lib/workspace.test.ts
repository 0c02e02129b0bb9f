import { describe, expect, it } from 'vitest';
import type { Column, Value } from '../api/types';
import { fitWidths, sampleRows, AUTO_FIT, type Measure } from './measure';
import { filterIndex, parseFilter } from './filter';
import { viewCell, hexDump } from './cellview';
import { columnDecimals, sentence, viewText } from './format';

const cols = (...names: string[]): Column[] => names.map((name) => ({ name, type: '' }));
// A proportional fake font: wide capitals, narrow i and l.
const measure: Measure = (t, bold) => [...t].reduce((w, ch) => w + (/[A-Z]/.test(ch) ? 9 : /[il.,]/.test(ch) ? 3.5 : 7), 0) * (bold ? 1.08 : 1);

describe('column widths from the rendered text (defect 3)', () => {
  it('fits dates and country names whole, with the cell padding', () => {
    const rows: Value[][] = [
      ['2020-01-01', 'United Kingdom', 3],
      ['2021-12-31', 'USA', 12345],
    ];
    const w = fitWidths(cols('day', 'country', 'n'), rows, measure);
    expect(w[0]).toBeGreaterThanOrEqual(Math.ceil(measure('2020-01-01') + AUTO_FIT.pad));
    expect(w[1]).toBeGreaterThanOrEqual(Math.ceil(measure('United Kingdom') + AUTO_FIT.pad));
    // the old rule (7.2 px a character) cut a 14-letter name at 126 px
    expect(w[1]).toBeGreaterThan(14 * 7.2 + 26 - 30);
  });

  it('is as wide as the header, and bounded', () => {
    const w = fitWidths(cols('a_rather_long_column_name', 'x'), [[1, 'y'.repeat(500)]], measure);
    expect(w[0]).toBeGreaterThanOrEqual(Math.ceil(measure('a_rather_long_column_name', true)));
    expect(w[1]).toBe(AUTO_FIT.max);
  });

  it('samples large results evenly, the first rows included', () => {
    const s = sampleRows(100000, 10);
    expect(s.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(s.length).toBe(10);
    expect(s.at(-1)).toBeGreaterThan(80000);
  });
});

describe('the filter row', () => {
  const rows: Value[][] = [
    ['Brazil', 12, '2012-01-05'],
    ['brasil', 3.5, '2013-02-01'],
    ['Canada', null, '2011-07-01'],
    [null, 40, null],
  ];
  const numeric = [false, true, false];
  it('keeps rows containing the text, ignoring case and accents', () => {
    expect(filterIndex(rows, { 0: 'BRA' }, numeric)).toEqual([0, 1]);
    expect(filterIndex(rows, { 0: '!bra' }, numeric)).toEqual([2, 3]);
    expect(filterIndex(rows, { 0: '=canada' }, numeric)).toEqual([2]);
  });
  it('compares numbers as numbers, and dates as text', () => {
    expect(filterIndex(rows, { 1: '>10' }, numeric)).toEqual([0, 3]);
    expect(filterIndex(rows, { 1: '3.5..12' }, numeric)).toEqual([0, 1]);
    expect(filterIndex(rows, { 1: '12' }, numeric)).toEqual([0]);
    expect(filterIndex(rows, { 2: '>=2012-01-01' }, numeric)).toEqual([0, 1]);
  });
  it('finds NULLs, and combines columns', () => {
    expect(filterIndex(rows, { 1: 'null' }, numeric)).toEqual([2]);
    expect(filterIndex(rows, { 1: '!null', 0: 'a' }, numeric)).toEqual([0, 1]);
    expect(filterIndex(rows, { 1: '  ' }, numeric)).toBeNull();
    expect(parseFilter('', false)).toBeNull();
  });
});

describe('the cell panel', () => {
  it('lays out JSON, dumps blobs, counts characters', () => {
    const j = viewCell('{"a":[1,2],"b":"x"}', { name: 'doc', type: 'TEXT' });
    expect(j.kind).toBe('json');
    expect(j.shown).toContain('\n  "a": [');
    const b = viewCell(btoa('\u0000\u00ffblob'), { name: 'cover', type: 'BLOB' });
    expect(b.kind).toBe('blob');
    expect(b.about).toBe('blob, 6 bytes (copied as base64)');
    expect(b.shown).toMatch(/^000000 {2}00 ff 62 6c 6f 62/);
    expect(viewCell('héllo', { name: 't', type: '' }).about).toBe('text, 5 characters');
    expect(viewCell(null, undefined).shown).toBe('NULL');
    expect(hexDump(new Uint8Array(600)).split('\n').at(-1)).toBe('… 88 more bytes');
  });
});

describe('sentences', () => {
  it('keep the case of column names the caller names', () => {
    expect(sentence('day repeats for each country', ['day'])).toBe('day repeats for each country.');
    expect(sentence('one date-like column')).toBe('One date-like column.');
    expect(sentence('一个分类（genre）和 1 个数值（tracks）：柱状图按 genre 比较它们')).toBe('一个分类（genre）和 1 个数值（tracks）：柱状图按 genre 比较它们。');
    expect(sentence('已完成。')).toBe('已完成。');
  });
});

describe("a column's view", () => {
  it('pads a column of amounts to its decimals, and leaves exact numbers alone', () => {
    const rows: Value[][] = [[791.9], [79.19], [3], [null]];
    const d = columnDecimals(rows, 0);
    expect(d).toBe(2);
    const cv = { decimals: d, blob: false };
    expect(rows.map((r) => viewText(r[0], cv))).toEqual(['791.90', '79.19', '3.00', '']);
    expect(columnDecimals([[0.123456789]], 0)).toBe(-1);
    expect(viewText(0.123456789, { decimals: -1, blob: false })).toBe('0.123456789');
    expect(viewText(1234567, { decimals: 0, blob: false })).toBe('1,234,567');
  });
  it('shows a blob as its size', () => {
    expect(viewText(btoa('\u0000\u00ff\u0010'), { decimals: -1, blob: true })).toBe('3 bytes');
  });
});

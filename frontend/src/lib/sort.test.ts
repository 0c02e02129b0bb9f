import { describe, expect, it } from 'vitest';
import { compareValues, nextSort, sortIndex } from './sort';
import type { Value } from '../api/types';

const col = (vals: Value[]) => vals.map((v) => [v]);
const sorted = (vals: Value[], dir: 'asc' | 'desc') => sortIndex(col(vals), 0, dir).map((i) => vals[i]);

describe('sorting', () => {
  it('sorts numbers numerically, not as text', () => {
    expect(sorted([10, 9, 100, 1.5], 'asc')).toEqual([1.5, 9, 10, 100]);
    expect(sorted([10, 9, 100, 1.5], 'desc')).toEqual([100, 10, 9, 1.5]);
  });

  it('keeps NULLs last in both directions, apart from the text NULL', () => {
    expect(sorted([null, 2, 'NULL', 1, null], 'asc')).toEqual([1, 2, 'NULL', null, null]);
    expect(sorted([null, 2, 'NULL', 1, null], 'desc')).toEqual(['NULL', 2, 1, null, null]);
  });

  it('sorts text naturally and case-insensitively', () => {
    expect(sorted(['track 10', 'Track 2', 'apple', 'Banana'], 'asc')).toEqual(['apple', 'Banana', 'Track 2', 'track 10']);
  });

  it('is stable', () => {
    const rows: Value[][] = [
      [1, 'a'],
      [0, 'b'],
      [1, 'c'],
      [0, 'd'],
    ];
    expect(sortIndex(rows, 0, 'asc')).toEqual([1, 3, 0, 2]);
    expect(sortIndex(rows, 0, 'desc')).toEqual([0, 2, 1, 3]);
  });

  it('puts numbers before text', () => {
    expect(compareValues(5, 'a')).toBeLessThan(0);
    expect(compareValues('a', 5)).toBeGreaterThan(0);
  });

  it('cycles ascending, descending, unsorted', () => {
    let s = nextSort(null, 2);
    expect(s).toEqual({ col: 2, dir: 'asc' });
    s = nextSort(s, 2);
    expect(s).toEqual({ col: 2, dir: 'desc' });
    expect(nextSort(s, 2)).toBeNull();
    expect(nextSort(s, 0)).toEqual({ col: 0, dir: 'asc' });
  });
});

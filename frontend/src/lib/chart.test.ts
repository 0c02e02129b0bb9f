import { describe, expect, it } from 'vitest';
import { chartData, defaultChoice, MAX_SLICES } from './chart';
import type { Column, Value } from '../api/types';

const cols = (...names: string[]): Column[] => names.map((name) => ({ name, type: '' }));

describe('the default chart', () => {
  const c = cols('artist', 'albums');
  const rows: Value[][] = [
    ['Iron Maiden', 21],
    ['Led Zeppelin', 14],
  ];

  it('follows the suggestion: category on X, the number on Y', () => {
    expect(defaultChoice(c, rows, 'bar')).toEqual({ kind: 'bar', x: 0, ys: [1] });
    expect(defaultChoice(c, rows, 'pie')).toEqual({ kind: 'pie', x: 0, ys: [1] });
  });

  it('still draws a bar chart when a table was suggested', () => {
    expect(defaultChoice(c, rows, 'table')?.kind).toBe('bar');
  });

  it('puts dates on X for a line', () => {
    const r: Value[][] = [
      [1, '2012-01', 10.5],
      [2, '2012-02', 7],
    ];
    expect(defaultChoice(cols('n', 'month', 'total'), r, 'line')).toEqual({ kind: 'line', x: 1, ys: [0, 2] });
  });

  it('draws a scatter of two numbers, a histogram of one', () => {
    const r: Value[][] = [
      [1, 2],
      [3, 4],
    ];
    expect(defaultChoice(cols('a', 'b'), r, 'scatter')).toEqual({ kind: 'scatter', x: 0, ys: [1] });
    expect(defaultChoice(cols('a'), [[1], [2]], 'histogram')).toEqual({ kind: 'histogram', x: 0, ys: [0] });
    expect(defaultChoice(cols('a'), [[1], [2]], 'bar')).toEqual({ kind: 'histogram', x: 0, ys: [0] });
  });

  it('has nothing to draw without numbers', () => {
    expect(defaultChoice(cols('name'), [['a'], [null]], 'table')).toBeNull();
    expect(defaultChoice(cols('n'), [], 'table')).toBeNull();
  });
});

describe('chart series', () => {
  it('labels bars with X and keeps NULL numbers as gaps', () => {
    const d = chartData(cols('artist', 'albums'), [['A', 3], [null, null]], { kind: 'bar', x: 0, ys: [1] });
    expect(d.labels).toEqual(['A', 'NULL']);
    expect(d.series[0].label).toBe('albums');
    expect(d.series[0].data[0]).toBe(3);
    expect(Number.isNaN(d.series[0].data[1])).toBe(true);
  });

  it('keeps a pie to a dozen slices, the rest as Other', () => {
    const rows: Value[][] = Array.from({ length: 20 }, (_, i) => [`g${i}`, 20 - i]);
    const d = chartData(cols('genre', 'n'), rows, { kind: 'pie', x: 0, ys: [1] });
    expect(d.labels).toHaveLength(MAX_SLICES);
    expect(d.labels.at(-1)).toBe('Other');
    expect((d.series[0].data as number[]).reduce((a, b) => a + b, 0)).toBe(210);
  });

  it('leaves non-positive values out of a pie, and says so', () => {
    const d = chartData(cols('k', 'v'), [['a', 1], ['b', 0], ['c', -2]], { kind: 'pie', x: 0, ys: [1] });
    expect(d.labels).toEqual(['a']);
    expect(d.note).toContain('2');
  });

  it('bins a histogram in the page', () => {
    const rows: Value[][] = Array.from({ length: 100 }, (_, i) => [i]);
    const d = chartData(cols('x'), rows, { kind: 'histogram', x: 0, ys: [0] });
    expect((d.series[0].data as number[]).reduce((a, b) => a + b, 0)).toBe(100);
    expect(d.yTitle).toBe('Rows');
  });

  it('pairs numbers for a scatter', () => {
    const d = chartData(cols('a', 'b'), [[1, 2], [3, null], [5, 6]], { kind: 'scatter', x: 0, ys: [1] });
    expect(d.series[0].data).toEqual([
      { x: 1, y: 2 },
      { x: 5, y: 6 },
    ]);
  });

  it('draws at most 500 categories and says so', () => {
    const rows: Value[][] = Array.from({ length: 600 }, (_, i) => [`r${i}`, i]);
    const d = chartData(cols('k', 'v'), rows, { kind: 'line', x: 0, ys: [1] });
    expect(d.labels).toHaveLength(500);
    expect(d.note).toContain('500');
  });
});

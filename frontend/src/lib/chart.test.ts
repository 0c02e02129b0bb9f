import { describe, expect, it } from 'vitest';
import { calendarTicks, chartData, dateMs, defaultChoice, downsample, idLike, MAX_POINTS, MAX_SLICES, timeTick, type Point } from './chart';
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

  it('draws every bar up to 500, then every k-th row, and says so', () => {
    const rows: Value[][] = Array.from({ length: 600 }, (_, i) => [`r${i}`, i]);
    const line = chartData(cols('k', 'v'), rows, { kind: 'line', x: 0, ys: [1] });
    expect(line.labels).toHaveLength(600);
    const bar = chartData(cols('k', 'v'), rows, { kind: 'bar', x: 0, ys: [1] });
    expect(bar.labels).toHaveLength(300);
    expect(bar.note).toBe('downsampled evenly: every 2nd of 600 rows drawn (300 bars)');
  });
});

describe('charts of every row (defect 7)', () => {
  const days = (n: number): Value[][] =>
    Array.from({ length: n }, (_, i) => [new Date(Date.UTC(2020, 0, 22) + i * 86400000).toISOString().slice(0, 10), 1000 + ((i * 37) % 101), i + 1]);

  it('plots all 576 daily points on a time axis, in order', () => {
    const rows = days(576).reverse();
    const c = cols('day', 'cases', 'id');
    const choice = defaultChoice(c, rows, 'line')!;
    expect(choice).toEqual({ kind: 'line', x: 0, ys: [1] }); // id is not a measure
    const d = chartData(c, rows, choice);
    expect(d.xAxis).toBe('time');
    expect(d.points).toBe(576);
    const pts = d.series[0].data as Point[];
    expect(pts).toHaveLength(576);
    expect(pts[0].x).toBe(Date.UTC(2020, 0, 22));
    expect(pts.every((p, i) => i === 0 || p.x > pts[i - 1].x)).toBe(true);
    expect(d.note).toBe('every row drawn (576 points)');
  });

  it('downsamples 20,000 points evenly, keeping the peaks, and says so', () => {
    const rows = days(20000);
    rows[12345][1] = 99999;
    const d = chartData(cols('day', 'cases', 'id'), rows, { kind: 'line', x: 0, ys: [1] });
    const pts = d.series[0].data as Point[];
    expect(pts.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(Math.max(...pts.map((p) => p.y))).toBe(99999);
    expect(d.note).toContain('downsampled evenly: 20,000 rows drawn as');
    expect(downsample([{ x: 1, y: 1 }], 10)).toHaveLength(1);
  });

  it('reads dates and date-times as their wall time', () => {
    expect(dateMs('2012-03')).toBe(Date.UTC(2012, 2, 1));
    expect(dateMs('2012-03-04 05:06:07')).toBe(Date.UTC(2012, 2, 4, 5, 6, 7));
    expect(Number.isNaN(dateMs('2012-13-01'))).toBe(true);
    expect(timeTick(Date.UTC(2021, 5, 3), 500 * 86400000)).toBe('2021-06');
    // 576 days from 2020-01-22: ticks on the first of every other month.
    const t = calendarTicks(Date.UTC(2020, 0, 22), Date.UTC(2021, 7, 19));
    expect(t.values[0]).toBe(Date.UTC(2020, 2, 1));
    expect(t.values.every((v) => new Date(v).getUTCDate() === 1)).toBe(true);
    expect(t.values.length).toBeLessThanOrEqual(12);
    expect(t.label(t.values[0])).toBe('2020-03');
    expect(calendarTicks(Date.UTC(2001, 3, 1), Date.UTC(2013, 0, 1)).label(Date.UTC(2002, 0, 1))).toBe('2002');
  });

  it('never takes an id, a rank or a code for a measure', () => {
    const rows: Value[][] = Array.from({ length: 20 }, (_, i) => [i + 1, `c${i}`, 9000 + i, (i * 13) % 7]);
    const c = cols('CustomerId', 'name', 'zip_code', 'spent');
    expect(defaultChoice(c, rows, 'bar')).toEqual({ kind: 'bar', x: 1, ys: [3] });
    expect(idLike('rank', [[1], [2]], 0)).toBe(true);
    expect(idLike('rank', [[1], [1]], 0)).toBe(false);
    expect(idLike('paid', [[1], [2]], 0)).toBe(true);
    expect(idLike('tracks', [[1], [2]], 0)).toBe(false);
  });
});

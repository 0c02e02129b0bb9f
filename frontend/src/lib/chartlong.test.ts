// The chart of long data, years and months, two scales and single values
// (issue 25 §3): the page draws what the answer's visualization says.
import { afterEach, describe, expect, it } from 'vitest';
import { chartData, choiceFromVisualization, defaultChoice, noChartSuggested, pivotWide, timeMs, withGaps, type Point } from './chart';
import type { Column, Value, Visualization } from '../api/types';
import { i18n, setLanguage } from '../i18n/index.svelte';

const cols = (...names: string[]): Column[] => names.map((name) => ({ name, type: '' }));
const viz = (v: Partial<Visualization>): Visualization => ({ type: 'table', x: '', y: [], series: '', x_axis: '', y2: [], time_unit: '', ...v });

// Sales per country per year, years from strftime('%Y'); France has no 2011.
function long(): Value[][] {
  const out: Value[][] = [];
  for (const country of ['Brazil', 'Canada', 'France']) {
    for (let y = 2009; y <= 2013; y++) {
      if (country === 'France' && y === 2011) continue;
      out.push([country, String(y), y - 2000 + country.length]);
    }
  }
  return out;
}

afterEach(() => setLanguage('en'));

describe('long data', () => {
  const c = cols('Country', 'Year', 'Sales');
  const v = viz({ type: 'line', x: 'Year', y: ['Sales'], series: 'Country', x_axis: 'time', time_unit: 'year' });

  it('takes the engine visualization: one line per country on a time axis of years', () => {
    expect(defaultChoice(c, long(), 'line', v)).toEqual({ kind: 'line', x: 1, ys: [2], series: 0, unit: 'year' });
  });

  it('draws one series per country, each in year order, with the missing year a gap', () => {
    const d = chartData(c, long(), choiceFromVisualization(c, long(), v)!);
    expect(d.xAxis).toBe('time');
    expect(d.series.map((s) => s.label)).toEqual(['Brazil', 'Canada', 'France']);
    const france = d.series[2].data as Point[];
    expect(france.map((p) => (Number.isNaN(p.y) ? 'gap' : new Date(p.x).getUTCFullYear()))).toEqual([2009, 2010, 'gap', 2012, 2013]);
    const brazil = d.series[0].data as Point[];
    expect(brazil.every((p, i) => i === 0 || p.x > brazil[i - 1].x)).toBe(true);
    expect(d.note).toContain('one series per Country (3)');
    expect(d.note).toContain('a missing year or month is a gap');
  });

  it('draws bars of long data without time as one set per category, aligned on the labels', () => {
    const rows: Value[][] = [
      ['Rock', 'MPEG', 10],
      ['Rock', 'AAC', 4],
      ['Jazz', 'MPEG', 7],
    ];
    const c2 = cols('Genre', 'Media', 'Tracks');
    const d = chartData(c2, rows, choiceFromVisualization(c2, rows, viz({ type: 'bar', x: 'Genre', y: ['Tracks'], series: 'Media', x_axis: 'category' }))!);
    expect(d.labels).toEqual(['Rock', 'Jazz']);
    expect(d.series.map((s) => [s.label, ...(s.data as number[]).map((n) => (Number.isNaN(n) ? null : n))])).toEqual([
      ['MPEG', 10, 7],
      ['AAC', 4, null],
    ]);
  });
});

describe('time axes', () => {
  it('reads integer and text years, and months', () => {
    expect(timeMs(2011, 'year')).toBe(Date.UTC(2011, 0, 1));
    expect(timeMs('2011', 'year')).toBe(Date.UTC(2011, 0, 1));
    expect(timeMs('2011-03', 'month')).toBe(Date.UTC(2011, 2, 1));
    expect(timeMs('Q1', 'year')).toBeNaN();
  });

  it('keeps a missing month as a gap, and nothing between neighbours', () => {
    const pts = ['2011-01', '2011-02', '2011-04'].map((m, i) => ({ x: timeMs(m, 'month'), y: i }));
    expect(withGaps(pts, 'month').map((p) => Number.isNaN(p.y))).toEqual([false, false, true, false]);
    expect(withGaps(pts, 'day')).toHaveLength(3);
  });
});

describe('two scales', () => {
  it('draws the far number against a right-hand axis, named in the page language', () => {
    const c = cols('Year', 'Revenue', 'Orders');
    const rows: Value[][] = [
      [2009, 250000, 80],
      [2010, 260000, 83],
    ];
    const v = viz({ type: 'line', x: 'Year', y: ['Revenue'], y2: ['Orders'], x_axis: 'time', time_unit: 'year' });
    const choice = choiceFromVisualization(c, rows, v)!;
    expect(choice).toEqual({ kind: 'line', x: 0, ys: [1, 2], y2: [2], unit: 'year' });
    const d = chartData(c, rows, choice);
    expect(d.series.map((s) => s.axis ?? 'y')).toEqual(['y', 'y2']);
    expect(d.yTitle).toBe('Revenue');
    expect(d.y2Title).toBe('Orders (right-hand axis)');
    setLanguage('fr');
    expect(chartData(c, rows, choice).y2Title).toBe('Orders (axe de droite)');
  });
});

describe('no chart, and distributions', () => {
  it('draws no chart for a single value the engine calls a table', () => {
    expect(noChartSuggested([[3503]], 'table', viz({}))).toBe(true);
    expect(noChartSuggested([[1], [2]], 'table', viz({}))).toBe(false);
    expect(noChartSuggested([[3503]], 'bar', null)).toBe(false);
  });

  it('bins every value of a long table rather than every k-th bar', () => {
    const rows: Value[][] = Array.from({ length: 1592 }, (_, i) => [`Track ${i % 700}`, 100000 + ((i * 7919) % 400000)]);
    const choice = defaultChoice(cols('Name', 'Milliseconds'), rows, 'table', viz({}))!;
    expect(choice.kind).toBe('histogram');
    const d = chartData(cols('Name', 'Milliseconds'), rows, choice);
    expect((d.series[0].data as number[]).reduce((a, b) => a + b, 0)).toBe(1592);
  });

  it('names the histogram count in the page language', () => {
    setLanguage('zh');
    const rows: Value[][] = Array.from({ length: 20 }, (_, i) => [i]);
    const d = chartData(cols('n'), rows, { kind: 'histogram', x: 0, ys: [0] });
    expect(i18n.lang).toBe('zh');
    expect(d.series[0].label).toBe('n (计数)');
  });
});

describe('pivot to wide', () => {
  it('makes one row per year and one column per country, a missing pair empty', () => {
    const c = cols('Country', 'Year', 'Sales');
    const rows = long().reverse(); // the order of the rows does not matter on a time axis
    const w = pivotWide(c, rows, { kind: 'line', x: 1, ys: [2], series: 0, unit: 'year' })!;
    expect(w.head).toEqual(['Year', 'France', 'Canada', 'Brazil']);
    expect(w.rows.map((r) => r.x)).toEqual(['2009', '2010', '2011', '2012', '2013']);
    expect(w.rows[2].values).toEqual([null, 17, 17]);
    expect(pivotWide(c, rows, { kind: 'line', x: 1, ys: [2] })).toBeNull();
  });
});

// What the chart draws: the default kind and columns from the answer's
// suggestion, and the data series for each kind. Pure functions (the
// component hands the result to chart.js), so they are unit-tested.
import type { ChartKind, Column, Value } from '../api/types';
import { histogram } from './histogram';
import { numericColumns } from './rows';
import { formatNumber, formatStat } from './format';

export const CHART_KINDS: ChartKind[] = ['bar', 'line', 'pie', 'scatter', 'histogram'];

export const KIND_LABELS: Record<ChartKind, string> = {
  bar: 'Bar',
  line: 'Line',
  pie: 'Pie',
  scatter: 'Scatter',
  histogram: 'Histogram',
};

/** At most this many points are drawn for bar, line and pie charts. */
export const MAX_CATEGORIES = 500;
/** A pie shows this many slices; the rest become "Other". */
export const MAX_SLICES = 12;

export interface ChartChoice {
  kind: ChartKind;
  x: number;
  ys: number[];
}

export interface ChartSeries {
  label: string;
  data: number[] | { x: number; y: number }[];
}

export interface ChartData {
  kind: ChartKind;
  labels: string[];
  series: ChartSeries[];
  xTitle: string;
  yTitle: string;
  /** note says what was left out (rows beyond the cap, NULLs). */
  note: string;
}

const DATE_RE = /^\d{4}-\d{2}(-\d{2})?([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?/;

function isDateColumn(rows: Value[][], j: number): boolean {
  let seen = 0;
  for (let i = 0; i < rows.length && seen < 20; i++) {
    const v = rows[i][j];
    if (v === null) continue;
    if (typeof v !== 'string' || !DATE_RE.test(v)) return false;
    seen++;
  }
  return seen > 0;
}

/** defaultChoice starts from the engine's suggestion: the X axis is the
 * first date or text column (else the first column), the Y axes the
 * numeric columns other than X (at most 3). A "table" suggestion still
 * gets a bar chart when there is something to draw. */
export function defaultChoice(columns: Column[], rows: Value[][], suggestion: string): ChartChoice | null {
  const numeric = numericColumns(rows, columns.length);
  const nums = numeric.map((n, i) => (n ? i : -1)).filter((i) => i >= 0);
  if (nums.length === 0) return null;
  let kind: ChartKind = (CHART_KINDS as string[]).includes(suggestion) ? (suggestion as ChartKind) : 'bar';
  let x = -1;
  for (let j = 0; j < columns.length; j++) if (isDateColumn(rows, j)) { x = j; break; }
  if (x < 0) x = numeric.findIndex((n) => !n);
  if (kind === 'scatter' || (x < 0 && nums.length >= 2 && kind !== 'histogram')) {
    x = nums[0];
    if (nums.length < 2) kind = 'histogram';
  }
  if (x < 0) x = 0;
  let ys = nums.filter((j) => j !== x).slice(0, 3);
  if (kind === 'histogram') ys = [nums.find((j) => j !== x) ?? nums[0]];
  if (kind === 'pie') ys = ys.slice(0, 1);
  if (ys.length === 0) {
    // The only number is the X axis: draw its distribution.
    kind = 'histogram';
    ys = [nums[0]];
  }
  return { kind, x, ys };
}

function label(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return formatNumber(v);
  return String(v);
}

/** chartData builds the series a chart of this kind draws. */
export function chartData(columns: Column[], rows: Value[][], choice: ChartChoice): ChartData {
  const { kind, x, ys } = choice;
  const xName = columns[x]?.name ?? '';
  const yNames = ys.map((j) => columns[j]?.name ?? '');
  const notes: string[] = [];
  if (kind === 'histogram') {
    const j = ys[0] ?? x;
    const bins = histogram(rows.map((r) => r[j]));
    const skipped = rows.filter((r) => typeof r[j] !== 'number').length;
    if (skipped) notes.push(`${formatNumber(skipped)} empty or non-numeric values left out`);
    return {
      kind,
      labels: bins.map((b) => (b.lo === b.hi ? formatStat(b.lo) : `${formatStat(b.lo)} – ${formatStat(b.hi)}`)),
      series: [{ label: `${columns[j]?.name ?? ''} (count)`, data: bins.map((b) => b.count) }],
      xTitle: columns[j]?.name ?? '',
      yTitle: 'Rows',
      note: notes.join('; '),
    };
  }
  if (kind === 'scatter') {
    const series = ys.map((j, k) => ({
      label: yNames[k],
      data: rows
        .filter((r) => typeof r[x] === 'number' && typeof r[j] === 'number')
        .map((r) => ({ x: r[x] as number, y: r[j] as number })),
    }));
    return { kind, labels: [], series, xTitle: xName, yTitle: yNames.join(', '), note: '' };
  }
  let data = rows;
  if (data.length > MAX_CATEGORIES) {
    notes.push(`showing the first ${formatNumber(MAX_CATEGORIES)} of ${formatNumber(rows.length)} rows`);
    data = rows.slice(0, MAX_CATEGORIES);
  }
  if (kind === 'pie') {
    const j = ys[0];
    const pairs = data
      .map((r) => ({ l: label(r[x]), v: r[j] }))
      .filter((p): p is { l: string; v: number } => typeof p.v === 'number' && p.v > 0);
    const dropped = data.length - pairs.length;
    if (dropped) notes.push(`${formatNumber(dropped)} empty, zero or negative values left out`);
    let slices = pairs;
    if (pairs.length > MAX_SLICES) {
      const sorted = [...pairs].sort((a, b) => b.v - a.v);
      const rest = sorted.slice(MAX_SLICES - 1).reduce((s, p) => s + p.v, 0);
      slices = [...sorted.slice(0, MAX_SLICES - 1), { l: 'Other', v: rest }];
    }
    return {
      kind,
      labels: slices.map((p) => p.l),
      series: [{ label: yNames[0], data: slices.map((p) => p.v) }],
      xTitle: xName,
      yTitle: yNames[0],
      note: notes.join('; '),
    };
  }
  return {
    kind,
    labels: data.map((r) => label(r[x])),
    series: ys.map((j, k) => ({ label: yNames[k], data: data.map((r) => (typeof r[j] === 'number' ? (r[j] as number) : NaN)) })),
    xTitle: xName,
    yTitle: yNames.join(', '),
    note: notes.join('; '),
  };
}

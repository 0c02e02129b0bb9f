// What the chart draws: the default kind and columns from the answer's
// suggestion, and the data series for each kind. Every row is plotted; past
// a few thousand points a line or scatter is downsampled evenly (each bucket
// keeps its lowest and highest point, so no peak is lost) and a bar chart
// takes every k-th row — and the note says so. Dates go on a time axis, so
// that a missing day shows as a gap. Pure functions (the component hands the
// result to chart.js), so they are unit-tested.
import type { ChartKind, Column, Value, Visualization } from '../api/types';
import { histogram } from './histogram';
import { numericColumns } from './rows';
import { formatCount, formatNumber, formatStat } from './format';
import { dateTick } from './locale';
import { i18n } from '../i18n/index.svelte';

export const CHART_KINDS: ChartKind[] = ['bar', 'line', 'pie', 'scatter', 'histogram'];

/** kindLabel is a chart kind's name in the page's language. */
export function kindLabel(k: ChartKind | string): string {
  return (i18n.m.chart.kinds as Record<string, string>)[k] ?? k;
}

/** A line or scatter draws every row up to this many points, then downsamples. */
export const MAX_POINTS = 5000;
/** A bar chart draws every row up to this many bars, then every k-th row. */
export const MAX_BARS = 500;
/** A pie shows this many slices; the rest become "Other". */
export const MAX_SLICES = 12;

export interface ChartChoice {
  kind: ChartKind;
  x: number;
  ys: number[];
  /** series is the category whose values each draw a series (long data), when set. */
  series?: number;
  /** y2 are the ys drawn against a second, right-hand axis. */
  y2?: number[];
  /** unit is a time axis' step (year, month, day) when X is time. */
  unit?: string;
}

/** A category with more values than this draws the first MAX_SERIES as series. */
export const MAX_SERIES = 30;

export interface Point {
  x: number;
  y: number;
}

export interface ChartSeries {
  label: string;
  data: number[] | Point[];
  /** axis is 'y2' for a series drawn against the right-hand axis. */
  axis?: 'y2';
}

export interface ChartData {
  kind: ChartKind;
  /** xAxis: category labels, numbers (scatter), or time (x in ms since 1970, UTC wall time). */
  xAxis: 'category' | 'linear' | 'time';
  labels: string[];
  series: ChartSeries[];
  xTitle: string;
  yTitle: string;
  /** y2Title names the right-hand axis' numbers ('' when there is none). */
  y2Title: string;
  /** points is how many points (or bars) are drawn, rows how many rows there are. */
  points: number;
  rows: number;
  /** note says what was left out or downsampled (NULLs, every k-th row). */
  note: string;
}

const DATE_RE = /^(\d{4})-(\d{2})(?:-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?)?$/;

/** dateMs reads an ISO date or date-time as stored (no zone: its wall time,
 * counted as UTC so that no zone is invented), or NaN. */
export function dateMs(v: Value): number {
  if (typeof v !== 'string') return NaN;
  const m = DATE_RE.exec(v.trim());
  if (!m) return NaN;
  const [, y, mo, d, h, mi, s, frac] = m;
  const month = Number(mo);
  if (month < 1 || month > 12) return NaN;
  return Date.UTC(Number(y), month - 1, d ? Number(d) : 1, h ? Number(h) : 0, mi ? Number(mi) : 0, s ? Number(s) : 0, frac ? Math.round(Number(frac) * 1000) : 0);
}

/** timeMs reads a value on a time axis of the unit: a year (2009 or
 * "2009") as its first day, else as dateMs; NaN when it is none. */
export function timeMs(v: Value, unit?: string): number {
  if (unit === 'year') {
    const y = typeof v === 'number' ? v : typeof v === 'string' && /^\d{4}$/.test(v.trim()) ? Number(v) : NaN;
    return Number.isInteger(y) ? Date.UTC(y, 0, 1) : NaN;
  }
  return dateMs(v);
}

/** withGaps puts a gap (a point of no value) between two points of a
 * year or month axis that are more than one step apart: a missing year is
 * a hole in the line, not a straight segment over it. */
export function withGaps(points: Point[], unit?: string): Point[] {
  const step = unit === 'year' ? 366 * DAY : unit === 'month' ? 31 * DAY : 0;
  if (!step || points.length < 2) return points;
  const out: Point[] = [points[0]];
  for (let i = 1; i < points.length; i++) {
    if (points[i].x - points[i - 1].x > step) out.push({ x: (points[i].x + points[i - 1].x) / 2, y: NaN });
    out.push(points[i]);
  }
  return out;
}

/** isDateColumn: every non-NULL value of column j reads as a date (and one at least). */
export function isDateColumn(rows: Value[][], j: number): boolean {
  let seen = 0;
  const step = Math.max(1, Math.floor(rows.length / 500));
  for (let i = 0; i < rows.length; i += step) {
    const v = rows[i][j];
    if (v === null) continue;
    if (Number.isNaN(dateMs(v))) return false;
    seen++;
  }
  return seen > 0;
}

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** idLike reports a numeric column that identifies rows rather than
 * measures anything (the engine's rule, engine/chart.go): named id,
 * TrackId, customer_id, zip_code, phone…, or named like order_no, rank or
 * InvoiceNumber with every value different. */
export function idLike(name: string, rows: Value[][], j: number): boolean {
  const l = name.toLowerCase();
  if (['id', 'rowid', 'oid', '_rowid_'].includes(l) || /[_\- ]id$/.test(l)) return true;
  if (name.length > 2 && /(Id|ID)$/.test(name) && /[a-z0-9]/.test(name[name.length - 3])) return true;
  const ws = words(name);
  const last = ws.at(-1) ?? '';
  if (['code', 'zip', 'zipcode', 'postcode', 'phone', 'sku', 'isbn', 'ean', 'uuid', 'guid'].includes(last)) return true;
  if (l.endsWith('id') || ['no', 'nr', 'num', 'number', 'rank', 'rownum', 'seq', 'index'].includes(last)) {
    const seen = new Set<Value>();
    for (const r of rows) {
      const v = r[j];
      if (v === null) continue;
      if (typeof v !== 'number' || !Number.isInteger(v) || seen.has(v)) return false;
      seen.add(v);
    }
    return seen.size > 0;
  }
  return false;
}

/** choiceFromVisualization is the engine's chart (the answer's
 * visualization) as column indexes, or null when it suggests no chart or
 * names columns the result lacks. */
export function choiceFromVisualization(columns: Column[], rows: Value[][], viz: Visualization | null | undefined): ChartChoice | null {
  if (!viz || !(CHART_KINDS as string[]).includes(viz.type)) return null;
  const at = (n: string) => columns.findIndex((c) => c.name === n);
  const kind = viz.type as ChartKind;
  const x = at(viz.x);
  if (x < 0) return null;
  if (kind === 'histogram') return { kind, x, ys: [x] };
  const ys = (viz.y ?? []).map(at).filter((j) => j >= 0);
  const y2 = (viz.y2 ?? []).map(at).filter((j) => j >= 0);
  if (ys.length + y2.length === 0) return null;
  const choice: ChartChoice = { kind, x, ys: [...ys, ...y2] };
  if (y2.length) choice.y2 = y2;
  const series = viz.series ? at(viz.series) : -1;
  if (series >= 0) choice.series = series;
  // Months 1–12 without their year are no time axis: categories in order.
  const monthNumbers = viz.time_unit === 'month' && rows.some((r) => typeof r[x] === 'number');
  if (viz.x_axis === 'time' && !monthNumbers) choice.unit = viz.time_unit || 'day';
  return choice;
}

/** noChartSuggested: the engine says "a table" for a single value or a
 * single row, and the page draws none unless asked (a histogram of one
 * bar says nothing). */
export function noChartSuggested(rows: Value[][], suggestion: string, viz?: Visualization | null): boolean {
  return (viz?.type ?? suggestion) === 'table' && rows.length <= 1;
}

/** defaultChoice starts from the engine's visualization when there is
 * one; otherwise from its suggestion: the X axis is the
 * first date column, else the first text column, else an id (bars per
 * id), else the first column; the Y axes the numbers that measure
 * something (never an id), at most 3. A "table" suggestion still gets a
 * bar chart when there is something to draw. */
export function defaultChoice(columns: Column[], rows: Value[][], suggestion: string, viz?: Visualization | null): ChartChoice | null {
  const fromEngine = choiceFromVisualization(columns, rows, viz);
  if (fromEngine) return fromEngine;
  const numeric = numericColumns(rows, columns.length);
  const all = numeric.map((n, i) => (n ? i : -1)).filter((i) => i >= 0);
  if (all.length === 0) return null;
  const ids = all.filter((j) => idLike(columns[j].name, rows, j));
  let nums = all.filter((j) => !ids.includes(j));
  if (nums.length === 0) nums = all; // only ids: draw them rather than nothing
  let kind: ChartKind = (CHART_KINDS as string[]).includes(suggestion) ? (suggestion as ChartKind) : 'bar';
  let x = -1;
  const dates = columns.map((_, j) => !numeric[j] && isDateColumn(rows, j));
  const texts = columns.map((_, j) => !numeric[j] && !dates[j]);
  // A line runs over time; bars and slices compare categories (a date only
  // when there is no text to name them).
  const first = (m: boolean[]) => m.findIndex(Boolean);
  if (kind === 'bar' || kind === 'pie') x = first(texts) >= 0 ? first(texts) : first(dates);
  else x = first(dates) >= 0 ? first(dates) : first(texts);
  if (x < 0 && ids.length && nums !== all) x = ids[0];
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
  if (suggestion === 'table' && kind === 'bar' && rows.length > MAX_BARS && !dates[x]) {
    // Too many rows for bars (the engine said so): the distribution of
    // every value, not every k-th bar.
    kind = 'histogram';
    ys = [ys[0]];
  }
  return { kind, x, ys };
}

function label(v: Value): string {
  if (v === null) return 'NULL';
  if (typeof v === 'number') return formatNumber(v);
  return String(v);
}


/** downsample keeps a series' shape in about max points: the points (sorted
 * by x) fall into max/2 even buckets, and each keeps its lowest and highest
 * point, in order. */
export function downsample(points: Point[], max: number): Point[] {
  if (points.length <= max) return points;
  const buckets = Math.max(1, Math.floor(max / 2));
  const size = points.length / buckets;
  const out: Point[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor(b * size);
    const to = Math.min(points.length, Math.floor((b + 1) * size));
    if (from >= to) continue;
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      if (points[i].y < points[lo].y) lo = i;
      if (points[i].y > points[hi].y) hi = i;
    }
    if (lo === hi) out.push(points[lo]);
    else if (lo < hi) out.push(points[lo], points[hi]);
    else out.push(points[hi], points[lo]);
  }
  return out;
}

/** A group of rows drawn as one series: a y column, and for long data the
 * rows whose series column holds value. */
interface Group {
  label: string;
  j: number;
  axis?: 'y2';
  keep?: (r: Value[]) => boolean;
}

/** groups are the series of a line or bar chart: one per value of the
 * series column (the first y's, at most MAX_SERIES, in the order they
 * come), else one per y. */
function groups(columns: Column[], rows: Value[][], choice: ChartChoice, notes: string[]): Group[] {
  const { ys, series } = choice;
  if (series !== undefined && series >= 0 && ys.length) {
    const seen = new Map<string, Value>();
    for (const r of rows) {
      const k = label(r[series]);
      if (!seen.has(k)) seen.set(k, r[series]);
    }
    const name = columns[series]?.name ?? '';
    const values = [...seen.keys()];
    if (values.length > MAX_SERIES) notes.push(i18n.m.chart.notes.firstSeries(formatCount(MAX_SERIES), name));
    else notes.push(i18n.m.chart.notes.series(formatCount(values.length), name));
    return values.slice(0, MAX_SERIES).map((v) => ({ label: v, j: ys[0], keep: (r: Value[]) => label(r[series]) === v }));
  }
  const y2 = choice.y2 ?? [];
  return ys.map((j) => ({ label: columns[j]?.name ?? '', j, axis: y2.includes(j) ? ('y2' as const) : undefined }));
}

/** chartData builds the series a chart of this kind draws. */
export function chartData(columns: Column[], rows: Value[][], choice: ChartChoice): ChartData {
  const { kind, x, ys } = choice;
  const xName = columns[x]?.name ?? '';
  const notes: string[] = [];
  const n = rows.length;
  if (kind === 'histogram') {
    const j = ys[0] ?? x;
    const bins = histogram(rows.map((r) => r[j]));
    const skipped = rows.filter((r) => typeof r[j] !== 'number').length;
    if (skipped) notes.push(i18n.m.chart.notes.skipped(formatNumber(skipped)));
    return {
      kind,
      xAxis: 'category',
      labels: bins.map((b) => (b.lo === b.hi ? formatStat(b.lo) : `${formatStat(b.lo)} – ${formatStat(b.hi)}`)),
      series: [{ label: `${columns[j]?.name ?? ''} (${i18n.m.chart.count})`, data: bins.map((b) => b.count) }],
      xTitle: columns[j]?.name ?? '',
      yTitle: i18n.m.chart.rows,
      y2Title: '',
      points: bins.length,
      rows: n,
      note: [i18n.m.chart.notes.binned(formatCount(n - skipped)), ...notes].join('; '),
    };
  }
  const yNames = ys.map((j) => columns[j]?.name ?? '');
  if (kind === 'pie') {
    const j = ys[0];
    const pairs = rows
      .map((r) => ({ l: label(r[x]), v: r[j] }))
      .filter((p): p is { l: string; v: number } => typeof p.v === 'number' && p.v > 0);
    const dropped = n - pairs.length;
    if (dropped) notes.push(i18n.m.chart.notes.dropped(formatNumber(dropped)));
    let slices = pairs;
    if (pairs.length > MAX_SLICES) {
      const sorted = [...pairs].sort((a, b) => b.v - a.v);
      const rest = sorted.slice(MAX_SLICES - 1);
      slices = [...sorted.slice(0, MAX_SLICES - 1), { l: i18n.m.chart.other, v: rest.reduce((s, p) => s + p.v, 0) }];
      notes.push(i18n.m.chart.notes.other(formatCount(rest.length)));
    }
    return {
      kind,
      xAxis: 'category',
      labels: slices.map((p) => p.l),
      series: [{ label: yNames[0], data: slices.map((p) => p.v) }],
      xTitle: xName,
      yTitle: yNames[0],
      y2Title: '',
      points: slices.length,
      rows: n,
      note: notes.join('; '),
    };
  }
  const gs = kind === 'scatter' ? ys.map((j, k) => ({ label: yNames[k], j }) as Group) : groups(columns, rows, choice, notes);
  const titles = (axis?: 'y2') => {
    const names = (choice.series !== undefined ? [yNames[0]] : gs.filter((g) => g.axis === axis).map((g) => g.label)).join(', ');
    return axis && names ? i18n.m.chart.rightAxis(names) : names;
  };
  const yTitle = titles();
  const y2Title = gs.some((g) => g.axis === 'y2') ? titles('y2') : '';
  const time = kind === 'line' && (choice.unit !== undefined || isDateColumn(rows, x));
  if (kind === 'scatter' || time) {
    // Points with a numeric (or time) X: every row, downsampled past MAX_POINTS.
    const xOf = (v: Value) => (time ? timeMs(v, choice.unit) : typeof v === 'number' ? v : NaN);
    let drawn = 0;
    let left = 0;
    let gapped = false;
    const series = gs.map((g) => {
      let pts: Point[] = [];
      for (const r of rows) {
        if (g.keep && !g.keep(r)) continue;
        const px = xOf(r[x]);
        const py = r[g.j];
        if (!Number.isNaN(px) && typeof py === 'number') pts.push({ x: px, y: py });
        else left++;
      }
      if (time) pts.sort((a, b) => a.x - b.x);
      if (kind === 'scatter' && pts.length > MAX_POINTS) {
        // A scatter has no order to keep: every k-th point.
        const step = Math.ceil(pts.length / MAX_POINTS);
        pts = pts.filter((_, i) => i % step === 0);
      } else {
        pts = downsample(pts, MAX_POINTS);
      }
      drawn = Math.max(drawn, pts.length);
      const gaps = time ? withGaps(pts, choice.unit) : pts;
      gapped ||= gaps.length > pts.length;
      return { label: g.label, data: gaps, axis: g.axis } as ChartSeries;
    });
    const perRow = choice.series !== undefined ? 1 : Math.max(1, gs.length);
    const usable = n - Math.floor(left / perRow);
    const total = choice.series !== undefined ? series.reduce((a, s) => a + s.data.filter((p) => !Number.isNaN((p as Point).y)).length, 0) : drawn;
    if (total < usable) {
      notes.push(
        kind === 'scatter'
          ? i18n.m.chart.notes.spread(formatCount(drawn), formatCount(usable))
          : i18n.m.chart.notes.buckets(formatCount(usable), formatCount(drawn), formatCount(Math.floor(MAX_POINTS / 2))),
      );
    } else notes.push(i18n.m.chart.notes.every(formatCount(total)));
    if (left) notes.push(i18n.m.chart.notes.empty(formatCount(left)));
    if (gapped) notes.push(i18n.m.chart.notes.gaps);
    return { kind, xAxis: time ? 'time' : 'linear', labels: [], series, xTitle: xName, yTitle, y2Title, points: total, rows: n, note: notes.join('; ') };
  }
  if (choice.series !== undefined && choice.series >= 0) {
    // Long data on categories: one label per X value, one series per
    // category, each value at its label (a missing one is no bar).
    const at = new Map<string, number>();
    for (const r of rows) if (!at.has(label(r[x]))) at.set(label(r[x]), at.size);
    const labels = [...at.keys()];
    const series = gs.map((g) => {
      const data = labels.map(() => NaN);
      for (const r of rows) if (g.keep!(r) && typeof r[g.j] === 'number') data[at.get(label(r[x]))!] = r[g.j] as number;
      return { label: g.label, data };
    });
    return { kind, xAxis: 'category', labels, series, xTitle: xName, yTitle, y2Title: '', points: labels.length, rows: n, note: notes.join('; ') };
  }
  // Categories on X: every row, or every k-th past the bound.
  const max = kind === 'bar' ? MAX_BARS : MAX_POINTS;
  let data = rows;
  if (n > max) {
    const step = Math.ceil(n / max);
    data = rows.filter((_, i) => i % step === 0);
    notes.push(i18n.m.chart.notes.everyKth(step, formatCount(n), formatCount(data.length), kind === 'bar'));
  } else if (kind === 'line') notes.push(i18n.m.chart.notes.every(formatCount(n)));
  return {
    kind,
    xAxis: 'category',
    labels: data.map((r) => label(r[x])),
    series: gs.map((g) => ({ label: g.label, axis: g.axis, data: data.map((r) => (typeof r[g.j] === 'number' ? (r[g.j] as number) : NaN)) })),
    xTitle: xName,
    yTitle,
    y2Title,
    points: data.length,
    rows: n,
    note: notes.join('; '),
  };
}

const DAY = 86400000;

/** timeTick writes a time axis' tick for the span shown: years, months or
 * days, with the time when the span is under a few days. */
export function timeTick(ms: number, spanMs: number): string {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const mo = String(d.getUTCMonth() + 1).padStart(2, '0');
  const day = String(d.getUTCDate()).padStart(2, '0');
  if (spanMs > 3 * 365 * DAY) return String(y);
  if (spanMs > 90 * DAY) return `${y}-${mo}`;
  if (spanMs > 3 * DAY) return `${y}-${mo}-${day}`;
  return `${mo}-${day} ${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
}

export interface TimeTicks {
  /** values are the ticks, at calendar boundaries (UTC wall time). */
  values: number[];
  /** label writes a tick for its unit: a year, a month, a day, an hour. */
  label: (ms: number) => string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;

/** calendarTicks puts at most about a dozen ticks on a time axis from lo to
 * hi, at the first of a year, of a month (every 1, 2, 3 or 6 months), of a
 * day (every 1, 2, 7, 14 or 28 days) or at an hour. */
export function calendarTicks(lo: number, hi: number, most = 12): TimeTicks {
  const span = Math.max(hi - lo, 1);
  const d0 = new Date(lo);
  const out: number[] = [];
  if (span > 3 * 365 * DAY) {
    const years = span / (365.25 * DAY);
    const step = [1, 2, 5, 10, 20, 50, 100].find((k) => years / k <= most) ?? 100;
    for (let y = Math.ceil(d0.getUTCFullYear() / step) * step; Date.UTC(y, 0, 1) <= hi; y += step) {
      const t = Date.UTC(y, 0, 1);
      if (t >= lo) out.push(t);
    }
    return { values: out, label: (ms) => dateTick(ms, 'year') ?? String(new Date(ms).getUTCFullYear()) };
  }
  if (span > 60 * DAY) {
    const months = span / (30.44 * DAY);
    const step = [1, 2, 3, 6, 12].find((k) => months / k <= most) ?? 12;
    let y = d0.getUTCFullYear();
    let m = Math.ceil(d0.getUTCMonth() / step) * step;
    for (let k = 0; k < 2000; k++) {
      while (m >= 12) {
        m -= 12;
        y++;
      }
      const t = Date.UTC(y, m, 1);
      if (t > hi) break;
      if (t >= lo) out.push(t);
      m += step;
    }
    return { values: out, label: (ms) => dateTick(ms, 'month') ?? ymd(new Date(ms)).slice(0, 7) };
  }
  if (span > 2 * DAY) {
    const step = [1, 2, 7, 14, 28].find((k) => span / DAY / k <= most) ?? 28;
    let t = Date.UTC(d0.getUTCFullYear(), d0.getUTCMonth(), d0.getUTCDate());
    if (t < lo) t += DAY;
    for (; t <= hi; t += step * DAY) out.push(t);
    return { values: out, label: (ms) => dateTick(ms, 'day') ?? ymd(new Date(ms)) };
  }
  const h = DAY / 24;
  const step = [1, 2, 3, 6, 12].find((k) => span / h / k <= most) ?? 12;
  for (let t = Math.ceil(lo / (step * h)) * step * h; t <= hi; t += step * h) out.push(t);
  return {
    values: out,
    label: (ms) => {
      const d = new Date(ms);
      return dateTick(ms, 'hour') ?? `${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())} ${pad2(d.getUTCHours())}:00`;
    },
  };
}

export interface WideTable {
  /** head is the X column's name, then one name per series value. */
  head: string[];
  /** rows are one per X value (in time order on a time axis, else as they
   * come), the series' values at it (null where there is none). */
  rows: { x: string; values: (number | null)[] }[];
}

/** pivotWide turns long data (one row per X and series value) into the
 * wide table the chart draws: one row per X value, one column per value of
 * the series column (at most MAX_SERIES). */
export function pivotWide(columns: Column[], rows: Value[][], choice: ChartChoice): WideTable | null {
  const s = choice.series;
  const y = choice.ys[0];
  if (s === undefined || s < 0 || y === undefined) return null;
  const xs = new Map<string, { x: string; t: number; values: (number | null)[] }>();
  const names: string[] = [];
  for (const r of rows) {
    const name = label(r[s]);
    let k = names.indexOf(name);
    if (k < 0) {
      if (names.length === MAX_SERIES) continue;
      k = names.push(name) - 1;
    }
    const key = label(r[choice.x]);
    let row = xs.get(key);
    if (!row) {
      row = { x: key, t: choice.unit ? timeMs(r[choice.x], choice.unit) : NaN, values: [] };
      xs.set(key, row);
    }
    row.values[k] = typeof r[y] === 'number' ? (r[y] as number) : null;
  }
  const out = [...xs.values()];
  if (choice.unit) out.sort((a, b) => a.t - b.t);
  return {
    head: [columns[choice.x]?.name ?? '', ...names],
    rows: out.map((r) => ({ x: r.x, values: names.map((_, k) => r.values[k] ?? null) })),
  };
}

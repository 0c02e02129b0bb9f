// Histogram bins computed in the page: the number of bins by the
// Freedman–Diaconis rule (robust to outliers), bounded to 5–50, falling
// back to Sturges when the spread is zero; "nice" bin edges.
import type { Value } from '../api/types';

export interface Bin {
  lo: number;
  hi: number;
  count: number;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** niceStep rounds a step up to 1, 2, 2.5 or 5 times a power of ten. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !isFinite(raw)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(raw)));
  for (const m of [1, 2, 2.5, 5, 10]) if (raw <= m * p * (1 + 1e-9)) return m * p;
  return 10 * p;
}

/** binCount proposes how many bins n values need. */
export function binCount(sorted: number[]): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const range = sorted[n - 1] - sorted[0];
  if (range === 0) return 1;
  const iqr = quantile(sorted, 0.75) - quantile(sorted, 0.25);
  let k: number;
  if (iqr > 0) {
    const width = (2 * iqr) / Math.cbrt(n);
    k = Math.ceil(range / width);
  } else {
    k = Math.ceil(Math.log2(n) + 1);
  }
  return Math.max(5, Math.min(50, k));
}

/** histogram bins the numbers among values (NULLs and text are skipped).
 * Every bin is [lo, hi) except the last, which holds its upper edge. */
export function histogram(values: Value[], bins?: number): Bin[] {
  const nums = values.filter((v): v is number => typeof v === 'number' && isFinite(v)).sort((a, b) => a - b);
  if (nums.length === 0) return [];
  const min = nums[0];
  const max = nums[nums.length - 1];
  if (min === max) return [{ lo: min, hi: max, count: nums.length }];
  const k = bins ?? binCount(nums);
  const step = niceStep((max - min) / k);
  const start = Math.floor(min / step) * step;
  const n = Math.max(1, Math.ceil((max - start) / step - 1e-9));
  const out: Bin[] = [];
  for (let i = 0; i < n; i++) out.push({ lo: start + i * step, hi: start + (i + 1) * step, count: 0 });
  for (const v of nums) {
    let i = Math.floor((v - start) / step);
    if (i >= n) i = n - 1;
    if (i < 0) i = 0;
    out[i].count++;
  }
  // Drop the empty bins at the ends that rounding may add.
  while (out.length > 1 && out[out.length - 1].count === 0) out.pop();
  while (out.length > 1 && out[0].count === 0) out.shift();
  return out;
}

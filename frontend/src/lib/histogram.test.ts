import { describe, expect, it } from 'vitest';
import { binCount, histogram, niceStep } from './histogram';

describe('histogram', () => {
  it('counts every number once and skips NULLs and text', () => {
    const values = [...Array.from({ length: 100 }, (_, i) => i), null, 'x'];
    const bins = histogram(values);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(100);
    expect(bins[0].lo).toBeLessThanOrEqual(0);
    expect(bins[bins.length - 1].hi).toBeGreaterThanOrEqual(99);
  });

  it('uses nice, equal bin edges', () => {
    const bins = histogram([0, 3, 7, 12, 18, 25, 33, 41, 49, 50], 5);
    const width = bins[0].hi - bins[0].lo;
    expect([1, 2, 2.5, 5, 10]).toContain(width / Math.pow(10, Math.floor(Math.log10(width))));
    for (const b of bins) expect(b.hi - b.lo).toBeCloseTo(width);
    expect(bins.reduce((s, b) => s + b.count, 0)).toBe(10);
  });

  it('puts the largest value in the last bin, not a new one', () => {
    const bins = histogram([0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100], 10);
    expect(bins[bins.length - 1].hi).toBe(100);
    expect(bins[bins.length - 1].count).toBe(2);
  });

  it('makes one bin of equal values and none of nothing', () => {
    expect(histogram([7, 7, 7])).toEqual([{ lo: 7, hi: 7, count: 3 }]);
    expect(histogram([null, 'a'])).toEqual([]);
  });

  it('proposes 5 to 50 bins', () => {
    expect(binCount([1, 2])).toBe(5);
    const many = Array.from({ length: 10000 }, (_, i) => i * i);
    expect(binCount(many)).toBeLessThanOrEqual(50);
    expect(binCount(many)).toBeGreaterThanOrEqual(5);
  });

  it('rounds steps up to 1, 2, 2.5 or 5 × 10^n', () => {
    expect(niceStep(0.7)).toBe(1);
    expect(niceStep(1.3)).toBe(2);
    expect(niceStep(2.2)).toBe(2.5);
    expect(niceStep(3)).toBe(5);
    expect(niceStep(730)).toBe(1000);
    expect(niceStep(0)).toBe(1);
  });
});

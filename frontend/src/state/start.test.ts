import { describe, expect, it } from 'vitest';
import { nullShare, percent } from './start.svelte';

describe('the start view helpers', () => {
  it('counts the nulls against the rows profiled', () => {
    expect(nullShare({ nulls: 25 }, { rows: 100, profiled_rows: 100, sampled: false })).toBe(0.25);
    // A sampled table: the nulls are counted in the sample.
    expect(nullShare({ nulls: 50 }, { rows: 1_000_000, profiled_rows: 100, sampled: true })).toBe(0.5);
    expect(nullShare({ nulls: 0 }, { rows: 100, profiled_rows: 100, sampled: false })).toBe(0);
    expect(nullShare({ nulls: 3 }, { rows: 0, profiled_rows: 0, sampled: false })).toBe(0);
    expect(nullShare({ nulls: 3 }, { rows: -1, profiled_rows: 0, sampled: false })).toBe(0);
  });
  it('writes a share in the locale, never 0 % for some', () => {
    expect(percent(0.25, 'en-US')).toBe('25%');
    expect(percent(0.0001, 'en-US')).toBe('< 0.1%');
    expect(percent(0.125, 'fr-FR').replace(/\s/g, ' ')).toBe('12,5 %');
  });
});

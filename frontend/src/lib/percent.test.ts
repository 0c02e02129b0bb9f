// An imported percentage (8% is stored as 0.08) shows as a percentage in the
// grid, by the rule the exported workbook's number formats follow.
import { afterEach, describe, expect, it } from 'vitest';
import { percentColumn, viewText } from './format';
import { setLanguage } from '../i18n/index.svelte';

afterEach(() => setLanguage('en'));

describe('percentages', () => {
  const rows = [[0.08], [0.125], [null], [1]];

  it('reads a share column by its name and its values', () => {
    expect(percentColumn('Primary %', rows, 0)).toBe(true);
    expect(percentColumn('share_of_sales', rows, 0)).toBe(true);
    expect(percentColumn('PctPrimary', rows, 0)).toBe(true);
    expect(percentColumn('Primary', rows, 0)).toBe(false); // no word says share
    expect(percentColumn('pct_of_sales', [[12.5], [8]], 0)).toBe(false); // already in points
    expect(percentColumn('Primary %', [[null]], 0)).toBe(false);
    expect(percentColumn('rate', [['high']], 0)).toBe(false);
  });

  it('shows 0.08 as 8.0%', () => {
    const cv = { decimals: 3, blob: false, percent: true };
    expect(viewText(0.08, cv)).toBe('8.0%');
    expect(viewText(0.125, cv)).toBe('12.5%');
    expect(viewText(null, cv)).toBe('');
    setLanguage('fr');
    expect(viewText(0.08, cv).replace(/\s/g, ' ')).toBe('8,0 %');
  });
});

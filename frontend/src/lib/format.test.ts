import { describe, expect, it } from 'vitest';
import {
  cellText,
  formatBytes,
  formatCount,
  formatDateTime,
  formatDuration,
  formatNumber,
  formatStat,
  formatValue,
  isNull,
  plural,
  rawText,
} from './format';

describe('numbers', () => {
  it('writes counts with separators', () => {
    expect(formatCount(3503)).toBe('3,503');
    expect(formatCount(0)).toBe('0');
    expect(plural(1, 'row')).toBe('1 row');
    expect(plural(3503, 'row')).toBe('3,503 rows');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
  });

  it('writes numbers for reading', () => {
    expect(formatNumber(1234567)).toBe('1,234,567');
    expect(formatNumber(3.14159265)).toBe('3.1416');
    expect(formatNumber(1234.5678)).toBe('1,234.57');
    expect(formatNumber(0.000012)).toBe('1.200e-5');
    expect(formatNumber(Infinity)).toBe('∞');
    expect(formatNumber(-Infinity)).toBe('−∞');
  });

  it('writes statistics compactly', () => {
    expect(formatStat(null)).toBe('—');
    expect(formatStat(8.9)).toBe('8.9');
    expect(formatStat(5.527135)).toBe('5.527');
    expect(formatStat(12345.678)).toBe('12,345.68');
    expect(formatStat(21)).toBe('21');
  });

  it('keeps cells exact', () => {
    expect(cellText(1234567)).toBe('1,234,567');
    expect(cellText(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(cellText(2 ** 60)).toBe(String(2 ** 60));
    expect(rawText(1234567)).toBe('1234567');
  });
});

describe('NULL', () => {
  it('is only null, never the text NULL', () => {
    expect(isNull(null)).toBe(true);
    expect(isNull(undefined)).toBe(true);
    expect(isNull('NULL')).toBe(false);
    expect(isNull(0)).toBe(false);
    expect(isNull('')).toBe(false);
    expect(cellText(null)).toBe('');
    expect(cellText('NULL')).toBe('NULL');
    expect(rawText(null)).toBe('');
    expect(formatValue(null)).toBe('NULL');
  });
});

describe('dates', () => {
  it('keeps stored dates as they are', () => {
    expect(cellText('2009-01-01 00:00:00')).toBe('2009-01-01 00:00:00');
    expect(formatValue('2013-12-22')).toBe('2013-12-22');
  });

  it('writes times from Go as local date and time', () => {
    const now = new Date(2026, 11, 1, 15, 0);
    expect(formatDateTime(new Date(2026, 11, 1, 4, 7).toISOString(), now)).toBe('Today 04:07');
    expect(formatDateTime(new Date(2026, 0, 9, 23, 5).toISOString(), now)).toBe('2026-01-09 23:05');
    expect(formatDateTime('not a date', now)).toBe('not a date');
  });
});

describe('sizes and durations', () => {
  it('writes bytes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1500)).toBe('1.5 KB');
    expect(formatBytes(4_700_000_000)).toBe('4.7 GB');
    expect(formatBytes(239_760)).toBe('240 KB');
    expect(formatBytes(-1)).toBe('—');
  });

  it('writes durations', () => {
    expect(formatDuration(0.0002)).toBe('< 1 ms');
    expect(formatDuration(0.033)).toBe('33 ms');
    expect(formatDuration(1.26)).toBe('1.3 s');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min 5 s');
  });
});

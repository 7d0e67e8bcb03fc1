import { describe, expect, it } from 'vitest';
import { normalizeTimestamp } from './timestamps';

describe('normalizeTimestamp', () => {
  it('keeps the upstream form and completes plain dates', () => {
    expect(normalizeTimestamp('2024-04-20T04:00:00Z')).toBe('2024-04-20T04:00:00Z');
    expect(normalizeTimestamp('2024-04-20')).toBe('2024-04-20T00:00:00Z');
  });

  it('converts offsets to UTC, across day and year boundaries', () => {
    expect(normalizeTimestamp('2024-01-01T01:30:00+02:00')).toBe('2023-12-31T23:30:00Z');
    expect(normalizeTimestamp('2024-02-28T23:00:00-0130')).toBe('2024-02-29T00:30:00Z');
  });

  it('drops fractions and reads a zoneless time as UTC', () => {
    expect(normalizeTimestamp('2024-04-20T04:00:00.987Z')).toBe('2024-04-20T04:00:00Z');
    expect(normalizeTimestamp('2024-04-20T04:00')).toBe('2024-04-20T04:00:00Z');
  });

  it('keeps years before 100 where they are', () => {
    expect(normalizeTimestamp('0099-06-01')).toBe('0099-06-01T00:00:00Z');
  });

  it('refuses other forms and impossible moments', () => {
    const bad = ['04/20/2024', '2024-4-20', '2023-02-29', '2024-13-01', '2024-04-20T24:00:00Z', '0000-01-01', ''];
    for (const text of [...bad, '2024-04-20T04:00:00+25:00']) {
      expect(normalizeTimestamp(text), text).toBeUndefined();
    }
  });
});

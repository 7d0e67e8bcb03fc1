import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deployments } from '../deployments/registry';
import type { DateFormat } from '../deployments/schema';
import { compareDays, dayOfTimestamp, formatDay, parseDateParam, startOfDay, startOfNextDay, type Day } from './dates';

const formats: readonly DateFormat[] = ['MM/DD/YYYY', 'MM-DD-YYYY'];
const other = (format: DateFormat): DateFormat => (format === 'MM/DD/YYYY' ? 'MM-DD-YYYY' : 'MM/DD/YYYY');
const sep = (format: DateFormat) => (format === 'MM/DD/YYYY' ? '/' : '-');

/** Any real calendar day from year 1 to 9999, drawn through a Date so it is always valid. */
const anyDay = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date): Day => ({ year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() }));

describe.each(formats)('parseDateParam in %s', (format) => {
  const s = sep(format);
  const o = sep(other(format));

  it('reads the deployment’s own format', () => {
    expect(parseDateParam(`04${s}20${s}2024`, format)).toEqual({ year: 2024, month: 4, day: 20 });
    expect(parseDateParam(`12${s}31${s}1999`, format)).toEqual({ year: 1999, month: 12, day: 31 });
  });

  it('reads ISO YYYY-MM-DD as well', () => {
    expect(parseDateParam('2024-04-20', format)).toEqual({ year: 2024, month: 4, day: 20 });
  });

  it('accepts the leap day of a leap year and 400-year leap years', () => {
    expect(parseDateParam(`02${s}29${s}2024`, format)).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseDateParam(`02${s}29${s}2000`, format)).toEqual({ year: 2000, month: 2, day: 29 });
    expect(parseDateParam('2024-02-29', format)).toEqual({ year: 2024, month: 2, day: 29 });
  });

  it.each([
    ['February 30th', `02${s}30${s}2024`],
    ['month 13', `13${s}01${s}2020`],
    ['month 0', `00${s}10${s}2020`],
    ['day 0', `01${s}00${s}2020`],
    ['April 31st', `04${s}31${s}2024`],
    ['Feb 29 in a common year', `02${s}29${s}2023`],
    ['Feb 29 in a century year', `02${s}29${s}1900`],
    ['an impossible ISO day', '2023-02-29'],
    ['ISO month 13', '2020-13-01'],
    ['year 0', `01${s}01${s}0000`],
  ])('rejects %s', (_what, value) => {
    expect(parseDateParam(value, format)).toBeUndefined();
  });

  it.each([
    ['the other deployment’s separator', `04${o}20${o}2024`],
    ['dots', '04.20.2024'],
    ['a two-digit year', `04${s}20${s}24`],
    ['year first with slashes', '2024/04/20'],
    ['a single-digit ISO month', '2024-4-20'],
    ['a timestamp', '2024-04-20T00:00:00Z'],
    ['surrounding text', ` 04${s}20${s}2024`],
    ['a word', 'yesterday'],
    ['nothing', ''],
    ['mixed separators', `04${s}20${o}2024`],
  ])('rejects %s', (_what, value) => {
    expect(parseDateParam(value, format)).toBeUndefined();
  });

  it('never throws and only returns real days (property)', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        const day = parseDateParam(value, format);
        if (day) expect(formatDay(day, 'YYYY-MM-DD')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (day) expect(parseDateParam(formatDay(day, 'YYYY-MM-DD'), format)).toEqual(day);
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips every real day through formatDay in this format and in ISO (property)', () => {
    fc.assert(
      fc.property(anyDay, (day) => {
        expect(parseDateParam(formatDay(day, format), format)).toEqual(day);
        expect(parseDateParam(formatDay(day, 'YYYY-MM-DD'), format)).toEqual(day);
        // The other deployment family's separator is not accepted.
        expect(parseDateParam(formatDay(day, other(format)), format)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe('deployment date formats', () => {
  it('reads a date written in each deployment’s own format', () => {
    for (const deployment of deployments) {
      const s = sep(deployment.dateFormat);
      expect(parseDateParam(`07${s}04${s}2021`, deployment.dateFormat), deployment.key).toEqual({ year: 2021, month: 7, day: 4 });
    }
  });
});

describe('formatDay', () => {
  it('zero-pads months, days and years', () => {
    const day = { year: 987, month: 3, day: 5 };
    expect(formatDay(day, 'MM/DD/YYYY')).toBe('03/05/0987');
    expect(formatDay(day, 'MM-DD-YYYY')).toBe('03-05-0987');
    expect(formatDay(day, 'YYYY-MM-DD')).toBe('0987-03-05');
  });
});

describe('dayOfTimestamp', () => {
  it('takes the UTC day of the records’ ISO timestamps', () => {
    expect(dayOfTimestamp('2024-04-20T04:00:00Z')).toEqual({ year: 2024, month: 4, day: 20 });
    expect(dayOfTimestamp('2016-11-01')).toEqual({ year: 2016, month: 11, day: 1 });
  });

  it('gives nothing for empty, missing or impossible timestamps', () => {
    expect(dayOfTimestamp('')).toBeUndefined();
    expect(dayOfTimestamp(null)).toBeUndefined();
    expect(dayOfTimestamp(undefined)).toBeUndefined();
    expect(dayOfTimestamp('2023-02-29T00:00:00Z')).toBeUndefined();
    expect(dayOfTimestamp('April 2024')).toBeUndefined();
  });
});

describe('day bounds', () => {
  it('starts a day at midnight UTC', () => {
    expect(startOfDay({ year: 2024, month: 4, day: 20 })).toBe('2024-04-20T00:00:00Z');
  });

  it.each([
    [{ year: 2024, month: 4, day: 20 }, '2024-04-21T00:00:00Z'],
    [{ year: 2024, month: 1, day: 31 }, '2024-02-01T00:00:00Z'],
    [{ year: 2024, month: 2, day: 28 }, '2024-02-29T00:00:00Z'],
    [{ year: 2024, month: 2, day: 29 }, '2024-03-01T00:00:00Z'],
    [{ year: 2023, month: 2, day: 28 }, '2023-03-01T00:00:00Z'],
    [{ year: 2024, month: 4, day: 30 }, '2024-05-01T00:00:00Z'],
    [{ year: 2023, month: 12, day: 31 }, '2024-01-01T00:00:00Z'],
    [{ year: 1999, month: 12, day: 31 }, '2000-01-01T00:00:00Z'],
    // Years below 100 must not be read as 19xx (a classic Date.UTC pitfall).
    [{ year: 99, month: 12, day: 31 }, '0100-01-01T00:00:00Z'],
    [{ year: 50, month: 6, day: 1 }, '0050-06-02T00:00:00Z'],
  ])('the day after %o starts at %s', (day, next) => {
    expect(startOfNextDay(day)).toBe(next);
  });

  it('puts the next day strictly after the day and at most one day later (property)', () => {
    fc.assert(
      fc.property(
        anyDay.filter((day) => day.year < 9999 || day.month < 12 || day.day < 31),
        (day) => {
          const next = dayOfTimestamp(startOfNextDay(day))!;
          expect(next).toBeDefined();
          expect(compareDays(day, next)).toBeLessThan(0);
          const millis = Date.parse(startOfNextDay(day)) - Date.parse(startOfDay(day));
          expect(millis).toBe(24 * 60 * 60 * 1000);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('compareDays', () => {
  it('orders days chronologically, agreeing with their ISO strings (property)', () => {
    fc.assert(
      fc.property(anyDay, anyDay, (a, b) => {
        const [x, y] = [formatDay(a, 'YYYY-MM-DD'), formatDay(b, 'YYYY-MM-DD')];
        const byString = x < y ? -1 : x > y ? 1 : 0;
        expect(Math.sign(compareDays(a, b))).toBe(byString);
      }),
      { numRuns: 200 },
    );
  });
});

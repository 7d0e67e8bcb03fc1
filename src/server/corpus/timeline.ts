import type { Random } from './random';

/**
 * Publication and entry dates. The corpus has a fixed "now" so output never depends on
 * the day it is generated; publication years lean recent, as the upstream's do.
 */

const day = 86_400_000;
export const firstYear = 1950;
/** The corpus's "now": nothing is published or entered after it. */
export const horizon = Date.UTC(2026, 2, 31, 23, 59, 59);
const lastYear = new Date(horizon).getUTCFullYear();
const digitisationStart = Date.UTC(1995, 0, 1);
const digitisationEnd = Date.UTC(2016, 11, 31);

/** A publication year from `earliest` to the horizon's year, more recent years likelier. */
export function publicationYear(random: Random, earliest = firstYear): number {
  const span = lastYear - earliest + 1;
  const u = random.float();
  return lastYear - Math.floor(span * u * u);
}

/**
 * A publication instant in `year`: midnight UTC, or the upstream's midnight US Eastern
 * (04:00 or 05:00 UTC), never after the horizon.
 */
export function publicationInstant(year: number, random: Random): number {
  const start = Date.UTC(year, 0, 1);
  const end = Math.min(Date.UTC(year + 1, 0, 1), horizon);
  const days = Math.max(1, Math.floor((end - start) / day));
  const hour = random.chance(0.6) ? 0 : random.chance(0.6) ? 4 : 5;
  return Math.min(start + random.int(0, days - 1) * day + hour * 3_600_000, horizon);
}

/**
 * When the record was added or last changed: for old work, when the catalogue was
 * digitised; otherwise some months after publication. Never before publication.
 */
export function entryInstant(published: number, random: Random): number {
  let entered: number;
  if (published < digitisationStart) {
    entered = digitisationStart + random.float() * (digitisationEnd - digitisationStart);
    if (random.chance(0.1)) entered += random.float() * (horizon - entered);
  } else {
    const lagDays = -Math.log(1 - random.float()) * 200;
    entered = published + lagDays * day + random.int(0, day / 1000 - 1) * 1000;
  }
  return Math.floor(Math.min(Math.max(entered, published), horizon) / 1000) * 1000;
}

/** An instant between two others (ENR's announcement date). */
export function instantBetween(from: number, to: number, random: Random): number {
  return Math.floor((from + random.float() * Math.max(0, to - from)) / day) * day;
}

/** ISO 8601 UTC date-time without milliseconds: `2024-04-20T04:00:00Z`. */
export function isoInstant(instant: number): string {
  const date = new Date(instant);
  return `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}Z`;
}

const two = (value: number) => (value < 10 ? `0${value}` : String(value));

export function yearOf(instant: number): number {
  return new Date(instant).getUTCFullYear();
}

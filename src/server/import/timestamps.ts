/**
 * Normalises the ISO 8601 dates and date-times the upstream sends to the one form the
 * store sorts and filters on: `YYYY-MM-DDTHH:MM:SSZ` in UTC. Plain string comparison on
 * that form is chronological, which the date filters rely on.
 */

const isoPattern = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function offsetMinutes(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
}

/**
 * The UTC timestamp of an ISO date (`2024-04-20`) or date-time (`2024-04-20T04:00:00Z`,
 * offsets and fractions allowed); undefined when the text is not one or names an
 * impossible moment (month 13, February 30, hour 25).
 */
export function normalizeTimestamp(text: string): string | undefined {
  const match = isoPattern.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? '0')) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const zone = match[7];
  const offset = offsetMinutes(zone);
  if (Math.abs(offset) > 18 * 60) return undefined;

  // setUTCFullYear, unlike Date.UTC, does not map years 0–99 to the 1900s.
  const moment = new Date(0);
  moment.setUTCFullYear(year, month - 1, day);
  if (moment.getUTCMonth() !== month - 1) return undefined;
  // A time without a zone is read as UTC: the upstream writes UTC throughout.
  moment.setUTCHours(hour, minute - offset, second, 0);

  const utcYear = moment.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return undefined;
  return (
    `${pad(utcYear, 4)}-${pad(moment.getUTCMonth() + 1)}-${pad(moment.getUTCDate())}` +
    `T${pad(moment.getUTCHours())}:${pad(moment.getUTCMinutes())}:${pad(moment.getUTCSeconds())}Z`
  );
}

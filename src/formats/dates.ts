import type { DateFormat } from '../deployments/schema';

/** A calendar day, month 1–12. */
export interface Day {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function isRealDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= last;
}

/**
 * Parses a date parameter: the deployment's own format or ISO `YYYY-MM-DD`.
 * Returns undefined for anything else, impossible days (02/30/2024) included.
 */
export function parseDateParam(value: string, format: DateFormat): Day | undefined {
  const separator = format === 'MM/DD/YYYY' ? '/' : '-';
  const own = new RegExp(`^(\\d{1,2})\\${separator}(\\d{1,2})\\${separator}(\\d{4})$`).exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [year, month, day] = own
    ? [Number(own[3]), Number(own[1]), Number(own[2])]
    : iso
      ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
      : [NaN, NaN, NaN];
  return isRealDay(year, month, day) ? { year, month, day } : undefined;
}

export function formatDay(day: Day, format: DateFormat | 'YYYY-MM-DD'): string {
  if (format === 'YYYY-MM-DD') return `${pad(day.year, 4)}-${pad(day.month)}-${pad(day.day)}`;
  const separator = format === 'MM/DD/YYYY' ? '/' : '-';
  return [pad(day.month), pad(day.day), pad(day.year, 4)].join(separator);
}

/** The UTC day of an ISO 8601 date-time such as `2024-04-20T04:00:00Z`. */
export function dayOfTimestamp(timestamp: string | null | undefined): Day | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(timestamp ?? '');
  if (!match) return undefined;
  const day = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return isRealDay(day.year, day.month, day.day) ? day : undefined;
}

/** The first instant of a day as the ISO timestamp the records use. */
export function startOfDay(day: Day): string {
  return `${formatDay(day, 'YYYY-MM-DD')}T00:00:00Z`;
}

/** The first instant after a day, for exclusive upper bounds on timestamps. */
export function startOfNextDay(day: Day): string {
  // Not Date.UTC: it reads years 0–99 as 1900–1999, which would move early bounds by centuries.
  const next = new Date(0);
  next.setUTCFullYear(day.year, day.month - 1, day.day + 1);
  return startOfDay({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() });
}

export function compareDays(a: Day, b: Day): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

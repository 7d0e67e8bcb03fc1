import { sortFields } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';

/**
 * The value rules of the non-text parameters, shared by the server's validation and the
 * browser's form checks so both accept exactly the same values. Each returns the parsed
 * value, or undefined when the value is not acceptable; callers word their own messages.
 */

export type SortOrder = 'asc' | 'desc';

export function parseOrderValue(value: string): SortOrder | undefined {
  const order = value.trim().toLowerCase();
  return order === 'asc' || order === 'desc' ? order : undefined;
}

/** `publication_date`, or the upstream's combined `publication_date desc`. */
export function parseSortValue(deployment: Deployment, value: string): { field: string; order?: SortOrder } | undefined {
  const [field, direction, ...extra] = value.trim().split(/\s+/);
  if (!field || extra.length > 0 || !sortFields(deployment).includes(field)) return undefined;
  if (direction === undefined) return { field };
  const order = parseOrderValue(direction);
  return order ? { field, order } : undefined;
}

/** A whole number from 1 to max, written in plain digits. */
export function parseWholeNumberValue(value: string, max: number): number | undefined {
  const trimmed = value.trim();
  const number = /^\d{1,12}$/.test(trimmed) ? Number(trimmed) : NaN;
  return number >= 1 && number <= max ? number : undefined;
}

export function parseBooleanValue(value: string): boolean | undefined {
  const lowered = value.trim().toLowerCase();
  return lowered === 'true' ? true : lowered === 'false' ? false : undefined;
}

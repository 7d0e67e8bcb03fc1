import type { FieldDef } from '../deployments/schema';
import { valuesOf } from './text';

/**
 * What the upstream writes where it knows no value. The records keep them (the API serves
 * a record as the upstream gave it), but no citation, export or page shows one as a value:
 * `number = {None}` would be cited. docs/decisions.md lists what the shipped files hold.
 */
const placeholder = /^\s*(none|null|nil|n\/?a|not available|not applicable|unknown)?\s*$/i;

/** The text as it is, or undefined when it is blank or a placeholder. */
export function knownText(text: string): string | undefined {
  return placeholder.test(text) ? undefined : text;
}

/** A field's values (lists and scalars alike) without blanks and placeholders. */
export function knownValues(value: unknown): string[] {
  return valuesOf(value).flatMap((item) => knownText(item) ?? []);
}

/** A field's first known value. */
export function firstKnown(value: unknown): string | undefined {
  return knownValues(value)[0];
}

/** Whether a record field holds anything worth showing or citing (a size of 0 is "not known" where the field says so). */
export function hasKnownValue(field: Pick<FieldDef, 'kind' | 'zeroUnknown'>, value: unknown): boolean {
  if (field.kind === 'number') return typeof value === 'number' && Number.isFinite(value) && !(field.zeroUnknown && value === 0);
  if (field.kind === 'links') return Array.isArray(value) && value.length > 0;
  return knownValues(value).length > 0;
}

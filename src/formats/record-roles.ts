import type { ApiRecord } from '../deployments/registry';
import type { Deployment, FieldRole } from '../deployments/schema';
import { searchModel } from '../deployments/search-model';
import { knownValues } from './known-values';

/**
 * A record's fields by what they mean (FieldDef `role`, compiled into the search model):
 * the result line, BibTeX, CSL and import ask for "the title" or "the journal" here, so
 * the deployment table alone decides which field that is.
 */

/** The fields of a role, in table order; none where the deployment lacks it. */
export const roleFields = (deployment: Deployment, role: FieldRole): readonly string[] => searchModel(deployment).roles.fields[role] ?? [];

/**
 * Which field of the first role the record fills, with its value: the result line's venue is
 * "the journal, else the media type".
 */
export function filledRole(
  deployment: Deployment,
  record: ApiRecord,
  ...roles: readonly FieldRole[]
): { readonly field: string; readonly value: unknown } | undefined {
  for (const role of roles) {
    for (const field of roleFields(deployment, role)) {
      if (knownValues(record[field]).length > 0) return { field, value: record[field] };
    }
  }
  return undefined;
}

/** A role's value in a record: its first field the record fills, else the first field's value as it is. */
export function roleValue(deployment: Deployment, record: ApiRecord, role: FieldRole): unknown {
  const first = roleFields(deployment, role)[0];
  return filledRole(deployment, record, role)?.value ?? (first === undefined ? undefined : record[first]);
}

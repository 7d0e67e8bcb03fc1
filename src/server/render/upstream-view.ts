import type { ApiRecord } from '../../deployments/registry';
import type { Deployment, FieldDef } from '../../deployments/schema';

/** The records in the shape of `--compat upstream` (http/upstream-compat.ts): the upstream's field names beside the spec's. */

const upstreamViews = new Map<string, Deployment>();

/** The deployment's fields with each renamed field followed by its upstream name. */
export function upstreamView(deployment: Deployment): Deployment {
  let view = upstreamViews.get(deployment.key);
  if (!view) {
    const fields = deployment.fields.flatMap((field): FieldDef[] => [
      field,
      // An upstream name the field's XML element already has (DC1 contributing_org) is not repeated there.
      ...(field.upstream ?? [])
        .filter((name) => name !== field.xml)
        .map((name) => ({ ...field, name, xml: undefined, keys: undefined, search: undefined, sortable: undefined })),
    ]);
    view = { ...deployment, fields };
    upstreamViews.set(deployment.key, view);
  }
  return view;
}

/** A record with the upstream's names added beside the spec's (`osti_id` after `repo_id`). */
export function withUpstreamNames(deployment: Deployment, record: ApiRecord): ApiRecord {
  const result: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    result[name] = value;
    const field = deployment.fields.find((candidate) => candidate.name === name);
    for (const alias of field?.upstream ?? []) result[alias] = value;
  }
  return result as ApiRecord;
}

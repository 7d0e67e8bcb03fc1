import { extensionParams } from '../../deployments/facets';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment, FieldDef } from '../../deployments/schema';
import type { QueryPair } from './query-string';

/**
 * `records serve --compat upstream`: for mirrors whose users run scripts written for the
 * upstream API. Such scripts send the upstream's parameter names and parameters the spec
 * never had, and read the upstream's field names. The profile accepts them where the spec
 * leaves room: renamed parameters are read under their spec name, unknown ones are ignored
 * and named in a `Warning` header, and records carry the upstream names beside the spec's.
 * Off by default: the spec's server answers unknown parameters with 400.
 */

export interface CompatRequest {
  readonly pairs: QueryPair[];
  /** `Warning` header naming what was ignored, when anything was. */
  readonly warning?: string;
}

const shownNames = 20;

export function upstreamRequest(deployment: Deployment, pairs: readonly QueryPair[]): CompatRequest {
  const specName = new Map<string, string>();
  for (const param of deployment.params) {
    specName.set(param.name, param.name);
    for (const alias of param.upstream ?? []) specName.set(alias, param.name);
  }
  for (const name of extensionParams(deployment)) specName.set(name, name);

  const kept: QueryPair[] = [];
  const ignored: string[] = [];
  for (const [name, value] of pairs) {
    const known = specName.get(name);
    if (known) kept.push([known, value]);
    else ignored.push(name);
  }
  if (ignored.length === 0) return { pairs: kept };
  // Names come from the client: percent-encoded, so the header stays one line of ASCII.
  const listed = ignored.slice(0, shownNames).map((name) => encodeURIComponent(name.slice(0, 100)));
  const more = ignored.length > shownNames ? ` and ${ignored.length - shownNames} more` : '';
  return { pairs: kept, warning: `299 - "Unknown parameters ignored: ${listed.join(', ')}${more}"` };
}

const upstreamViews = new Map<string, Deployment>();

/** The deployment's fields with each renamed field followed by its upstream name. */
export function upstreamView(deployment: Deployment): Deployment {
  let view = upstreamViews.get(deployment.key);
  if (!view) {
    const fields = deployment.fields.flatMap((field): FieldDef[] => [
      field,
      ...(field.upstream ?? []).map((name) => ({ ...field, name, xml: undefined, keys: undefined, search: undefined, sortable: undefined })),
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

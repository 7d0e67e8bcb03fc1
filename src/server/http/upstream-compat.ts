import { extensionParams } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
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
  /** `Warning` header naming what was ignored or changed, when anything was. */
  readonly warning?: string;
}

/**
 * The upstream answers a page size above its maximum with the maximum; scripts ask for
 * "everything" by sending the total as `rows`. Other values (not a number, 0) stay the
 * spec's 400.
 */
function clampRows(deployment: Deployment, pairs: QueryPair[]): string | undefined {
  const rows = deployment.params.find((param) => param.kind === 'integer' && param.paging === 'rows');
  if (rows?.kind !== 'integer') return undefined;
  const index = pairs.findIndex(([name]) => name === rows.name);
  const value = index < 0 ? undefined : pairs[index]![1].trim();
  if (value === undefined || !/^\d{1,30}$/.test(value) || Number(value) <= rows.max) return undefined;
  pairs[index] = [rows.name, String(rows.max)];
  return `299 - "${rows.name}=${value.slice(0, 20)} is above the maximum; ${rows.max} returned"`;
}

const shownNames = 20;

export function upstreamRequest(deployment: Deployment, pairs: readonly QueryPair[]): CompatRequest {
  const specName = new Map<string, string>();
  for (const param of deployment.params) {
    specName.set(param.name, param.name);
    for (const alias of param.upstream ?? []) specName.set(alias, param.name);
  }
  for (const name of extensionParams(deployment)) specName.set(name, name);
  for (const param of deployment.extensions) specName.set(param.name, param.name);

  const kept: QueryPair[] = [];
  const ignored: string[] = [];
  for (const [name, value] of pairs) {
    const known = specName.get(name);
    if (known) kept.push([known, value]);
    else ignored.push(name);
  }
  const warnings = [clampRows(deployment, kept)];
  if (ignored.length > 0) {
    // Names come from the client: percent-encoded, so the header stays one line of ASCII.
    const listed = ignored.slice(0, shownNames).map((name) => encodeURIComponent(name.slice(0, 100)));
    const more = ignored.length > shownNames ? ` and ${ignored.length - shownNames} more` : '';
    warnings.push(`299 - "Unknown parameters ignored: ${listed.join(', ')}${more}"`);
  }
  const warning = warnings.filter(Boolean).join(', ');
  return warning ? { pairs: kept, warning } : { pairs: kept };
}

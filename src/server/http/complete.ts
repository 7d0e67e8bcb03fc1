import { typeAheadFacets } from '../../deployments/facets';
import type { Deployment } from '../../deployments/schema';
import type { CompleteResponse } from '../../formats/complete-response';
import { facetValueParams } from '../../formats/facet-params';
import type { CompleteRequest, CompletedValue } from '../complete/complete-request';
import { maxCompletions, maxPrefixLength } from '../complete/completer';
import { BadRequest } from './criteria';
import { parseQueryString } from './query-string';

/**
 * `{base}/complete?prefix=…[&field=NAME…][&limit=N]` (type-ahead, docs/extensions.md): which
 * fields complete is the deployment table's (FacetDef `typeAhead`); without `field`, all of them,
 * as the search box offers them.
 */

const defaultLimit = 10;

export function parseCompleteRequest(deployment: Deployment, search: string): CompleteRequest {
  const completing = typeAheadFacets(deployment).map((facet) => facet.name);
  const fields: string[] = [];
  let prefix: string | undefined;
  let limit = defaultLimit;
  for (const [name, value] of parseQueryString(search)) {
    if (name === 'prefix') {
      if (prefix !== undefined) throw new BadRequest('complete takes one prefix.', 'prefix');
      if (value.length > maxPrefixLength) throw new BadRequest(`prefix is too long: at most ${maxPrefixLength} characters.`, 'prefix');
      prefix = value;
    } else if (name === 'field') {
      if (!completing.includes(value))
        throw new BadRequest(`field must be one of the fields that complete here: ${completing.join(', ')}.`, 'field');
      if (!fields.includes(value)) fields.push(value);
    } else if (name === 'limit') {
      if (!/^\d{1,3}$/.test(value) || Number(value) < 1 || Number(value) > maxCompletions)
        throw new BadRequest(`limit must be a whole number from 1 to ${maxCompletions}.`, 'limit');
      limit = Number(value);
    } else throw new BadRequest(`complete takes prefix, field and limit; got '${name.slice(0, 40)}'.`, name);
  }
  if (prefix === undefined) throw new BadRequest('complete needs a prefix: what was typed.', 'prefix');
  return { fields: fields.length > 0 ? fields : completing, prefix, limit };
}

/** The answer's body: each value with the parameters that select it, as ticking it in the facet does. */
export function completeBody(deployment: Deployment, prefix: string, values: readonly CompletedValue[]): CompleteResponse {
  return {
    prefix,
    values: values.flatMap(({ field, value, count, variants }) => {
      const facet = deployment.facets.find((candidate) => candidate.name === field);
      const params = facet && facetValueParams(deployment, facet, value);
      return params ? [{ field, value, count, ...(variants ? { variants: [...variants] } : {}), params }] : [];
    }),
  };
}

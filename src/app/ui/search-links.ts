import { queryString } from '../../client/urls';
import { identifierParam, searchParamForField } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';

/**
 * App paths of the searches that people, subjects and organisations on a record lead to,
 * with each deployment's own parameter for the field (see searchParamForField).
 */

/** A search for a field's value as a phrase: `author="Curie, Marie"`. */
export function fieldSearchPath(deployment: Deployment, fieldName: string, value: string): string {
  // Quotes would end the phrase early; the index does not see them anyway.
  const phrase = value.replace(/"/g, ' ').replace(/\s+/g, ' ').trim();
  return `/${deployment.slug}${queryString([[searchParamForField(deployment, fieldName), `"${phrase}"`]])}`;
}

/** A search for an identifier (an ORCID iD) as written, where the deployment has the parameter. */
export function identifierSearchPath(deployment: Deployment, identifier: string): string | undefined {
  const param = identifierParam(deployment);
  return param ? `/${deployment.slug}${queryString([[param, identifier]])}` : undefined;
}

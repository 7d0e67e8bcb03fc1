import { z } from 'zod';
import { dc0 } from './dc0';
import { dc1 } from './dc1';
import { enr } from './enr';
import { lit } from './lit';
import { mm } from './mm';
import { pat } from './pat';
import type { Deployment, DeploymentKey, FieldDef, ParamDef } from './schema';
import { searchModel } from './search-model';

/** The six deployments, in the order the app offers them (literature first). */
export const deployments: readonly Deployment[] = [lit, dc1, dc0, mm, pat, enr];

export function deploymentByKey(key: string): Deployment | undefined {
  const upper = key.toUpperCase();
  return deployments.find((deployment) => deployment.key === upper);
}

export function deploymentBySlug(slug: string): Deployment | undefined {
  return deployments.find((deployment) => deployment.slug === slug);
}

export function paramByName(deployment: Deployment, name: string): ParamDef | undefined {
  return deployment.params.find((param) => param.name === name);
}

export function fieldByName(deployment: Deployment, name: string): FieldDef | undefined {
  return deployment.fields.find((field) => field.name === name);
}

/** Names of the fields `sort` accepts, after the implicit `relevance`. */
export function sortFields(deployment: Deployment): string[] {
  return [
    'relevance',
    ...searchModel(deployment)
      .ordered.filter((field) => field.sortable)
      .map((field) => field.field),
  ];
}

/** A short human name: "Research literature v1". */
export function displayName(deployment: Deployment): string {
  return `${deployment.name} ${deployment.version}`;
}

const recordSchemas = new Map<DeploymentKey, z.ZodType>();

/**
 * The zod schema of one record of a deployment, built from its field table. Unknown
 * fields pass through: servers may send more than the spec names.
 */
export function recordSchema(deployment: Deployment) {
  let schema = recordSchemas.get(deployment.key);
  if (!schema) {
    schema = z.looseObject(Object.fromEntries(deployment.fields.map((field) => [field.name, field.schema])));
    recordSchemas.set(deployment.key, schema);
  }
  return schema as z.ZodType<ApiRecord>;
}

/** A record as the API sends it: field name to value, with the identifier as a string. */
export type FieldValue = string | number | null | undefined | readonly string[] | readonly { rel: string; href: string }[];
export interface ApiRecord {
  repo_id: string;
  [field: string]: unknown;
}

/**
 * The parameter that searches exactly a field's words: the text parameter over that field's
 * index column alone (`author` for authors, `subject` where a deployment has it, the
 * organisation parameters by each deployment's own names), else the main query `q`.
 */
export function searchParamForField(deployment: Deployment, fieldName: string): string {
  const column = fieldByName(deployment, fieldName)?.search;
  const exact = deployment.params.find((param) => param.kind === 'text' && param.columns.length === 1 && param.columns[0] === column);
  return exact?.name ?? 'q';
}

/** The exact-match parameter for identifiers (an ORCID iD among them), where the deployment has one. */
export function identifierParam(deployment: Deployment): string | undefined {
  return deployment.params.find((param) => param.kind === 'exact' && param.key === 'identifier')?.name;
}

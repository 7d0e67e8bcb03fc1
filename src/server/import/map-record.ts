import type { ApiRecord } from '../../deployments/registry';
import type { Deployment, FieldDef, FieldKind } from '../../deployments/schema';
import { repoId as repoIdField } from '../../deployments/fields';
import { searchModel, type OrganisationRole } from '../../deployments/search-model';
import type { StoredRecord } from '../store/types';
import { describeValue, InputProblem } from './problem';
import { toDate, toLinks, toList, toNumber, toText } from './values';

/**
 * Maps one record in the upstream shape to a deployment's record. The deployment table
 * decides which fields exist, in which order and of which kind; this module only knows
 * the upstream's names for them.
 */

/** The identifier's names; a record already in the spec's shape wins. */
const idNames = [repoIdField.name, ...(repoIdField.upstream ?? [])];

/**
 * Every name an organisation appears under, upstream or in any deployment, so a record
 * lands in whichever shape its target deployment uses. `contributing_organizations` comes
 * last: the upstream fills it with the same names less carefully than `contributing_org`.
 */
const orgNames: Readonly<Record<OrganisationRole, readonly string[]>> = {
  research: ['research_orgs', 'research_org'],
  sponsor: ['sponsor_orgs', 'sponsor_org'],
  contributing: ['contributing_org', 'contributing_orgs', 'contributor_org', 'contributing_organizations'],
};

/**
 * Names of the submitter's code. It goes to the deployment's field keyed `site`
 * (`site_ownership_code`, ENR's `submitting_site`); a deployment without one carries it
 * beside the record, so the `source_id` filter still finds the record.
 */
const siteNames = ['site_ownership_code', 'submitting_site'] as const;

/** What each field of a deployment is to the upstream's names: an organisation of some role, the site code. */
interface FieldRoles {
  readonly organisation: ReadonlyMap<string, OrganisationRole>;
  readonly site?: string;
}

const fieldRoles = new WeakMap<Deployment, FieldRoles>();

/** Read from the search model, which alone decides what a field is. */
function rolesOf(deployment: Deployment): FieldRoles {
  let roles = fieldRoles.get(deployment);
  if (!roles) {
    const { organisations, site } = searchModel(deployment).roles;
    const organisation = new Map(
      Object.entries(organisations).flatMap(([role, fields]) => fields.map((field) => [field, role as OrganisationRole] as const)),
    );
    roles = { organisation, ...(site === undefined ? {} : { site }) };
    fieldRoles.set(deployment, roles);
  }
  return roles;
}

function candidateNames(roles: FieldRoles, field: FieldDef): string[] {
  const role = roles.organisation.get(field.name);
  const names = [
    field.name,
    field.xml,
    ...(field.upstream ?? []),
    ...(role ? orgNames[role] : []),
    ...(roles.site === field.name ? siteNames : []),
  ];
  return [...new Set(names.filter((name): name is string => name !== undefined))];
}

function hasContent(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.length > 0;
  return true;
}

/** The first name carrying a value, else the first name present at all (to type-check it). */
function pick(raw: Readonly<Record<string, unknown>>, names: readonly string[]): { name: string; value: unknown } {
  const present = names.filter((name) => Object.hasOwn(raw, name));
  const name = present.find((candidate) => hasContent(raw[candidate])) ?? present[0] ?? names[0]!;
  return { name, value: raw[name] };
}

/** How each field kind of the deployment table reads an upstream value; `isOrg` tidies organisation names. */
const converters: Readonly<Record<FieldKind, (value: unknown, isOrg: boolean) => unknown>> = {
  text: toText,
  url: toText,
  list: toList,
  date: (value) => toDate(value),
  number: (value) => toNumber(value),
  links: (value) => toLinks(value),
};

const convert = (roles: FieldRoles, field: FieldDef, value: unknown) => converters[field.kind](value, roles.organisation.has(field.name));

/** The record's identifier as text, or undefined when it has none worth the name. */
export function upstreamId(raw: Readonly<Record<string, unknown>>): string | undefined {
  for (const name of idNames) {
    const value = raw[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  }
  return undefined;
}

function requireId(raw: Readonly<Record<string, unknown>>): string {
  const id = upstreamId(raw);
  if (id !== undefined) return id;
  const name = idNames.find((candidate) => hasContent(raw[candidate]));
  if (name) throw new InputProblem(`expected a non-empty text identifier, got ${describeValue(raw[name])}`, name);
  throw new InputProblem('the record has no identifier (osti_id or repo_id)', 'osti_id');
}

function siteOf(deployment: Deployment, raw: Readonly<Record<string, unknown>>): string | undefined {
  if (rolesOf(deployment).site !== undefined) return undefined;
  const { name, value } = pick(raw, siteNames);
  try {
    return toText(value).trim() || undefined;
  } catch (problem) {
    throw problem instanceof InputProblem ? new InputProblem(problem.message, name) : problem;
  }
}

/**
 * The deployment's record for one upstream object: exactly the table's fields in the
 * table's order, missing ones empty, unknown ones dropped. Throws an `InputProblem`
 * naming the upstream field at fault.
 */
export function mapUpstreamRecord(deployment: Deployment, raw: Readonly<Record<string, unknown>>): StoredRecord {
  const repoId = requireId(raw);
  const roles = rolesOf(deployment);
  const values: Record<string, unknown> = {};
  for (const field of deployment.fields) {
    if (field.name === 'repo_id') {
      values[field.name] = repoId;
      continue;
    }
    const { name, value } = pick(raw, candidateNames(roles, field));
    try {
      values[field.name] = convert(roles, field, value);
    } catch (problem) {
      if (!(problem instanceof InputProblem)) throw problem;
      const where = name === field.name ? name : `${name} (${field.name})`;
      throw new InputProblem(problem.message, where);
    }
  }
  // Spreading keeps repo_id at the table's position.
  const record: ApiRecord = { ...values, repo_id: repoId };
  const site = siteOf(deployment, raw);
  return site ? { record, site } : { record };
}

import { z } from 'zod';
import { displayName, sortFields } from '../../deployments/registry';
import type { Deployment, FieldDef, FieldKind, ParamDef, ParamKind } from '../../deployments/schema';
import { apiErrorSchema } from '../../formats/error';
import { facetFilterParam } from '../../formats/facet-filters';
import { totalWorksHeader, workVersionsHeader } from '../../formats/extension-headers';
import { facetsResponseSchema } from '../../formats/facets-response';
import { suggestResponseSchema } from '../../formats/suggest-response';
import { completeResponseSchema } from '../../formats/complete-response';
import { typeAheadFacets } from '../../deployments/facets';
import { maxCompletions, maxPrefixLength } from '../complete/completer';
import { contentTypes } from '../../formats/media-types';
import { limits } from './criteria';
import { facetLimits } from './facets';

/**
 * An OpenAPI 3.1 description of one deployment, generated from the deployment table, so
 * client generators and API testers see exactly what the server validates: every
 * parameter with its kind's rules, the record in JSON and XML, paging headers, the Error
 * object. Served at `{base}/openapi.json` (docs/extensions.md).
 */

type Schema = Record<string, unknown>;

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** A field's JSON Schema, with the XML names OpenAPI uses for the `application/xml` body. */
const fieldSchemas: { readonly [K in FieldKind]: (field: FieldDef) => Schema } = {
  text: () => nullable({ type: 'string' }),
  url: () => nullable({ type: 'string' }),
  date: () => nullable({ type: 'string', description: 'An ISO 8601 date-time, such as 2024-04-20T04:00:00Z.' }),
  number: () => nullable({ type: 'number' }),
  list: (field) => nullable({ type: 'array', items: { type: 'string', xml: { name: field.item } }, xml: { wrapped: true } }),
  links: (field) =>
    nullable({
      type: 'array',
      xml: { wrapped: true },
      items: {
        type: 'object',
        xml: { name: field.item },
        required: ['rel', 'href'],
        properties: {
          rel: { type: 'string', xml: { attribute: true } },
          href: { type: 'string', format: 'uri-reference', xml: { attribute: true } },
        },
      },
    }),
};

function recordSchema(deployment: Deployment): Schema {
  const properties = Object.fromEntries(
    deployment.fields.map((field) => {
      const schema = field.name === 'repo_id' ? { type: 'string', minLength: 1 } : fieldSchemas[field.kind](field);
      return [field.name, { ...schema, title: field.label, ...(field.xml ? { xml: { name: field.xml } } : {}) }];
    }),
  );
  return { type: 'object', required: ['repo_id'], properties, xml: { name: 'record' } };
}

const datePatterns: Record<Deployment['dateFormat'], string> = {
  'MM/DD/YYYY': '^(\\d{1,2}/\\d{1,2}/\\d{4}|\\d{4}-\\d{2}-\\d{2})$',
  'MM-DD-YYYY': '^(\\d{1,2}-\\d{1,2}-\\d{4}|\\d{4}-\\d{2}-\\d{2})$',
};

/** Each parameter kind's value rules as a JSON Schema (the server's rules in criteria.ts). */
const paramSchemas: { readonly [K in ParamKind]: (param: Extract<ParamDef, { kind: K }>, deployment: Deployment) => Schema } = {
  text: () => ({ type: 'string', maxLength: limits.textLength }),
  exact: () => ({ type: 'string', maxLength: limits.exactLength }),
  repo_id: () => ({ type: 'string', maxLength: limits.exactLength }),
  boolean: () => ({ type: 'string', enum: ['true', 'false'] }),
  date: (_, deployment) => ({
    type: 'string',
    pattern: datePatterns[deployment.dateFormat],
    description: `${deployment.dateFormat} or YYYY-MM-DD; a real calendar day.`,
  }),
  sort: (_, deployment) => ({
    type: 'string',
    description: 'A field name, optionally followed by a space and asc or desc.',
    pattern: `^(${sortFields(deployment).join('|')})( (asc|desc))?$`,
  }),
  order: () => ({ type: 'string', enum: ['asc', 'desc'] }),
  group: (param) => ({ type: 'string', enum: [...param.values] }),
  // page=0 is read as page 1, as the upstream does.
  integer: (param) => ({ type: 'integer', minimum: param.paging === 'page' ? 0 : 1, maximum: param.max, default: param.default }),
};

const paramSchema = <K extends ParamKind>(param: Extract<ParamDef, { kind: K }>, deployment: Deployment) =>
  (paramSchemas[param.kind] as (param: ParamDef, deployment: Deployment) => Schema)(param, deployment);

function parameters(deployment: Deployment, exclude: readonly string[] = []) {
  return deployment.params
    .filter((param) => !exclude.includes(param.name))
    .map((param) => ({ name: param.name, in: 'query', description: param.help, required: false, schema: paramSchema(param, deployment) }));
}

/** The local server's own parameters of `/records` (`group`), from the deployment table's `extensions`. */
function extensionParameters(deployment: Deployment) {
  return deployment.extensions.map((param) => ({
    name: param.name,
    in: 'query',
    description: `${param.help} (extension)`,
    required: false,
    schema: paramSchema(param, deployment),
  }));
}

/** `facet.NAME` and `exclude.NAME` of every facet (the combinable-facets extension), repeatable. */
function selectionParameters(deployment: Deployment) {
  const values = { type: 'array', items: { type: 'string', maxLength: limits.selectedLength }, maxItems: limits.selectedValues };
  return deployment.facets.flatMap((facet) => [
    {
      name: facetFilterParam('select', facet.name),
      in: 'query',
      description: `Records with any of these ${facet.label.toLowerCase()} values (extension; values OR'd, facets AND'd).`,
      schema: values,
      style: 'form',
      explode: true,
    },
    {
      name: facetFilterParam('exclude', facet.name),
      in: 'query',
      description: `Records with none of these ${facet.label.toLowerCase()} values (extension).`,
      schema: values,
      style: 'form',
      explode: true,
    },
  ]);
}

const errorBodies = {
  'application/json': { schema: { $ref: '#/components/schemas/Error' } },
  'application/xml': { schema: { $ref: '#/components/schemas/Error' } },
  'text/plain': { schema: { type: 'string', description: 'The Error object as three lines, for BibTeX requests.' } },
};

const errorResponses = Object.fromEntries(
  (
    [
      ['400', 'A parameter or its value is not accepted; the message names it.'],
      ['401', 'A private mirror: send Authorization: Bearer <token>.'],
      ['404', 'No such record or resource.'],
      ['405', 'The API is read-only: GET, HEAD and OPTIONS only.'],
      ['414', 'The request URL is too long.'],
      ['500', 'The server failed.'],
      ['503', 'The server is busy; retry after the time in Retry-After.'],
    ] as const
  ).map(([status, description]) => [status, { description, content: errorBodies }] as const),
);

const recordBodies = (schema: Schema) => ({
  'application/json': { schema },
  'application/xml': { schema: { ...schema, xml: { name: 'records', wrapped: true } } },
  [contentTypes.bibtex]: { schema: { type: 'string', description: 'BibTeX @misc entries.' } },
});

const recordList = { type: 'array', items: { $ref: '#/components/schemas/Record' } };

const pagingHeaders = {
  'X-Total-Count': { description: 'How many records match.', schema: { type: 'integer', minimum: 0 } },
  Link: { description: 'RFC 8288 links to the first, prev, next and last pages.', schema: { type: 'string' } },
  ETag: { schema: { type: 'string' } },
};

/** With `group=work` only (docs/extensions.md). */
const groupingHeaders = {
  [workVersionsHeader]: {
    description:
      'With group=work: the number of records of each work of the page, in the order of the body, comma-separated. X-Total-Count still counts records.',
    schema: { type: 'string', pattern: '^(\\d+(,\\d+)*)?$' },
  },
  [totalWorksHeader]: {
    description: 'With group=work, where the grouping window holds the whole result: how many works it holds.',
    schema: { type: 'integer', minimum: 0 },
  },
};

export interface OpenApiOptions {
  /** The origin the server is reached at. */
  readonly origin: string;
  /** Private mirror: every request carries a bearer token. */
  readonly token: boolean;
}

const jsonSchemaOf = (schema: z.ZodType): Schema => {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12' }) as Schema;
  return rest;
};

const errorSchema = jsonSchemaOf(apiErrorSchema);
const facetsSchema = jsonSchemaOf(facetsResponseSchema);

export function openApiDocument(deployment: Deployment, options: OpenApiOptions): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: `${displayName(deployment)} records API`,
      version: deployment.version,
      description: deployment.deprecated ?? `The read-only records query API of the ${displayName(deployment).toLowerCase()}.`,
    },
    servers: [{ url: `${options.origin}${deployment.basePath}` }],
    ...(options.token ? { security: [{ bearer: [] }] } : {}),
    paths: {
      '/records': {
        get: {
          operationId: 'searchRecords',
          summary: 'Search records',
          parameters: [...parameters(deployment), ...extensionParameters(deployment), ...selectionParameters(deployment)],
          responses: {
            '200': {
              description:
                "One page of matching records; with group=work, its works, each work's most complete record first, then its other versions.",
              headers: { ...pagingHeaders, ...groupingHeaders },
              content: recordBodies(recordList),
            },
            ...errorResponses,
          },
        },
      },
      '/records/{repo_id}': {
        get: {
          operationId: 'getRecord',
          summary: 'One record by its identifier',
          parameters: [{ name: 'repo_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
          responses: {
            '200': {
              description: 'The record, as a list of one.',
              headers: { 'X-Total-Count': pagingHeaders['X-Total-Count'] },
              content: recordBodies(recordList),
            },
            ...errorResponses,
          },
        },
      },
      '/facets': {
        get: {
          operationId: 'countFacets',
          summary: 'Exact counts by value of the matching records (extension)',
          parameters: [
            ...parameters(deployment, ['sort', 'order', 'rows', 'page']),
            ...selectionParameters(deployment),
            {
              name: 'facet',
              in: 'query',
              description: 'A facet to count; repeat for several; all when absent.',
              schema: { type: 'array', items: { type: 'string', enum: deployment.facets.map((facet) => facet.name) } },
              style: 'form',
              explode: true,
            },
            {
              name: 'facet_limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: facetLimits.maxLimit, default: facetLimits.defaultLimit },
            },
            { name: 'facet_offset', in: 'query', schema: { type: 'integer', minimum: 0, maximum: facetLimits.maxOffset, default: 0 } },
            { name: 'facet_sort', in: 'query', schema: { type: 'string', enum: ['count', 'value'], default: 'count' } },
            {
              name: 'facet_contains',
              in: 'query',
              description:
                'With exactly one facet: only its values containing this text (case, diacritics and compatibility forms folded).',
              schema: { type: 'string', maxLength: facetLimits.containsLength },
            },
            ...deployment.facets.map((facet) => ({
              name: `facet_limit.${facet.name}`,
              in: 'query',
              description: `The page size of the ${facet.label.toLowerCase()} facet alone.`,
              schema: { type: 'integer', minimum: 1, maximum: facetLimits.maxFacetLimit },
            })),
          ],
          responses: {
            '200': {
              description: 'Counts by value, one page of values per facet.',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Facets' } } },
            },
            ...errorResponses,
          },
        },
      },
      '/suggest': {
        get: {
          operationId: 'suggest',
          summary: '"Did you mean": the search\'s words as the records spell them (extension)',
          parameters: [
            {
              name: 'q',
              in: 'query',
              description:
                'The search as typed. Words no record holds become the nearest words records hold (up to two edits, a swap of two letters one), most records first; a rare word one edit from a far commoner one becomes it. Quoted text, prefixes and excluded words are kept.',
              schema: { type: 'string', maxLength: 1000 },
            },
          ],
          responses: {
            '200': {
              description: 'The corrected search, or null when its words need no correction.',
              content: { 'application/json': { schema: jsonSchemaOf(suggestResponseSchema) } },
            },
            ...errorResponses,
          },
        },
      },
      '/complete': {
        get: {
          operationId: 'complete',
          summary: 'Type-ahead: values that start with what was typed, with their record counts (extension)',
          parameters: [
            {
              name: 'prefix',
              in: 'query',
              required: true,
              description:
                'What was typed. A person is typed from the surname and matched as the author facet folds names (`Fredrickson, E.` = `fredrickson, e`); a subject or organisation from any of its words; case, diacritics and punctuation are folded.',
              schema: { type: 'string', maxLength: maxPrefixLength },
            },
            {
              name: 'field',
              in: 'query',
              description: 'The fields whose values to offer (repeatable); by default all of them, as the search box offers them.',
              schema: { type: 'array', items: { type: 'string', enum: typeAheadFacets(deployment).map((facet) => facet.name) } },
              style: 'form',
              explode: true,
            },
            {
              name: 'limit',
              in: 'query',
              description: 'The most values answered.',
              schema: { type: 'integer', minimum: 1, maximum: maxCompletions, default: 10 },
            },
          ],
          responses: {
            '200': {
              description:
                "Values, the most records first (each field's best kept), each with its count over the catalog and the search parameters that select exactly those records.",
              content: { 'application/json': { schema: jsonSchemaOf(completeResponseSchema) } },
            },
            ...errorResponses,
          },
        },
      },
      '/feed': {
        get: {
          operationId: 'searchFeed',
          summary: 'A search as an Atom feed, newest entries first (extension)',
          parameters: [...parameters(deployment, ['sort', 'order', 'page']), ...selectionParameters(deployment)],
          responses: {
            '200': { description: 'An RFC 4287 Atom feed.', content: { 'application/atom+xml': { schema: { type: 'string' } } } },
            ...errorResponses,
          },
        },
      },
    },
    components: {
      schemas: { Record: recordSchema(deployment), Error: { ...errorSchema, xml: { name: 'error' } }, Facets: facetsSchema },
      ...(options.token ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } : {}),
    },
  };
}

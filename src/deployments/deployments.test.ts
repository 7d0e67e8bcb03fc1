import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deploymentByKey,
  deploymentBySlug,
  deployments,
  fieldByName,
  identifierParam,
  paramByName,
  recordSchema,
  searchParamForField,
  sortFields,
} from './registry';
import { deploymentKeys, type DateFormat, type Deployment, type DeploymentKey, type LinkRel } from './schema';

/**
 * Conformance of the deployment table with docs/api.md and docs/design.md. The expectations
 * below are transcribed from the spec's tables, not from the implementation, so a field,
 * parameter or rel added to or dropped from the wrong deployment fails here.
 */

type Key = DeploymentKey;
const all: readonly Key[] = ['DC1', 'DC0', 'MM', 'LIT', 'PAT', 'ENR'];
const only = (...keys: Key[]) => keys;
const allBut = (...keys: Key[]) => all.filter((key) => !keys.includes(key));

/** The spec's "Fields common to all deployments" table. */
const commonFields = [
  'repo_id',
  'title',
  'authors',
  'subjects',
  'description',
  'publisher',
  'country_publication',
  'publication_date',
  'entry_date',
  'doi',
  'language',
  'availability',
  'format',
  'agency_contract_number',
];

/** Organisation fields with the spec's per-deployment naming. */
const orgFields: Record<Key, string[]> = {
  DC0: ['sponsor_org', 'research_org', 'contributing_org'],
  MM: ['research_orgs', 'sponsor_orgs', 'contributing_orgs'],
  DC1: ['research_orgs', 'sponsor_orgs', 'contributor_org'],
  LIT: ['research_orgs', 'sponsor_orgs', 'contributing_org'],
  PAT: ['research_orgs', 'sponsor_orgs', 'contributing_org'],
  ENR: ['research_orgs', 'sponsor_orgs', 'contributing_org'],
};

/** The spec's "Deployment-specific fields" table: field → deployments that have it. */
const specificFields: Record<string, readonly Key[]> = {
  product_type: all,
  report_number: only('DC0', 'MM', 'LIT', 'PAT', 'ENR'),
  product_number: only('DC1'),
  journal_name: only('MM', 'LIT', 'PAT'),
  journal_volume: only('MM', 'LIT', 'PAT'),
  journal_issue: only('MM', 'LIT', 'PAT'),
  article_type: only('MM', 'LIT', 'PAT', 'ENR'),
  mime_type: only('MM'),
  nsa_number: only('LIT'),
  dataset_content_type: only('DC0', 'PAT'),
  related_resource: only('DC1'),
  related_identifiers: only('DC1'),
  dataset_size: only('DC1'),
  site_url: only('DC1'),
  site_ownership_code: only('DC1'),
  announcement_date: only('ENR'),
  submitting_site: only('ENR'),
  other_identifying_numbers: only('ENR'),
  links: allBut('DC0'),
};

/** JSON types from the spec's tables; everything not named here is a string. */
const stringListFields = new Set([
  'authors',
  'subjects',
  'research_orgs',
  'sponsor_orgs',
  'contributing_orgs',
  'dataset_content_type',
  'related_identifiers',
]);
const numberFields = new Set(['dataset_size']);
const linkFields = new Set(['links']);
type SpecType = 'string' | 'string[]' | 'number' | 'links';
function specType(field: string): SpecType {
  if (stringListFields.has(field)) return 'string[]';
  if (numberFields.has(field)) return 'number';
  if (linkFields.has(field)) return 'links';
  return 'string';
}

function expectedFields(key: Key): string[] {
  const specific = Object.entries(specificFields)
    .filter(([, keys]) => keys.includes(key))
    .map(([field]) => field);
  return [...commonFields, ...orgFields[key], ...specific];
}

/** The spec's common query parameters (with the MM renaming applied per deployment). */
const commonParams = (key: Key) => [
  'q',
  'repo_id',
  'biblio',
  'author',
  'title',
  'identifier',
  ...(key === 'MM' ? ['sponsor_orgs', 'research_orgs', 'contributing_orgs'] : ['sponsor_org', 'research_org', 'contributing_org']),
  'source_id',
  'publication_date_start',
  'publication_date_end',
  'entry_date_start',
  'entry_date_end',
  'language',
  'country',
  'sort',
  'order',
  'rows',
  'page',
];

/** The spec's "Deployment-specific parameters and differences" table. */
const specificParams: Record<string, readonly Key[]> = {
  fulltext: allBut('MM'),
  site_ownership_code: only('DC1', 'MM', 'LIT', 'PAT'),
  doi: only('LIT', 'ENR'),
  subject: only('LIT'),
  has_fulltext: only('LIT'),
  dataset_content_type: only('DC0', 'PAT'),
  mime_type: only('MM'),
};

function expectedParams(key: Key): string[] {
  const specific = Object.entries(specificParams)
    .filter(([, keys]) => keys.includes(key))
    .map(([param]) => param);
  return [...commonParams(key), ...specific];
}

/** docs/design.md's deployment table and the spec's date formats, versions and link rels. */
const expected: Record<Key, { basePath: string; version: string; dateFormat: DateFormat; rels: LinkRel[] }> = {
  LIT: { basePath: '/api/lit/v1', version: 'v1', dateFormat: 'MM/DD/YYYY', rels: ['citation', 'fulltext'] },
  DC1: { basePath: '/api/dc/v1', version: 'v1', dateFormat: 'MM/DD/YYYY', rels: ['citation', 'fulltext'] },
  DC0: { basePath: '/api/dc/v0.1', version: 'v0.1', dateFormat: 'MM-DD-YYYY', rels: [] },
  MM: { basePath: '/api/mm/v1', version: 'v1', dateFormat: 'MM/DD/YYYY', rels: ['citation', 'media'] },
  PAT: { basePath: '/api/pat/v1', version: 'v1', dateFormat: 'MM/DD/YYYY', rels: ['citation', 'fulltext'] },
  ENR: { basePath: '/api/enr/v1', version: 'v1', dateFormat: 'MM-DD-YYYY', rels: ['citation', 'fulltext'] },
};

/**
 * docs/design.md: the query language applies to q, biblio, fulltext, title, author, subject and
 * the org fields; language, country, site_ownership_code, source_id, mime_type,
 * dataset_content_type are exact matches, as are identifier and doi; has_fulltext is true/false.
 */
function expectedKind(param: string): string {
  const queryLanguage = ['q', 'biblio', 'fulltext', 'title', 'author', 'subject'];
  if (queryLanguage.includes(param) || /^(sponsor|research|contributing)_orgs?$/.test(param)) return 'text';
  if (/_date_(start|end)$/.test(param)) return 'date';
  const kinds: Record<string, string> = {
    repo_id: 'repo_id',
    has_fulltext: 'boolean',
    sort: 'sort',
    order: 'order',
    rows: 'integer',
    page: 'integer',
  };
  return kinds[param] ?? 'exact';
}

const sorted = (names: Iterable<string>) => [...names].sort();
const table = all.map((key) => [key, deploymentByKey(key)!] as const);

function must(key: Key): Deployment {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(`no deployment ${key}`);
  return deployment;
}

describe('the registry', () => {
  it('holds exactly the six deployments of the spec, each once', () => {
    expect(sorted(deployments.map((deployment) => deployment.key))).toEqual(sorted(all));
    expect(sorted(deploymentKeys)).toEqual(sorted(all));
  });

  it('gives every deployment its own base path and slug, and finds it by either', () => {
    expect(new Set(deployments.map((deployment) => deployment.basePath)).size).toBe(6);
    expect(new Set(deployments.map((deployment) => deployment.slug)).size).toBe(6);
    for (const deployment of deployments) {
      expect(deploymentBySlug(deployment.slug)).toBe(deployment);
      expect(deploymentByKey(deployment.key.toLowerCase())).toBe(deployment);
    }
    expect(deploymentByKey('XYZ')).toBeUndefined();
    expect(deploymentBySlug('nope')).toBeUndefined();
  });

  it('marks only the v0.1 release candidate as deprecated', () => {
    expect(deployments.filter((deployment) => deployment.deprecated).map((deployment) => deployment.key)).toEqual(['DC0']);
  });
});

describe.each(table)('%s', (key, deployment) => {
  it('has exactly the spec’s record fields', () => {
    expect(sorted(deployment.fields.map((field) => field.name))).toEqual(sorted(expectedFields(key)));
  });

  it('has no field twice', () => {
    const names = deployment.fields.map((field) => field.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('has exactly the spec’s query parameters', () => {
    expect(sorted(deployment.params.map((param) => param.name))).toEqual(sorted(expectedParams(key)));
  });

  it('labels and explains every parameter and field for the search form', () => {
    for (const param of deployment.params) {
      expect(param.label.trim(), param.name).not.toBe('');
      expect(param.help.trim(), param.name).not.toBe('');
    }
    for (const field of deployment.fields) expect(field.label.trim(), field.name).not.toBe('');
  });

  it('takes dates in the deployment’s documented format', () => {
    expect(deployment.dateFormat).toBe(expected[key].dateFormat);
    const dateParams = deployment.params.filter((param) => param.kind === 'date').map((param) => param.name);
    expect(sorted(dateParams)).toEqual(sorted(['publication_date_start', 'publication_date_end', 'entry_date_start', 'entry_date_end']));
  });

  it('lives at its docs/design.md base path, whose last segment is its version', () => {
    expect(deployment.basePath).toBe(expected[key].basePath);
    expect(deployment.version).toBe(expected[key].version);
    expect(deployment.basePath.split('/').at(-1)).toBe(deployment.version);
  });

  it('uses the spec’s link rels', () => {
    expect(sorted(deployment.linkRels)).toEqual(sorted(expected[key].rels));
    // A deployment without a links field cannot carry typed links, and vice versa.
    expect(Boolean(fieldByName(deployment, 'links'))).toBe(deployment.linkRels.length > 0);
  });

  it('pages with rows (default 20, at most 1000) and page (default 1)', () => {
    const rows = paramByName(deployment, 'rows');
    const page = paramByName(deployment, 'page');
    expect(rows).toMatchObject({ kind: 'integer', default: 20, max: 1000 });
    expect(page).toMatchObject({ kind: 'integer', default: 1 });
  });

  it('gives each parameter the kind docs/design.md describes', () => {
    for (const param of deployment.params) {
      expect(param.kind, param.name).toBe(expectedKind(param.name));
    }
  });

  it('sorts by relevance, publication_date, entry_date and title (docs/design.md)', () => {
    expect(sorted(sortFields(deployment))).toEqual(sorted(['relevance', 'publication_date', 'entry_date', 'title']));
  });
});

describe('organisation naming quirks', () => {
  it('gives DC0 single-string organisations', () => {
    const schema = recordSchema(must('DC0'));
    const record = { repo_id: '1', sponsor_org: 'USDOE', research_org: 'PPPL', contributing_org: 'MIT' };
    expect(schema.parse(record)).toMatchObject(record);
    expect(schema.safeParse({ repo_id: '1', research_org: ['PPPL'] }).success).toBe(false);
  });

  it('gives MM plural organisation arrays, contributing_orgs included', () => {
    const schema = recordSchema(must('MM'));
    const record = { repo_id: '1', sponsor_orgs: ['USDOE'], research_orgs: ['PPPL'], contributing_orgs: ['MIT', 'GA'] };
    expect(schema.parse(record)).toMatchObject(record);
    expect(schema.safeParse({ repo_id: '1', contributing_orgs: 'MIT' }).success).toBe(false);
  });

  it('gives DC1 a contributor_org string that is a contributing_org element in XML', () => {
    const field = fieldByName(must('DC1'), 'contributor_org');
    expect(field?.xml).toBe('contributing_org');
    expect(recordSchema(must('DC1')).safeParse({ repo_id: '1', contributor_org: 'MIT' }).success).toBe(true);
  });

  it('writes every other field under its JSON name in XML', () => {
    for (const deployment of deployments) {
      for (const field of deployment.fields) {
        if (deployment.key === 'DC1' && field.name === 'contributor_org') continue;
        expect(field.xml ?? field.name, `${deployment.key} ${field.name}`).toBe(field.name);
      }
    }
  });
});

/** A value of the spec's type for a field, as a spec-conformant server would send it. */
function sampleValue(field: string): unknown {
  switch (specType(field)) {
    case 'string[]':
      return ['first value', 'second value'];
    case 'number':
      return 4_280_000;
    case 'links':
      return [{ rel: 'citation', href: 'https://example.org/biblio/1' }];
    default:
      return field.endsWith('_date') ? '2024-04-20T04:00:00Z' : 'some text';
  }
}

/** The spec's empty values: '' for strings, [] for lists, null for anything. */
function emptyValue(field: string, variant: 'typed' | 'null'): unknown {
  if (variant === 'null') return null;
  const type = specType(field);
  if (type === 'string') return '';
  if (type === 'number') return null;
  return [];
}

describe.each(table)('recordSchema(%s)', (key, deployment) => {
  const schema = recordSchema(deployment);
  const fields = expectedFields(key).filter((field) => field !== 'repo_id');

  it('accepts a record with every field filled with a value of the spec’s type', () => {
    const record = Object.fromEntries([['repo_id', '123'], ...fields.map((field) => [field, sampleValue(field)])]);
    expect(schema.parse(record)).toEqual(record);
  });

  it.each(['typed', 'null'] as const)('accepts every field empty (%s empties)', (variant) => {
    const record = Object.fromEntries([['repo_id', '123'], ...fields.map((field) => [field, emptyValue(field, variant)])]);
    expect(schema.safeParse(record).success).toBe(true);
  });

  it('accepts a record that carries only its identifier', () => {
    expect(schema.parse({ repo_id: '9' })).toEqual({ repo_id: '9' });
  });

  it('requires the identifier', () => {
    expect(schema.safeParse({ title: 'No id' }).success).toBe(false);
  });

  it('reads a numeric repo_id as a string', () => {
    expect(schema.parse({ repo_id: 2368548 }).repo_id).toBe('2368548');
  });

  it('keeps fields the spec does not name (servers may send more)', () => {
    expect(schema.parse({ repo_id: '1', contributing_organizations: 'X' })).toMatchObject({ contributing_organizations: 'X' });
  });

  it('rejects authors sent as a single string', () => {
    expect(schema.safeParse({ repo_id: '1', authors: 'Smith, J.' }).success).toBe(false);
  });

  it.each(fields)('rejects %s with a value of the wrong type', (field) => {
    const wrong: Record<SpecType, unknown[]> = {
      string: [42, ['a'], { text: 'a' }, true],
      'string[]': ['a', [1], [null], { 0: 'a' }],
      number: ['many', [1], true],
      links: ['https://example.org', [{ rel: 'citation' }], [{ rel: 1, href: 'x' }], ['https://example.org']],
    };
    for (const value of wrong[specType(field)]) {
      expect(schema.safeParse({ repo_id: '1', [field]: value }).success, JSON.stringify(value)).toBe(false);
    }
  });

  it('accepts any strings in string fields (property)', () => {
    const stringFields = fields.filter((field) => specType(field) === 'string');
    fc.assert(
      fc.property(fc.constantFrom(...stringFields), fc.string({ unit: 'binary' }), (field, value) => {
        expect(schema.parse({ repo_id: '1', [field]: value })[field]).toBe(value);
      }),
      { numRuns: 100 },
    );
  });
});

describe('searchParamForField', () => {
  it('takes each deployment’s own parameter for a field, else q', () => {
    const lit = deploymentByKey('LIT')!;
    const mm = deploymentByKey('MM')!;
    expect(searchParamForField(lit, 'authors')).toBe('author');
    expect(searchParamForField(lit, 'subjects')).toBe('subject');
    expect(searchParamForField(mm, 'subjects')).toBe('q');
    expect(searchParamForField(lit, 'research_orgs')).toBe('research_org');
    expect(searchParamForField(mm, 'research_orgs')).toBe('research_orgs');
    expect(searchParamForField(mm, 'sponsor_orgs')).toBe('sponsor_orgs');
    expect(identifierParam(lit)).toBe('identifier');
  });
});

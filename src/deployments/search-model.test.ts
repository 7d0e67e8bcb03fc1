import { describe, expect, it } from 'vitest';
import { dateParam } from './params';
import { deploymentByKey, deployments, sortFields } from './registry';
import type { Deployment } from './schema';
import { compileSearchModel, searchModel, storeFingerprint } from './search-model';

const enr = deploymentByKey('ENR')!;
const withField = (deployment: Deployment, name: string, change: object): Deployment => ({
  ...deployment,
  fields: deployment.fields.map((field) => (field.name === name ? { ...field, ...change } : field)),
});

describe('the search model', () => {
  it('gives every deployment the shipped sort and date columns', () => {
    for (const deployment of deployments) {
      const ordered = searchModel(deployment).ordered.map(({ field, column, sortable, dateFilter }) => [
        field,
        column,
        sortable,
        dateFilter,
      ]);
      expect(ordered, deployment.key).toEqual([
        ['title', 'title_key', true, false],
        ['publication_date', 'publication_date', true, true],
        ['entry_date', 'entry_date', true, true],
      ]);
    }
  });

  it('names the roles features need', () => {
    expect(searchModel(enr).roles).toMatchObject({
      organisations: { research: ['research_orgs'], sponsor: ['sponsor_orgs'], contributing: ['contributing_org'] },
      site: 'submitting_site',
    });
    expect(searchModel(deploymentByKey('LIT')!).roles.fields).toMatchObject({
      title: ['title'],
      authors: ['authors'],
      published: ['publication_date'],
      journal: ['journal_name'],
    });
    expect(searchModel(deploymentByKey('DC1')!).roles.fields.journal).toBeUndefined();
    expect(searchModel(deploymentByKey('DC0')!).roles.site).toBeUndefined();
  });

  it('sorts titles ascending and dates descending unless told otherwise', () => {
    const byField = Object.fromEntries(searchModel(enr).ordered.map((field) => [field.field, field.defaultOrder]));
    expect(byField).toEqual({ title: 'asc', publication_date: 'desc', entry_date: 'desc' });
  });

  it('follows a field made sortable in the table, with a column and a changed store fingerprint', () => {
    const changed = withField(enr, 'announcement_date', { sortable: true });
    expect(sortFields(changed)).toContain('announcement_date');
    expect(searchModel(changed).ordered.find((field) => field.field === 'announcement_date')).toMatchObject({
      column: 'announcement_date',
      rule: 'iso-date',
    });
    expect(storeFingerprint(searchModel(changed))).not.toEqual(storeFingerprint(searchModel(enr)));
  });

  it('reads roles from the table: a field given the title role is the title everywhere', () => {
    const renamed = {
      ...enr,
      fields: enr.fields.map((field) =>
        field.role === 'title'
          ? { ...field, role: undefined }
          : field.name === 'description'
            ? { ...field, role: 'title' as const }
            : field,
      ),
    };
    expect(searchModel(renamed).roles.fields.title).toEqual(['description']);
    expect(() => compileSearchModel({ ...enr, fields: enr.fields.filter((field) => field.role !== 'title') })).toThrow(/title role/);
  });

  it('fingerprints facets and weights, part by part', () => {
    const parts = storeFingerprint(searchModel(enr));
    const fewer = storeFingerprint(searchModel({ ...enr, facets: enr.facets.filter((facet) => facet.name !== 'author') }));
    expect(Object.keys(parts).filter((part) => parts[part as keyof typeof parts] !== fewer[part as keyof typeof fewer])).toEqual([
      'facets',
    ]);
    expect(parts['column weights']).toContain('title=10');
  });

  it('refuses what no store column can serve', () => {
    expect(() => compileSearchModel(withField(enr, 'authors', { sortable: true }))).toThrow(/authors \(list\) cannot be sorted/);
    expect(() => compileSearchModel({ ...enr, params: [...enr.params, dateParam('title', 'start', 'Titled', 'title')] })).toThrow(
      /title .*bounded by date/,
    );
    expect(() => compileSearchModel({ ...enr, params: [...enr.params, dateParam('nowhere', 'end', 'Never', 'no')] })).toThrow(
      /unknown fields: nowhere/,
    );
  });
});

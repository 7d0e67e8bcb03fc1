import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { allCatalogsCriteria, criteriaForCatalog } from './catalog-criteria';

const key = (name: string) => deploymentByKey(name)!;

describe('criteriaForCatalog', () => {
  test('the query goes to every catalog; page and rows are the page’s own', () => {
    for (const name of ['LIT', 'DC1', 'DC0', 'MM', 'PAT', 'ENR']) {
      expect(
        criteriaForCatalog(key(name), [
          ['q', 'solar cell'],
          ['page', '3'],
          ['rows', '50'],
        ]),
      ).toEqual({ entries: [['q', 'solar cell']], dropped: [] });
    }
  });

  test('a DOI is applied where the catalog takes it and named where it does not', () => {
    expect(criteriaForCatalog(key('LIT'), [['doi', '10.11578/1367164']]).entries).toEqual([['doi', '10.11578/1367164']]);
    expect(
      criteriaForCatalog(key('DC1'), [
        ['q', 'x'],
        ['doi', '10.11578/1367164'],
      ]),
    ).toEqual({ entries: [['q', 'x']], dropped: ['DOI'] });
  });

  test('an organisation criterion takes the multimedia catalog’s plural name; an ISO date each catalog’s format', () => {
    expect(criteriaForCatalog(key('MM'), [['sponsor_org', 'USDOE']]).entries).toEqual([['sponsor_orgs', 'USDOE']]);
    expect(criteriaForCatalog(key('DC0'), [['publication_date_start', '2020-01-31']]).entries).toEqual([
      ['publication_date_start', '01-31-2020'],
    ]);
    expect(criteriaForCatalog(key('LIT'), [['publication_date_start', '2020-01-31']]).entries).toEqual([
      ['publication_date_start', '01/31/2020'],
    ]);
  });

  test('a parameter of one catalog only (media type) is dropped elsewhere by its label', () => {
    expect(criteriaForCatalog(key('MM'), [['mime_type', 'mp4']]).entries).toEqual([['mime_type', 'mp4']]);
    expect(criteriaForCatalog(key('PAT'), [['mime_type', 'mp4']]).dropped).toEqual(['Media type']);
  });
});

describe('the box’s fielded syntax, per catalog', () => {
  test('a field every catalog has becomes each one’s parameter; the free words stay in q', () => {
    for (const name of ['LIT', 'DC1', 'PAT']) {
      expect(criteriaForCatalog(key(name), [['q', 'plasma author:Curie']]).entries).toEqual([
        ['q', 'plasma'],
        ['author', 'Curie'],
      ]);
    }
  });

  test('a field only some catalogs have is applied there and named elsewhere', () => {
    const lit = criteriaForCatalog(key('LIT'), [['q', 'plasma doi:10.11578/1367164']]);
    expect(lit.entries).toEqual([
      ['q', 'plasma'],
      ['doi', '10.11578/1367164'],
    ]);
    const dc1 = criteriaForCatalog(key('DC1'), [['q', 'plasma mime_type:video/mp4']]);
    expect(dc1.entries).toEqual([['q', 'plasma']]);
    expect(dc1.dropped).toEqual(['Media type']);
    expect(dc1.problem).toBeUndefined();
  });

  test('a field a catalog answers by another of its own is searched there and named', () => {
    const dc1 = criteriaForCatalog(key('DC1'), [['q', 'plasma doi:10.11578/1367164']]);
    expect(dc1.entries).toEqual([
      ['q', 'plasma'],
      ['identifier', '10.11578/1367164'],
    ]);
    expect(dc1.dropped).toEqual([]);
    expect(dc1.mapped).toEqual(['doi: as Identifier']);
  });

  test('a catalog left with none of the criteria is not searched; a misspelt field is a problem everywhere', () => {
    expect(criteriaForCatalog(key('DC1'), [['q', 'mime_type:video/mp4']]).problem).toBe('This catalog has none of the search’s criteria.');
    expect(criteriaForCatalog(key('PAT'), [['mime_type', 'mp4']]).problem).toBe('This catalog has none of the search’s criteria.');
    expect(criteriaForCatalog(key('LIT'), [['q', 'plasma auhtor:Curie']]).problem).toMatch(/auhtor/);
  });
});

describe('a catalog’s search taken to all catalogs', () => {
  test('dates become ISO, the page is left out, the rest stays', () => {
    expect(
      allCatalogsCriteria(key('DC0'), [
        ['q', 'plasma'],
        ['publication_date_start', '01-31-2020'],
        ['page', '4'],
        ['dataset_content_type', 'Numeric'],
      ]),
    ).toEqual([
      ['q', 'plasma'],
      ['publication_date_start', '2020-01-31'],
      ['dataset_content_type', 'Numeric'],
    ]);
  });

  test('and back into each catalog in its own format', () => {
    const all = allCatalogsCriteria(key('DC0'), [
      ['q', 'plasma'],
      ['publication_date_start', '01-31-2020'],
    ]);
    expect(criteriaForCatalog(key('LIT'), all).entries).toEqual([
      ['q', 'plasma'],
      ['publication_date_start', '01/31/2020'],
    ]);
  });
});

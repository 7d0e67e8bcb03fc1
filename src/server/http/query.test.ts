import { describe, expect, it } from 'vitest';
import { deployments, sortFields } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { fixtureIds, fixtureSpecs, getJson, listIds, qs, sorted, tieIds, useFixture, type Rec } from './server-fixture.test-support';

/**
 * The query language and sorting, as a researcher typing into the search box meets them.
 * Expected ids come from the word budget in server-fixture.test-support.ts.
 */

const fx = useFixture();
const byDeployment = deployments.map((deployment) => [deployment.key, deployment] as const);
const everything = fixtureIds.length;

type Case = readonly [label: string, param: string, value: string, ids: readonly string[]];

const languageCases: Case[] = [
  ['terms AND together', 'title', 'wind turbine', ['1001', '1002']],
  ['terms AND together (2)', 'title', 'wind solar', ['1004']],
  ['a quoted phrase needs the words in order', 'title', '"wind turbine"', ['1001']],
  ['OR', 'title', 'solar OR geothermal', ['1003', '1004', '1005']],
  ['NOT', 'title', 'wind NOT solar', ['1001', '1002']],
  ['-word', 'title', 'wind -solar', ['1001', '1002']],
  ['-"phrase"', 'title', 'turbine -"wind turbine"', ['1002']],
  ['operators only in capitals: lower-case "or" is a word', 'title', 'solar or geothermal', []],
  ['parentheses group', 'title', '(solar OR wind) cell', ['1003']],
  ['negated group', 'title', 'blade -(fatigue OR hybrid)', ['1002']],
  ['NOT before a group', 'title', 'wind NOT (fatigue OR tunnels)', ['1004']],
  ['prefix*', 'title', 'hydro*', ['1006', '1007', '1009']],
  ['no prefix without *', 'title', 'hydro', []],
  ['a hyphen joins words into a phrase', 'title', 'wind-turbine', ['1001']],
  ['a hyphenated phrase may end in a prefix', 'title', 'wind-turb*', ['1001']],
  ['a hyphenated phrase keeps its order', 'title', 'turbine-wind', []],
  ['stemming: plural finds singular', 'title', 'turbines', ['1001', '1002']],
  ['stemming: singular finds plural', 'title', 'measurement', ['1003']],
  ['case folding', 'title', 'WIND TURBINE', ['1001', '1002']],
  ['diacritic folding: muller finds Müller', 'title', 'muller', ['1007']],
  ['diacritic folding: eclair finds Éclair', 'title', 'ECLAIR', ['1008']],
  ['diacritics in the query are folded too', 'title', 'Müller', ['1007']],
  ['author diacritics: joao finds João', 'author', 'joao', ['1009']],
  ['author diacritics: muller', 'author', 'muller', ['1007', '1038']],
  ['author ORCID hyphenated, stored plain', 'author', '0000-0001-9544-4980', ['1007']],
  ['author ORCID plain, stored hyphenated', 'author', '0000000123456789', ['1038']],
  ['author ORCID as stored', 'author', '0000-0001-2345-6789', ['1038']],
  ['unclosed quote is closed', 'title', '"wind turbine', ['1001']],
  ['unclosed parenthesis is closed', 'title', '(wind turbine', ['1001', '1002']],
  ['stray closing parenthesis is dropped', 'title', 'wind turbine)', ['1001', '1002']],
  ['stray operators are dropped', 'title', 'AND wind OR', ['1001', '1002', '1004']],
  ['trailing NOT is dropped', 'title', 'turbine NOT', ['1001', '1002']],
  ['field scoping: title= searches titles only', 'title', 'wind', ['1001', '1002', '1004']],
  ['field scoping: q searches every field', 'q', 'wind', ['1001', '1002', '1004', '1010']],
  ['field scoping: author= searches authors only', 'author', 'castellano', ['1015']],
  ['field scoping: title=castellano', 'title', 'castellano', ['1016']],
  ['field scoping: q finds both', 'q', 'castellano', ['1015', '1016']],
  ['q includes the full text', 'q', 'quasicrystal', ['1011', '1012']],
  ['biblio excludes the full text', 'biblio', 'quasicrystal', ['1012']],
];

/** Queries with nothing searchable left: 200 and no text criterion. */
const emptyQueries = ['OR', 'NOT', 'AND', '((((', '))', '"', '""', '-', '*', '- -', 'AND OR NOT', '"   "', '()'];

describe.each(byDeployment)('%s query language', (_key, deployment) => {
  it.each(languageCases)('%s: %s=%s', async (_label, param, value, ids) => {
    expect(sorted(await listIds(fx.list(deployment, qs({ [param]: value, rows: 1000 }))))).toEqual(sorted(ids));
  });

  it.runIf(deployment.params.some((param) => param.name === 'fulltext'))('fulltext= searches the full text only', async () => {
    expect(await listIds(fx.list(deployment, qs({ fulltext: 'quasicrystal' })))).toEqual(['1011']);
    expect(await listIds(fx.list(deployment, qs({ fulltext: '"quasicrystal lattice"' })))).toEqual(['1011']);
    expect(await listIds(fx.list(deployment, qs({ fulltext: 'growth' })))).toEqual([]);
  });

  it('a query of only negations finds everything else', async () => {
    const ids = await listIds(fx.list(deployment, qs({ q: '-wind', rows: 1000 })));
    expect(sorted(ids)).toEqual(sorted(fixtureIds.filter((id) => !['1001', '1002', '1004', '1010'].includes(id))));
    const either = await listIds(fx.list(deployment, qs({ title: 'cell OR -solar', rows: 1000 })));
    expect(sorted(either)).toEqual(sorted(fixtureIds.filter((id) => id !== '1004')));
  });

  it.each(emptyQueries)('%s answers 200 as if no words were given', async (value) => {
    for (const param of ['q', 'title', 'author', 'biblio']) {
      const { status, total } = await getJson<Rec[]>(fx.list(deployment, qs({ [param]: value })));
      expect(status, `${param}=${value}`).toBe(200);
      expect(total, `${param}=${value}`).toBe(everything);
    }
  });

  it('control characters (NUL included) separate words instead of failing', async () => {
    expect(sorted(await listIds(fx.list(deployment, 'title=%00wind')))).toEqual(['1001', '1002', '1004']);
    expect(sorted(await listIds(fx.list(deployment, 'title=wind%00turbine')))).toEqual(['1001']);
    expect((await getJson(fx.list(deployment, 'q=%00'))).status).toBe(200);
    expect((await getJson(fx.list(deployment, 'q=%22%00%22*'))).status).toBe(200);
    expect(sorted(await listIds(fx.list(deployment, 'title=wind%07turbine')))).toEqual(['1001']);
  });

  it('FTS5 syntax in the query is taken as plain words', async () => {
    for (const value of [
      'title:wind',
      'NEAR(wind turbine)',
      'wind + turbine',
      '{title}: wind',
      '^wind',
      'wind AND',
      'col:"x"*',
      'a"b(c)d',
    ]) {
      const { status } = await getJson<Rec[]>(fx.list(deployment, qs({ q: value })));
      expect(status, value).toBe(200);
    }
    // Punctuation is not an operator: `+` is dropped and `^` is part of the word.
    expect(sorted(await listIds(fx.list(deployment, qs({ q: 'wind + turbine' }))))).toEqual(['1001', '1002']);
    expect(sorted(await listIds(fx.list(deployment, qs({ q: '^wind' }))))).toEqual(['1001', '1002', '1004', '1010']);
  });
});

/** Sort key the design promises for titles: case and diacritics folded ("Éclair" with "eclair"). */
const titleKey = (title: string) => title.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

describe.each(byDeployment)('%s sort', (_key, deployment) => {
  const all = (query: string) =>
    getJson<Rec[]>(fx.list(deployment, `${query}${query ? '&' : ''}rows=1000`)).then(({ status, body }) => {
      expect(status).toBe(200);
      return body;
    });
  const dates = (records: readonly Rec[]) => records.map((record) => String(record.publication_date));

  it('relevance is the default with text criteria: the best title match comes first', async () => {
    expect(await listIds(fx.list(deployment, 'q=photovoltaic'))).toEqual(['1013', '1014']);
    // 1014 is the newer record, so date order puts it first.
    expect(await listIds(fx.list(deployment, 'q=photovoltaic&sort=publication_date'))).toEqual(['1014', '1013']);
    expect(await listIds(fx.list(deployment, 'q=photovoltaic&sort=relevance'))).toEqual(['1013', '1014']);
  });

  it('publication_date, newest first, is the default without text criteria', async () => {
    const records = await all('');
    const expected = fixtureSpecs
      .map((spec) => spec.published)
      .sort()
      .reverse();
    expect(dates(records)).toEqual(expected);
    expect(await all('sort=publication_date')).toEqual(records);
    expect(await all('sort=publication_date&order=desc')).toEqual(records);
  });

  it('sort=publication_date&order=asc is oldest first', async () => {
    const records = await all('sort=publication_date&order=asc');
    expect(dates(records)).toEqual(fixtureSpecs.map((spec) => spec.published).sort());
  });

  it('sort=entry_date is newest entry first, oldest with order=asc', async () => {
    const entries = (records: readonly Rec[]) => records.map((record) => String(record.entry_date));
    const desc = entries(await all('sort=entry_date'));
    expect(desc).toEqual([...desc].sort().reverse());
    expect(desc[0]).toBe('2024-01-15T08:30:00Z');
    const asc = entries(await all('sort=entry_date&order=asc'));
    expect(asc).toEqual([...desc].reverse());
    expect(asc[0]).toBe('2022-06-30T23:59:59Z');
  });

  it('sort=title is A–Z by default, with case and diacritics folded', async () => {
    const records = await all('sort=title');
    const keys = records.map((record) => titleKey(String(record.title)));
    expect(keys).toEqual([...keys].sort());
    const titles = records.map((record) => String(record.title));
    // Éclair sorts among the e's, not after z.
    expect(titles.indexOf('Éclair reactor geometry')).toBe(titles.indexOf('Early morning observation') + 1);
    const descending = await all('sort=title&order=desc');
    expect(descending.map((record) => titleKey(String(record.title)))).toEqual([...keys].reverse());
  });

  it('accepts the upstream’s combined form sort=publication_date desc / asc', async () => {
    const desc = await all(qs({ sort: 'publication_date desc' }));
    expect(dates(desc)).toEqual(
      fixtureSpecs
        .map((spec) => spec.published)
        .sort()
        .reverse(),
    );
    const asc = await all(qs({ sort: 'publication_date asc' }));
    expect(dates(asc)).toEqual(fixtureSpecs.map((spec) => spec.published).sort());
    expect(await all('sort=publication_date+asc')).toEqual(asc);
    const titleDesc = await all(qs({ sort: 'title desc' }));
    expect(titleDesc.map((record) => record.repo_id)).toEqual((await all('sort=title&order=desc')).map((record) => record.repo_id));
  });

  it('an unknown sort field or order is 400 listing the allowed values', async () => {
    for (const query of ['sort=author', 'sort=random', qs({ sort: 'publication_date sideways' }), qs({ sort: 'title asc extra' })]) {
      const { status, body } = await getJson<unknown>(fx.list(deployment, query));
      expect(status, query).toBe(400);
      const error = apiErrorSchema.parse(body);
      expect(error.statusCode).toBe(400);
      for (const allowed of query.startsWith('sort=author') || query === 'sort=random' ? sortFields(deployment) : ['asc', 'desc']) {
        expect(error.errorDescription, query).toContain(allowed);
      }
    }
    for (const query of ['order=up', 'order=ascending', 'order=1']) {
      const { status, body } = await getJson<unknown>(fx.list(deployment, query));
      expect(status, query).toBe(400);
      const error = apiErrorSchema.parse(body);
      expect(error.errorDescription).toContain('asc');
      expect(error.errorDescription).toContain('desc');
    }
  });

  it('equal relevance is broken by repo_id, so paging never overlaps or skips', async () => {
    // The five tied records have the same shape, so "tied" scores them all alike.
    const full = await listIds(fx.list(deployment, 'q=tied&rows=1000'));
    expect(sorted(full)).toEqual([...tieIds]);
    expect([sorted(full), sorted(full).reverse()]).toContainEqual(full);
    const paged: string[] = [];
    for (let n = 1; n <= tieIds.length; n++) paged.push(...(await listIds(fx.list(deployment, `q=tied&rows=1&page=${n}`))));
    expect(paged).toEqual(full);
  });

  it('ties are broken by repo_id, so paging never overlaps or skips', async () => {
    const day = 'publication_date_start=2020-01-01&publication_date_end=2020-01-01';
    for (const order of ['desc', 'asc']) {
      const full = await listIds(fx.list(deployment, `${day}&order=${order}&rows=1000`));
      expect(sorted(full)).toEqual([...tieIds]);
      // Ordered by repo_id in one direction or the other, never arbitrarily.
      expect([sorted(full), sorted(full).reverse()]).toContainEqual(full);
      const paged: string[] = [];
      for (let n = 1; n <= tieIds.length; n++)
        paged.push(...(await listIds(fx.list(deployment, `${day}&order=${order}&rows=1&page=${n}`))));
      expect(paged).toEqual(full);
      const pairs: string[] = [];
      for (let n = 1; n <= 3; n++) pairs.push(...(await listIds(fx.list(deployment, `${day}&order=${order}&rows=2&page=${n}`))));
      expect(pairs).toEqual(full);
    }
  });
});

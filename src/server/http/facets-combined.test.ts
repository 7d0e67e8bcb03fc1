import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { apiErrorSchema } from '../../formats/error';
import { facetsResponseSchema, type FacetsResponse } from '../../formats/facets-response';
import { foldText } from '../../formats/fold-text';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { getJson, listIds, qs, sorted, useFixture, type Fixture } from './server-fixture.test-support';

/**
 * Combinable facets (docs/extensions.md): `facet.NAME` values OR'd within a facet and
 * AND'd across, `exclude.NAME`, each facet counted without its own selection, and every
 * count — listed, selected, excluded — equal to the `X-Total-Count` of the search it
 * stands for. Run on the hand-written records and on the real DC1 records shipped with
 * the project, on every store.
 */

const fx = useFixture();
const dc1 = deploymentByKey('DC1')!;
const real = useFixture({
  content: () => [
    [
      'DC1',
      readUpstreamFiles(
        dc1,
        [realFiles.geothermal, realFiles.plasma].map((file) => fileURLToPath(new URL(file, realData))),
      ),
    ],
  ],
});

type Pairs = [string, string][];
const encode = (pairs: Pairs) => pairs.map(([name, value]) => qs({ [name]: value })).join('&');

async function facetsOf(server: Fixture, deployment: Deployment, pairs: Pairs): Promise<FacetsResponse> {
  const url = `${server.url}${deployment.basePath}/facets?${encode(pairs)}`;
  const { status, body } = await getJson(url);
  expect(status, `${url}: ${JSON.stringify(body)}`).toBe(200);
  return facetsResponseSchema.parse(body);
}

async function totalOf(server: Fixture, deployment: Deployment, pairs: Pairs): Promise<number> {
  const url = server.list(deployment, encode([...pairs, ['rows', '1']]));
  const { status, total, body } = await getJson(url);
  expect(status, `${url}: ${JSON.stringify(body)}`).toBe(200);
  return total!;
}

const ids = (server: Fixture, deployment: Deployment, pairs: Pairs) =>
  listIds(server.list(deployment, encode([...pairs, ['rows', '1000']]))).then(sorted);
const ownOf =
  (facet: string) =>
  ([name]: [string, string]) =>
    name === `facet.${facet}` || name === `exclude.${facet}`;

/** Every count of a `/facets` answer equals the X-Total-Count of the search it stands for. */
async function expectExactCounts(server: Fixture, deployment: Deployment, pairs: Pairs, limit: number): Promise<number> {
  const body = await facetsOf(server, deployment, [...pairs, ['facet_limit', String(limit)]]);
  expect(body.combinable).toBe(true);
  expect(body.total).toBe(await totalOf(server, deployment, pairs));
  let checked = 0;
  for (const facet of body.facets) {
    // The facet's own selection is left out; every other criterion stays.
    const others = pairs.filter((pair) => !ownOf(facet.name)(pair));
    const own = pairs.filter(ownOf(facet.name));
    expect(facet.selected!.map(({ value }) => value)).toEqual(own.filter(([name]) => name.startsWith('facet.')).map(([, value]) => value));
    expect(facet.excluded!.map(({ value }) => value)).toEqual(
      own.filter(([name]) => name.startsWith('exclude.')).map(([, value]) => value),
    );
    for (const { value, count } of [...facet.values, ...facet.selected!, ...facet.excluded!]) {
      expect(count, `${facet.name}=${value} with ${encode(pairs)}`).toBe(
        await totalOf(server, deployment, [...others, [`facet.${facet.name}`, value]]),
      );
      checked++;
    }
  }
  return checked;
}

/** A selection built from what the search's facets offer: two values of one facet, one of another, one excluded from a third. */
async function someSelection(server: Fixture, deployment: Deployment, search: Pairs, skip: number): Promise<Pairs> {
  const body = await facetsOf(server, deployment, [...search, ['facet_limit', '5']]);
  const offering = body.facets.filter((facet) => facet.values.length >= 2);
  const pick = (i: number) => offering[(skip + i) % offering.length]!;
  const pairs: Pairs = [...search];
  if (offering.length === 0) return pairs;
  const [first, second, third] = [pick(0), pick(1), pick(2)];
  pairs.push([`facet.${first.name}`, first.values[0]!.value], [`facet.${first.name}`, first.values[1]!.value]);
  if (second !== first) pairs.push([`facet.${second.name}`, second.values[0]!.value]);
  if (third !== first && third !== second) pairs.push([`exclude.${third.name}`, third.values[1]!.value]);
  return pairs;
}

describe('counts equal X-Total-Count over searches, facets and selections', () => {
  for (const deployment of deployments) {
    it(`${deployment.key}: every listed, selected and excluded count`, async () => {
      let checked = 0;
      for (const [i, search] of ([[], [['q', 'wind OR solar OR turbine OR hydro*']]] as Pairs[]).entries()) {
        for (const skip of [0, 3])
          checked += await expectExactCounts(fx, deployment, await someSelection(fx, deployment, search, skip + i), 100);
      }
      expect(checked).toBeGreaterThan(20);
    });
  }

  it('DC1 real records: every count, with selections of phrase facets, authors and years', { timeout: 120_000 }, async () => {
    let checked = 0;
    for (const search of [[], [['q', 'plasma']], [['q', 'geothermal OR temperature']]] as Pairs[]) {
      for (const skip of [0, 2, 5]) checked += await expectExactCounts(real, dc1, await someSelection(real, dc1, search, skip), 8);
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('selecting and excluding', () => {
  const lit = deployments[0]!;

  it('ORs values of one facet, ANDs facets, and selects what the value’s own parameters select', async () => {
    const body = await facetsOf(fx, lit, []);
    const types = body.facets.find((facet) => facet.name !== 'publication_year' && facet.values.length >= 2)!;
    const name = `facet.${types.name}`;
    const [a, b] = types.values;
    const year = body.facets.find((facet) => facet.name === 'publication_year')!.values[0]!;
    const idsA = await ids(fx, lit, [[name, a!.value]]);
    const idsB = await ids(fx, lit, [[name, b!.value]]);
    expect(idsA).toEqual(await ids(fx, lit, Object.entries(a!.params)));
    expect(idsA.length).toBeGreaterThan(0);
    expect(idsB.length).toBeGreaterThan(0);
    const either = await ids(fx, lit, [
      [name, a!.value],
      [name, b!.value],
    ]);
    expect(either).toEqual(sorted([...new Set([...idsA, ...idsB])]));
    const inYear = await ids(fx, lit, [['facet.publication_year', year.value]]);
    const both = await ids(fx, lit, [
      [name, a!.value],
      [name, b!.value],
      ['facet.publication_year', year.value],
    ]);
    expect(both.length).toBeGreaterThan(0);
    expect(both.length).toBeLessThan(either.length);
    expect(both).toEqual(either.filter((id) => inYear.includes(id)));
  });

  it('excludes a value, also on /feed, and keeps the selection in Link URLs', async () => {
    const search: Pairs = [['q', 'wind OR solar OR turbine OR hydro*']];
    const [years] = (await facetsOf(fx, lit, [...search, ['facet', 'publication_year']])).facets;
    const year = years!.values[0]!.value;
    const all = await ids(fx, lit, search);
    const inYear = await ids(fx, lit, [...search, ['facet.publication_year', year]]);
    const rest = await ids(fx, lit, [...search, ['exclude.publication_year', year]]);
    expect(inYear.length).toBeGreaterThan(0);
    expect(rest).toEqual(all.filter((id) => !inYear.includes(id)));

    const { response } = await getJson(fx.list(lit, encode([...search, ['exclude.publication_year', year], ['rows', '1']])));
    expect(decodeURIComponent(response.headers.get('link') ?? '')).toContain(`exclude.publication_year=${year}`);
    const feed = await fetch(`${fx.url}${lit.basePath}/feed?${encode([...search, ['facet.publication_year', year]])}`);
    expect(feed.status).toBe(200);
    expect((await feed.text()).match(/<entry>/g)?.length).toBe(Math.min(20, inYear.length));
  });

  it('counts a facet without its own selection, so its other values stay listed', async () => {
    const [types] = (await facetsOf(fx, lit, [['facet', 'product_type']])).facets;
    const chosen = types!.values[0]!.value;
    const [again] = (
      await facetsOf(fx, lit, [
        ['facet', 'product_type'],
        ['facet.product_type', chosen],
      ])
    ).facets;
    expect(again!.values).toEqual(types!.values);
    expect(again!.selected).toEqual([{ value: chosen, count: types!.values[0]!.count }]);
  });

  it('refuses unknown facets, too many or too long values, with the nearest name', async () => {
    const cases: [string, RegExp][] = [
      ['facet.langauge=English', /facet\.language/],
      ['exclude.colour=red', /Unknown facet 'colour'/],
      ['facet.publication_year=soon', /not a value/],
      [Array.from({ length: 51 }, (_, i) => `facet.language=l${i}`).join('&'), /at most 50/],
      [`facet.subject=${'x'.repeat(501)}`, /too long/],
      ['facet_contains=wind', /exactly one facet/],
      ['facet=author&facet=subject&facet_contains=wind', /exactly one facet/],
      ['facet_limit.publication_year=1001', /1 to 1,000/],
      ['facet_limit.publication_yaer=10', /Did you mean 'publication_year'/],
      ['facet=auhtor', /Did you mean 'author'/],
    ];
    for (const [query, message] of cases) {
      for (const path of ['facets', 'records']) {
        if (path === 'records' && /facet_limit|facet_contains|facet=/.test(query)) continue;
        const { status, body } = await getJson(`${fx.url}${lit.basePath}/${path}?${query}`);
        expect(status, query).toBe(400);
        expect(apiErrorSchema.parse(body).errorDescription, query).toMatch(message);
      }
    }
    // Empty values count as absent, as for every other parameter.
    expect(await totalOf(fx, lit, [['facet.language', ' ']])).toBe(await totalOf(fx, lit, []));
  });
});

describe('order and paging of values (real DC1 records)', () => {
  /** Every value of a facet with its exact count, read A–Z a page at a time (each page counted on its own). */
  async function allValues(search: Pairs, facet: string) {
    const values: { value: string; count: number }[] = [];
    for (let offset = 0; ; offset += 100) {
      const [page] = (
        await facetsOf(real, dc1, [
          ...search,
          ['facet', facet],
          ['facet_sort', 'value'],
          ['facet_limit', '100'],
          ['facet_offset', String(offset)],
        ])
      ).facets;
      values.push(...page!.values.map(({ value, count }) => ({ value, count })));
      if (!page!.more) return values;
    }
  }
  const byCount = (a: { value: string; count: number }, b: { value: string; count: number }) =>
    b.count - a.count || (a.value < b.value ? -1 : 1);

  for (const search of [[], [['q', 'plasma']]] as Pairs[]) {
    it(`shows the largest counts at facet_limit 1, 5, 10 and 100 (${encode(search) || 'everything'})`, { timeout: 180_000 }, async () => {
      // Facets whose values fold several spellings into one, and one whose values are as stored.
      for (const facet of dc1.facets.filter((candidate) => candidate.fold !== undefined || candidate.name === 'publication_year')) {
        const expected = (await allValues(search, facet.name)).sort(byCount);
        for (const limit of [1, 5, 10, 100]) {
          const [page] = (await facetsOf(real, dc1, [...search, ['facet', facet.name], ['facet_limit', String(limit)]])).facets;
          expect(
            page!.values.map(({ value, count }) => ({ value, count })),
            `${facet.name} at ${limit}`,
          ).toEqual(expected.slice(0, limit));
        }
      }
    });
  }

  it('the issue’s cases: sponsor_org’s first value is the same at 1 and 10; "energy" leads plasma’s subjects before ITER', async () => {
    const first = async (pairs: Pairs, limit: number) =>
      (await facetsOf(real, dc1, [...pairs, ['facet_limit', String(limit)]])).facets[0]!.values;
    expect((await first([['facet', 'sponsor_org']], 1))[0]).toEqual((await first([['facet', 'sponsor_org']], 10))[0]);
    const subjects = (
      await first(
        [
          ['q', 'plasma'],
          ['facet', 'subject'],
        ],
        10,
      )
    ).map(({ value }) => value.toLowerCase());
    const everySubject = (await allValues([['q', 'plasma']], 'subject')).sort(byCount);
    expect(subjects).toEqual(everySubject.slice(0, 10).map(({ value }) => value.toLowerCase()));
  });

  it('facet_contains searches every value of a facet, folded, by count', { timeout: 120_000 }, async () => {
    for (const facet of ['author', 'subject', 'research_org']) {
      const every = (await allValues([], facet)).sort(byCount);
      const [firstPage] = (
        await facetsOf(real, dc1, [
          ['facet', facet],
          ['facet_limit', '5'],
        ])
      ).facets;
      const beyond = every.find((entry) => !firstPage!.values.some(({ value }) => value === entry.value) && /\p{L}{4}/u.test(entry.value))!;
      const word = beyond.value.match(/\p{L}{4,}/u)![0];
      // Typed in capitals, and in full-width letters for the compatibility folding.
      const typed =
        facet === 'subject'
          ? [...word.toUpperCase()].map((c) => (/[A-Z]/.test(c) ? String.fromCodePoint(c.codePointAt(0)! + 0xfee0) : c)).join('')
          : word.toUpperCase();
      const [found] = (
        await facetsOf(real, dc1, [
          ['facet', facet],
          ['facet_contains', typed],
          ['facet_limit', '100'],
        ])
      ).facets;
      const expected = every.filter(({ value }) => foldText(value).includes(foldText(word)));
      expect(found!.distinct, `${facet} contains ${typed}`).toBe(expected.length);
      expect(found!.values.map(({ value, count }) => ({ value, count }))).toEqual(expected.slice(0, 100));
      expect(found!.values.some(({ value }) => value === beyond.value)).toBe(true);
    }
  });

  it('facet_limit.NAME pages one facet apart: every year for the chart beside the others’ first pages', async () => {
    const body = await facetsOf(real, dc1, [
      ['facet', 'publication_year'],
      ['facet', 'author'],
      ['facet_limit.publication_year', '1000'],
      ['facet_limit', '3'],
    ]);
    const [years, authors] = body.facets;
    expect(years!.values).toHaveLength(years!.distinct);
    expect(years!.more).toBe(false);
    expect(years!.values.reduce((sum, { count }) => sum + count, 0)).toBe(
      await totalOf(real, dc1, [['publication_date_start', '01/01/1000']]),
    );
    expect(authors!.values).toHaveLength(3);
  });
});

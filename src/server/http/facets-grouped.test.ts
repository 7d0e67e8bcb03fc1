import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { facetsResponseSchema } from '../../formats/facets-response';
import { valuesOf } from '../../formats/text';
import { facetValuesOf } from '../../formats/value-folding';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import type { StoredRecord } from '../store/types';
import { getJson, qs, useFixture } from './server-fixture.test-support';

/**
 * Facet values are values of their field, one row per value in any of its spellings (issues
 * 38 and 39), on the real DC1 records: each listed value and each of its spellings is a
 * value some record holds in the facet's field, and ticking any spelling finds exactly the
 * row's count. On every store (the HTTP suite runs on PostgreSQL too).
 */

const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;
const records = readUpstreamFiles(
  dc1,
  [realFiles.geothermal, realFiles.plasma].map((file) => fileURLToPath(new URL(file, realData))),
);

const spelled = (authors: string[], subjects: string[], id: number): StoredRecord => ({
  record: { repo_id: String(5000 + id), title: `Spelling ${id}`, authors, subjects, product_type: 'Journal Article' },
});

/** LIT records whose authors and subjects are one value in several spellings, some records holding two. */
const spellings = [
  spelled(['Fredrickson, E D'], ['Tokamaks'], 1),
  spelled(['Fredrickson, E. D.', 'Fredrickson, E.D.'], ['tokamak', 'TOKAMAK'], 2),
  spelled(['Fredrickson, Eric'], ['tokamaks'], 3),
  spelled(['Fredrickson, E'], ['plasma physics'], 4),
  spelled(['Diallo, A'], ['Tokamak'], 5),
  spelled(['Diallo, A.', 'Diallo, Ahmed'], [], 6),
];

const fx = useFixture({
  content: () => [
    ['DC1', records],
    ['LIT', spellings],
  ],
});

const grouped = ['subject', 'author', 'research_org', 'sponsor_org'];

async function facetsOf(base: string, criteria: Record<string, string>, names: readonly string[], extra: Record<string, string> = {}) {
  const query = new URLSearchParams({ ...criteria, facet_limit: '40', ...extra });
  for (const name of names) query.append('facet', name);
  const { status, body } = await getJson(`${fx.url}${base}/facets?${query.toString()}`);
  expect(status).toBe(200);
  return facetsResponseSchema.parse(body);
}

const totalOf = async (url: string) => (await getJson(url)).total;

describe('facet values are values of their field', () => {
  it.each([[{ q: 'plasma' }], [{}]])(
    'DC1 %j: every value and spelling listed is held by a record in the facet’s field',
    async (criteria) => {
      const answer = await facetsOf(dc1.basePath, criteria, grouped);
      for (const counts of answer.facets) {
        const facet = dc1.facets.find((candidate) => candidate.name === counts.name)!;
        const held = new Set(records.flatMap((stored) => facetValuesOf(facet, valuesOf(stored.record[facet.field!]))));
        expect(counts.values.length, facet.name).toBeGreaterThan(0);
        for (const { value, variants } of counts.values) {
          for (const spelling of variants ?? [value]) expect(held.has(spelling), `${facet.name}: ${spelling}`).toBe(true);
        }
      }
    },
  );

  it('DC1 q=plasma: subjects are the records’ subjects, the real category first, not phrases of the text', async () => {
    const subjects = (await facetsOf(dc1.basePath, { q: 'plasma' }, ['subject'])).facets[0]!;
    expect(subjects.values[0]!.value).toBe('70 PLASMA PHYSICS AND FUSION TECHNOLOGY');
    const shown = subjects.values.map(({ value }) => value.toLowerCase());
    expect(shown).not.toContain('united states');
    // One row for Tokamak in every case and number, shown as most records write it.
    const tokamak = subjects.values.filter(({ value }) => /^tokamaks?$/i.test(value));
    expect(tokamak).toHaveLength(1);
    expect(tokamak[0]!.variants).toEqual(expect.arrayContaining(['tokamak', 'Tokamaks']));
  });

  it('DC1: Fredrickson is one row, whose every spelling selects exactly its count', async () => {
    const authors = (await facetsOf(dc1.basePath, {}, ['author'], { facet_contains: 'fredrickson, e' })).facets[0]!;
    const rows = authors.values.filter(({ value }) => value.startsWith('Fredrickson, E'));
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.variants).toEqual(
      expect.arrayContaining(['Fredrickson, E D', 'Fredrickson, E. D.', 'Fredrickson, E.D.', 'Fredrickson, E', 'Fredrickson, Eric']),
    );
    for (const spelling of row!.variants!) {
      expect(await totalOf(fx.list(dc1, qs({ 'facet.author': spelling, rows: 1 }))), spelling).toBe(row!.count);
    }
  });
});

describe('a grouped value counts as its selection finds', () => {
  it.each([[{ q: 'plasma' }], [{ q: 'plasma', 'facet.subject': '70 Plasma Physics and Fusion Technology' }]])(
    'DC1 %j: every row’s count is the X-Total-Count of the search with any of its spellings ticked',
    { timeout: 120_000 },
    async (criteria) => {
      const answer = await facetsOf(dc1.basePath, criteria, grouped);
      for (const counts of answer.facets) {
        for (const { value, count, variants } of counts.values.filter((each) => each.variants || each.count > 3)) {
          for (const spelling of variants ?? [value]) {
            // A facet is counted without its own selection, so a subject ticked replaces the one the search has.
            const total = await totalOf(fx.list(dc1, qs({ ...criteria, [`facet.${counts.name}`]: spelling, rows: '1' })));
            expect(total, `${counts.name}: ${spelling} (of ${value})`).toBe(count);
          }
        }
      }
    },
  );

  it('LIT spellings: one row per subject and per person, a record holding two spellings counted once', async () => {
    const answer = await facetsOf(lit.basePath, {}, ['author', 'subject']);
    const rows = (name: string) =>
      answer.facets
        .find((counts) => counts.name === name)!
        .values.map(({ value, count, variants }) => ({ value, count, variants: [...(variants ?? [])].sort() }));
    expect(rows('author')).toEqual([
      {
        value: 'Fredrickson, E D',
        count: 4,
        variants: ['Fredrickson, E', 'Fredrickson, E D', 'Fredrickson, E. D.', 'Fredrickson, Eric'],
      },
      { value: 'Diallo, A', count: 2, variants: ['Diallo, A', 'Diallo, A.'] },
    ]);
    expect(rows('subject')).toEqual([
      { value: 'Tokamak', count: 4, variants: ['Tokamak', 'Tokamaks', 'tokamak', 'tokamaks'] },
      { value: 'plasma physics', count: 1, variants: [] },
    ]);
    for (const spelling of ['Fredrickson, E.D.', 'fredrickson, eric', 'Fredrickson, E']) {
      expect(await totalOf(fx.list(lit, qs({ 'facet.author': spelling, rows: 1 }))), spelling).toBe(4);
    }
    expect(await totalOf(fx.list(lit, qs({ 'facet.subject': 'TOKAMAKS', rows: 1 })))).toBe(4);
    expect(await totalOf(fx.list(lit, qs({ 'exclude.subject': 'tokamak', rows: 1 })))).toBe(spellings.length - 4);
  });
});

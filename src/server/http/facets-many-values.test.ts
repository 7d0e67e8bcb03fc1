import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { facetsResponseSchema } from '../../formats/facets-response';
import type { StoredRecord } from '../store/types';
import { getJson, qs, useFixture } from './server-fixture.test-support';

/**
 * A subject facet with thousands of distinct values (generated LIT subjects have 16,263 at
 * 50,000 records): its values are ordered by their own counts at every facet_limit, each
 * counting the records that hold it in any case and number (not a phrase's matches in longer
 * subjects), shown in its commonest spelling with the others listed, and each count is the
 * X-Total-Count of the search it stands for.
 */

const lit = deploymentByKey('LIT')!;
const distinctSubjects = 6000;

const record = (id: number, subjects: string[]): StoredRecord => ({
  record: { repo_id: String(100000 + id), title: `Record ${id}`, authors: [], subjects, product_type: 'Journal Article' },
});

function records(): StoredRecord[] {
  const all: StoredRecord[] = [];
  // Thousands of subjects held once each.
  for (let i = 0; i < distinctSubjects; i++) all.push(record(all.length, [`Topic ${i.toString(36)}x${i}`]));
  // "plasma" in four spellings, seven records, one of them holding two spellings; a phrase
  // of it would also find the six records of a longer subject.
  all.push(record(all.length, ['plasma']));
  for (let i = 0; i < 4; i++) all.push(record(all.length, ['Plasmas']));
  all.push(record(all.length, ['PLASMA', 'plasmas']));
  all.push(record(all.length, ['Plasma']));
  for (let i = 0; i < 6; i++) all.push(record(all.length, ['cold plasma physics']));
  for (let i = 0; i < 3; i++) all.push(record(all.length, ['alpha beta']));
  return all;
}

const fx = useFixture({ content: () => [['LIT', records()]] });

async function subjectPage(limit: number, extra: Record<string, string> = {}) {
  const { status, body } = await getJson(`${fx.url}${lit.basePath}/facets?${qs({ facet: 'subject', facet_limit: limit, ...extra })}`);
  expect(status).toBe(200);
  return facetsResponseSchema.parse(body).facets[0]!;
}

describe('a subject facet of thousands of values', () => {
  it('lists its largest counts first at every facet_limit, one row per subject in any case and number', { timeout: 120_000 }, async () => {
    const expected = [
      { value: 'Plasmas', count: 7, variants: ['Plasmas', 'PLASMA', 'Plasma', 'plasma'] },
      { value: 'cold plasma physics', count: 6 },
      { value: 'alpha beta', count: 3 },
    ];
    for (const limit of [1, 2, 3]) {
      const page = await subjectPage(limit);
      expect(page.distinct).toBe(distinctSubjects + 3);
      expect(page.values.map(({ value, count, variants }) => ({ value, count, ...(variants ? { variants } : {}) }))).toEqual(
        expected.slice(0, limit),
      );
    }
  });

  it('counts each value as the search it stands for, by any of its spellings', { timeout: 120_000 }, async () => {
    const page = await subjectPage(5);
    for (const { value, count, variants } of page.values) {
      for (const spelling of variants ?? [value]) {
        const { total } = await getJson(fx.list(lit, qs({ 'facet.subject': spelling, rows: 1 })));
        expect(count, spelling).toBe(total);
      }
    }
    const { values } = await subjectPage(3, { facet_contains: 'plasma' });
    expect(values.map(({ value, count }) => [value, count])).toEqual([
      ['Plasmas', 7],
      ['cold plasma physics', 6],
    ]);
  });
});

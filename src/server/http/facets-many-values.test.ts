import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { facetsResponseSchema } from '../../formats/facets-response';
import type { StoredRecord } from '../store/types';
import { getJson, qs, useFixture } from './server-fixture.test-support';

/**
 * A phrase facet with more distinct values than any cap on indexing them (generated LIT
 * subjects have 16,263 at 50,000 records): its values are still ordered by their own
 * counts — a phrase also finds the longer subjects that contain it — at every facet_limit,
 * and each count is the X-Total-Count of the search it stands for.
 */

const lit = deploymentByKey('LIT')!;
const distinctSubjects = 6000;

const record = (id: number, subjects: string[]): StoredRecord => ({
  record: { repo_id: String(100000 + id), title: `Record ${id}`, authors: [], subjects, product_type: 'Journal Article' },
});

function records(): StoredRecord[] {
  const all: StoredRecord[] = [];
  // Thousands of subjects held once each, none a phrase of another.
  for (let i = 0; i < distinctSubjects; i++) all.push(record(all.length, [`Topic ${i.toString(36)}x${i}`]));
  // "plasma" is held once, but its phrase also finds the six records of a longer subject.
  all.push(record(all.length, ['plasma']));
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

describe('a phrase facet of thousands of values', () => {
  it('lists its largest phrase counts first at every facet_limit', { timeout: 120_000 }, async () => {
    const expected = [
      { value: 'plasma', count: 7 },
      { value: 'cold plasma physics', count: 6 },
      { value: 'alpha beta', count: 3 },
    ];
    for (const limit of [1, 2, 3]) {
      const page = await subjectPage(limit);
      expect(page.distinct).toBe(distinctSubjects + 3);
      expect(page.values.map(({ value, count }) => ({ value, count }))).toEqual(expected.slice(0, limit));
    }
  });

  it('counts each value as the search it stands for', { timeout: 120_000 }, async () => {
    const page = await subjectPage(5);
    for (const { value, count } of page.values) {
      const { total } = await getJson(fx.list(lit, qs({ 'facet.subject': value, rows: 1 })));
      expect(count, value).toBe(total);
    }
    const { values } = await subjectPage(3, { facet_contains: 'plasma' });
    expect(values.map(({ value, count }) => [value, count])).toEqual([
      ['plasma', 7],
      ['cold plasma physics', 6],
    ]);
  });
});

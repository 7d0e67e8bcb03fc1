import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { completeResponseSchema } from '../../formats/complete-response';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { fixtureRecords, getJson, qs, useFixture } from './server-fixture.test-support';

/**
 * `{base}/complete` (type-ahead, docs/extensions.md) on the real DC1 records (and LIT's hand-written ones for journals): each value
 * offered leads to a search whose `X-Total-Count` is the count shown beside it, people
 * grouped as the author facet groups them. On every store (the HTTP suite runs on PostgreSQL too).
 */

const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;
const fx = useFixture({
  content: () => [
    [
      dc1.key,
      readUpstreamFiles(
        dc1,
        [realFiles.geothermal, realFiles.plasma].map((file) => fileURLToPath(new URL(file, realData))),
      ),
    ],
    [lit.key, fixtureRecords(lit)],
  ],
});

const sortedIds = ({ body }: { body: { repo_id: string }[] }) => body.map((record) => record.repo_id).sort();

async function complete(params: Record<string, string>, fields: readonly string[] = []) {
  const query = new URLSearchParams(params);
  for (const field of fields) query.append('field', field);
  const { status, body } = await getJson(`${fx.url}${dc1.basePath}/complete?${query.toString()}`);
  expect(status).toBe(200);
  return completeResponseSchema.parse(body);
}

describe('GET {base}/complete', () => {
  it.each([
    ['fredr', ['author']],
    ['d', ['author']],
    ['plasma', ['subject']],
    ['pl', []],
    ['princeton', ['research_org', 'sponsor_org']],
    ['u.s. dep', []],
  ])('%j in %j: every value counts what the search it leads to finds', { timeout: 120_000 }, async (prefix, fields) => {
    const answer = await complete({ prefix, limit: '8' }, fields);
    expect(answer.prefix).toBe(prefix);
    expect(answer.values.length, prefix).toBeGreaterThan(0);
    for (const { field, value, count, params } of answer.values) {
      if (fields.length > 0) expect(fields).toContain(field);
      const { total } = await getJson(fx.list(dc1, qs({ ...params, rows: 1 })));
      expect(total, `${field}: ${value} (${JSON.stringify(params)})`).toBe(count);
    }
  });

  it('offers Fredrickson as one person with every spelling, the same row the author facet lists', async () => {
    const answer = await complete({ prefix: 'Fredrickson, E' }, ['author']);
    expect(answer.values).toHaveLength(1);
    const [person] = answer.values;
    expect(person!.variants).toEqual(expect.arrayContaining(['Fredrickson, E D', 'Fredrickson, E. D.', 'Fredrickson, Eric']));
    const facets = await getJson<{ facets: { values: { value: string; count: number }[] }[] }>(
      `${fx.url}${dc1.basePath}/facets?${qs({ facet: 'author', facet_contains: 'fredrickson, e' })}`,
    );
    expect(facets.body.facets[0]!.values).toEqual([expect.objectContaining({ value: person!.value, count: person!.count })]);
  });

  it('offers a journal from its first letters, one row in any case and punctuation, selecting both spellings', async () => {
    const { status, body } = await getJson(`${fx.url}${lit.basePath}/complete?${qs({ prefix: 'zyx', field: 'journal' })}`);
    expect(status).toBe(200);
    const [journal, ...others] = completeResponseSchema.parse(body).values;
    expect(others).toEqual([]);
    expect(journal).toMatchObject({ field: 'journal', count: 2 });
    expect([...new Set([journal!.value, ...(journal!.variants ?? [])])].sort()).toEqual(['ZYXTOPIA, LETTERS.', 'Zyxtopia Letters']);
    expect(sortedIds(await getJson<{ repo_id: string }[]>(fx.list(lit, qs({ ...journal!.params, rows: 10 }))))).toEqual(['1030', '1031']);
  });

  it('answers no values for nothing typed, and a clear 400 for what it cannot take', async () => {
    expect((await complete({ prefix: '' })).values).toEqual([]);
    const refused = [
      `field=language&prefix=en`,
      `prefix=${'a'.repeat(101)}`,
      `prefix=a&limit=0`,
      `prefix=a&limit=21`,
      `prefix=a&rows=5`,
      `field=author`,
      `prefix=a&prefix=b`,
    ];
    for (const query of refused) {
      const { status, body } = await getJson<{ errorDescription?: string }>(`${fx.url}${dc1.basePath}/complete?${query}`);
      expect(status, query).toBe(400);
      expect(JSON.stringify(body), query).toMatch(/complete|field|prefix|limit/);
    }
  });
});

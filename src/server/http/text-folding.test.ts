import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey, deployments } from '../../deployments/registry';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { foldCases, foldRecords } from '../../formats/fold-text.cases';
import { buildRecord, listIds, qs, sorted, useFixture } from './server-fixture.test-support';

/**
 * Text that folds (formats/fold-text.ts), the same on every store: compatibility forms,
 * Chinese, Japanese and Korean words, umlauts and their transliterations, and authors by
 * surname and initials. Every case names exactly the records it must find.
 */

const lit = deployments[0]!;
const fx = useFixture({
  content: () => [[lit.key, foldRecords.map((spec, i) => buildRecord(lit, { ...spec, published: `20${10 + i}-01-01T00:00:00Z` }))]],
});

describe('searches fold text as the indexes do', () => {
  it.each(foldCases.map((fold) => [`${fold.param}=${fold.value}`, fold] as const))('%s', async (_name, { param, value, found }) => {
    expect(sorted(await listIds(fx.list(lit, qs({ [param]: value, rows: 100 }))))).toEqual(sorted(found));
  });

  it('lists the spellings of one surname and initials as one author facet value, counted as any of them selects', async () => {
    const url = `${fx.url}${lit.basePath}/facets?${qs({ facet: 'author', facet_limit: 100, facet_contains: 'fredrickson' })}`;
    const body = (await (await fetch(url)).json()) as { facets: { values: { value: string; count: number; variants?: string[] }[] }[] };
    for (const { value, count, variants } of body.facets[0]!.values) {
      for (const spelling of variants ?? [value]) {
        expect(count, spelling).toBe((await listIds(fx.list(lit, qs({ 'facet.author': spelling, rows: 100 })))).length);
      }
    }
    const rows = body.facets[0]!.values.map(({ value, variants }) => [value, [...(variants ?? [])].sort()]);
    expect(rows.sort()).toEqual([
      ['Fredrickson, Anna', []],
      [expect.stringMatching(/^Fredrickson, E/), ['Fredrickson, E. D.', 'Fredrickson, E.D.', 'Fredrickson, Eric D.']],
    ]);
  });
});

describe('the real DC1 records', () => {
  const dc1 = deploymentByKey('DC1')!;
  const records = () =>
    readUpstreamFiles(
      dc1,
      [realFiles.geothermal, realFiles.plasma].map((file) => fileURLToPath(new URL(file, realData))),
    );
  const real = useFixture({ content: () => [[dc1.key, records()]] });

  it('finds CO₂ as CO2, and Löhnert as Loehnert and Lohnert', async () => {
    expect(await listIds(real.list(dc1, qs({ q: 'crocus CO2', rows: 100 })))).toContain('2473255');
    const lohnert = records()
      .filter(({ record }) => JSON.stringify(record).includes('Löhnert'))
      .map(({ record }) => record.repo_id);
    expect(lohnert.length).toBeGreaterThan(2);
    for (const q of ['Loehnert', 'Lohnert', 'Löhnert']) {
      expect(sorted(await listIds(real.list(dc1, qs({ q, rows: 100 })))), q).toEqual(sorted(lohnert));
    }
  });
});

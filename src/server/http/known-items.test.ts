import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { DeploymentKey } from '../../deployments/schema';
import {
  knownItemQueries,
  knownItems,
  knownItemTargets,
  mixedMirror,
  runKnownItemQuery,
  summarizeKnownItems,
  type KnownItemSearcher,
} from '../corpus/known-items';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { useFixture } from './server-fixture.test-support';

/**
 * Known items (issue 39 item 7), the benchmark's measure on a small mirror: every work of the
 * shipped real DC1 and LIT records, among generated records of the same deployments, is found
 * by what a person remembers of it — a few title words, surname + a title word + the year, the
 * whole title, title words with a typing slip (through the suggestion's results when the search
 * finds nothing, as the app shows them) — at least as often as the targets ask. On
 * SQLite here, and on PostgreSQL in its conformance projects.
 */

const real = (key: DeploymentKey, files: readonly string[]) =>
  readUpstreamFiles(
    deploymentByKey(key)!,
    files.map((file) => fileURLToPath(new URL(file, realData))),
  );
const content = [
  ['DC1', real('DC1', [realFiles.geothermal, realFiles.plasma])],
  ['LIT', real('LIT', [realFiles.litJson, realFiles.litXml])],
] as const;
const generated = 300;
const seed = 1;

const fixture = useFixture({
  content: () => content.map(([key, records]) => [key, mixedMirror(deploymentByKey(key)!, records, generated, seed)] as const),
});

const searcher: KnownItemSearcher = {
  async search(key, q, rows) {
    const response = await fetch(
      `${fixture.url}${deploymentByKey(key)!.basePath}/records?${new URLSearchParams({ q, rows: String(rows) })}`,
    );
    expect(response.status, q).toBe(200);
    const records = (await response.json()) as { repo_id: string }[];
    return { total: Number(response.headers.get('x-total-count')), ids: records.map((record) => record.repo_id) };
  },
  async suggest(key, q) {
    const response = await fetch(`${fixture.url}${deploymentByKey(key)!.basePath}/suggest?${new URLSearchParams({ q })}`);
    expect(response.status, q).toBe(200);
    return ((await response.json()) as { suggestion: { q: string } | null }).suggestion?.q;
  },
};

describe('known items in a mirror of real and generated records', () => {
  it('finds each work by the ways a person remembers it, as often as the targets ask', async () => {
    const queries = content
      .flatMap(([key, records]) => knownItemQueries(knownItems(key, records), seed))
      .filter((query) => knownItemTargets[query.form]);
    const outcomes = [];
    for (const query of queries) outcomes.push(await runKnownItemQuery(searcher, query));
    const forms = summarizeKnownItems(outcomes).filter((form) => form.target);
    expect(forms.map((form) => form.form)).toEqual(['titleWords', 'surnameWordYear', 'wholeTitle', 'oneSlip']);
    for (const form of forms) {
      expect(form.n, form.form).toBeGreaterThan(300);
      const share = form.target!.measure === 'first' ? form.first : form.firstPage;
      expect(share, `${form.label}: ${JSON.stringify(form.misses)}`).toBeGreaterThanOrEqual(form.target!.share);
    }
  }, 300_000);
});

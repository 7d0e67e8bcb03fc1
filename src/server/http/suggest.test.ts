import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { getJson, qs, useFixture } from './server-fixture.test-support';

/**
 * `{base}/suggest` (docs/extensions.md): "Did you mean" from the mirror's own words, here the
 * real DC1 records. The search itself stays exact: a slip finds nothing.
 */

const dc1 = deploymentByKey('DC1')!;
const real = useFixture({
  content: () => [
    [
      dc1.key,
      readUpstreamFiles(
        dc1,
        [realFiles.geothermal, realFiles.plasma].map((file) => fileURLToPath(new URL(file, realData))),
      ),
    ],
  ],
});

const suggestUrl = (q: string) => `${real.url}${dc1.basePath}/suggest?${qs({ q })}`;
interface Answer {
  q: string;
  suggestion: { q: string; words: { word: string; suggestion: string }[]; reason: string } | null;
}

describe('GET {base}/suggest', () => {
  it('spells a slip as the records do, keeping the rest of the search, while the search itself stays exact', async () => {
    const { status, body } = await getJson<Answer>(suggestUrl('tempearture pressure'));
    expect(status).toBe(200);
    expect(body).toEqual({
      q: 'tempearture pressure',
      suggestion: { q: 'temperature pressure', words: [{ word: 'tempearture', suggestion: 'temperature' }], reason: 'unknown' },
    });
    expect((await getJson(real.list(dc1, qs({ q: 'tempearture pressure' })))).total).toBe(0);
    expect((await getJson(real.list(dc1, qs({ q: 'temperature pressure' })))).total).toBeGreaterThan(0);
  });

  it('finds names and two slips in one word', async () => {
    expect((await getJson<Answer>(suggestUrl('geotermla'))).body.suggestion?.q).toBe('geothermal');
    expect((await getJson<Answer>(suggestUrl('McLenann'))).body.suggestion?.q).toBe('mclennan');
  });

  it('suggests nothing for words the records hold, and nothing for no words', async () => {
    for (const q of ['temperature pressure', 'geothermal McLennan', '', '   ', '"tempearture"', 'tempearture*']) {
      const { status, body } = await getJson<Answer>(suggestUrl(q));
      expect(status, q).toBe(200);
      expect(body.suggestion, q).toBeNull();
    }
  });

  it('refuses other parameters and overlong text with a clear 400', async () => {
    const other = await getJson<{ errorDescription?: string }>(`${real.url}${dc1.basePath}/suggest?q=x&rows=5`);
    expect(other.status).toBe(400);
    expect(JSON.stringify(other.body)).toContain('suggest takes only q');
    expect((await getJson(suggestUrl('a'.repeat(1001)))).status).toBe(400);
  });
});

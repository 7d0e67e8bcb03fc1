import { describe, expect, it } from 'vitest';
import { deployments } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { costLimits } from '../query/cost';
import { getJson, qs, useFixture } from './server-fixture.test-support';

/**
 * Query cost control: searches whose estimated cost would hold a worker for seconds are
 * refused before they run, with a 400 that names the limit; what researchers really type
 * (OR, NOT, phrases, a few prefixes) still runs.
 */

const fx = useFixture();
const lit = deployments[0]!;
const textParams = lit.params.filter((param) => param.kind === 'text').map((param) => param.name);
const ored = (count: number, word: (i: number) => string) => Array.from({ length: count }, (_, i) => word(i)).join(' OR ');

async function refusal(params: Record<string, string>) {
  const { status, body } = await getJson(fx.list(lit, qs(params)));
  expect(status).toBe(400);
  return apiErrorSchema.parse(body).errorDescription;
}

describe('query cost', () => {
  it('runs the searches researchers send', async () => {
    for (const q of [
      '"wind turbine" OR solar* NOT hydro*',
      '(wind OR solar) AND power* -geothermal',
      'a*',
      'turb* phot* hydro* geo* reser*',
    ]) {
      expect((await getJson(fx.list(lit, qs({ q })))).status, q).toBe(200);
    }
  });

  it('refuses many OR-ed prefixes in one parameter, naming the limit', async () => {
    const message = await refusal({ q: ored(64, (i) => `wor${i}*`) });
    expect(message).toContain(`at most ${costLimits.perRequest} units`);
    expect(message).toContain('q goes over');
  });

  it('adds up every text parameter of the request', async () => {
    const params = Object.fromEntries(textParams.map((name) => [name, ored(3, (i) => `wor${i}*`)]));
    expect(textParams.length * 3 * costLimits.prefix).toBeGreaterThan(costLimits.perRequest);
    expect(await refusal(params)).toContain('too expensive');
  });

  it('counts short prefixes, which expand to the most words, as dearer', async () => {
    const allowed = Math.floor(costLimits.perRequest / costLimits.shortPrefix);
    expect((await getJson(fx.list(lit, qs({ q: ored(allowed, (i) => `${'abcdefgh'[i]}*`) })))).status).toBe(200);
    expect(await refusal({ q: ored(allowed + 1, (i) => `${'abcdefgh'[i]}*`) })).toContain(`fewer than ${costLimits.shortStem} letters`);
  });

  it('refuses a phrase longer than the phrase limit', async () => {
    const message = await refusal({ q: `"${Array.from({ length: 249 }, () => 'the').join(' ')}"` });
    expect(message).toContain(`a phrase may have at most ${costLimits.phraseWords}`);
  });
});

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { loadCiteEngine, type CiteEngine } from './cite-engine';
import { nodesToText } from './citation-html';
import { accessedOn, expectedCitations, expectedStyleCitations, type CslStyleId } from './expected-citations.test-support';
import { formatCitations } from './format-citations';

const shippedFile = (path: string) => readFile(new URL(`../../../public/${path}`, import.meta.url), 'utf8');
let engine: Promise<CiteEngine> | undefined;
const loadEngine = () => (engine ??= loadCiteEngine(shippedFile));

const styles: readonly CslStyleId[] = ['apa', 'mla', 'chicago', 'harvard', 'vancouver', 'ieee'];
const cases = expectedCitations.flatMap((entry) =>
  styles.map((style) => [`${entry.deployment} ${entry.record.repo_id} (${entry.why})`, style, entry] as const),
);

describe('citations against the ones written by hand from the style guides', () => {
  it.each(cases)('%s in %s', async (_name, style, entry) => {
    const deployment = deploymentByKey(entry.deployment)!;
    const result = await formatCitations(
      { deployment, records: [entry.record], style, accessed: accessedOn, loadFile: shippedFile },
      loadEngine,
    );
    const deviation = entry.deviations?.[style];
    if (deviation) {
      // An accepted deviation is what the engine writes still; once fixed, the entry goes.
      expect(result.text).toBe(deviation.engine);
      expect(result.text).not.toBe(entry.expected[style]);
    } else {
      expect(result.text).toBe(entry.expected[style]);
    }
    // The screen shows the same words; no tag or entity reaches either.
    expect(nodesToText(result.entries[0]!.nodes).replace(/\s+/g, '')).toBe(result.text.replace(/\s+/g, ''));
    expect(result.text).not.toMatch(/<\/?[a-z]+>|&[a-z]+;|&#/i);
  });

  it.each(expectedStyleCitations.map((entry) => [`${entry.style}: ${entry.why}`, entry] as const))('%s', async (_name, entry) => {
    const deployment = deploymentByKey(entry.deployment)!;
    const result = await formatCitations(
      { deployment, records: [entry.record], style: entry.style, accessed: accessedOn, loadFile: shippedFile },
      loadEngine,
    );
    if (entry.deviation) {
      expect(result.text).toBe(entry.deviation.engine);
      expect(result.text).not.toBe(entry.expected);
    } else {
      expect(result.text).toBe(entry.expected);
    }
    expect(nodesToText(result.entries[0]!.nodes).replace(/\s+/g, '')).toBe(result.text.replace(/\s+/g, ''));
  });

  it('covers AIP, APS, Nature and ACS, Harvard’s quotes and APA’s sentence case', () => {
    const styles = new Set(expectedStyleCitations.map((entry) => entry.style));
    for (const style of [
      'csl:american-institute-of-physics',
      'csl:physical-review-letters',
      'csl:nature',
      'csl:american-chemical-society',
      'harvard',
      'apa',
    ])
      expect(styles.has(style as never), style).toBe(true);
  });

  it('covers at least ten records in every style, most of them real', () => {
    expect(expectedCitations.length).toBeGreaterThanOrEqual(10);
    expect(expectedCitations.filter((entry) => !entry.why.includes('generator')).length).toBeGreaterThanOrEqual(10);
  });
});

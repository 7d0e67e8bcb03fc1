import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { parseAuthor } from '../../formats/authors';
import type { StoredRecord } from '../store/types';
import { generateRecords } from './generate';
import { contributingOrgs, dataRepositories, researchOrgs } from './organizations';
import { topics } from './topics';
import * as vocabulary from './vocabulary';
import { benchmarkShares, benchmarkTerms, rareModulus, rareResidue } from './vocabulary';

/**
 * The benchmark terms must have the document frequencies they promise, counted the way a
 * search engine sees a record: tokens of letters and digits, case-folded, in every text
 * field and the full text.
 */

const corpusSize = 20_000;
const lit = deploymentByKey('LIT')!;

function fieldTexts(stored: StoredRecord): string[] {
  const texts: string[] = [];
  for (const [name, value] of Object.entries(stored.record)) {
    if (name === 'links') continue;
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) texts.push(...value.map(String));
  }
  if (stored.fulltext) texts.push(stored.fulltext);
  return texts;
}

const tokensOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

interface Census {
  /** Records containing each token. */
  readonly documents: Map<string, number>;
  /** Records where the phrase's words stand next to each other. */
  readonly phrase: number;
  /** Records where they do so outside the description, where only benchmark sentences put them. */
  readonly phraseElsewhere: number;
  /** Records with the benchmark surname among their authors. */
  readonly author: number;
  readonly rareIds: string[];
}

function census(records: Iterable<StoredRecord>): Census {
  const documents = new Map<string, number>();
  const [first, second] = benchmarkTerms.phrase.split(' ');
  let phrase = 0;
  let phraseElsewhere = 0;
  let author = 0;
  const rareIds: string[] = [];
  for (const stored of records) {
    const seen = new Set<string>();
    let adjacent = false;
    let elsewhere = false;
    for (const text of fieldTexts(stored)) {
      const tokens = tokensOf(text);
      tokens.forEach((token, index) => {
        seen.add(token);
        if (token === first && tokens[index + 1] === second) {
          adjacent = true;
          if (text !== stored.record.description) elsewhere = true;
        }
      });
    }
    if (elsewhere) phraseElsewhere++;
    for (const token of seen) documents.set(token, (documents.get(token) ?? 0) + 1);
    if (adjacent) phrase++;
    if ((stored.record.authors as string[]).some((name) => parseAuthor(name).family === benchmarkTerms.author)) author++;
    if (seen.has(benchmarkTerms.rare)) rareIds.push(stored.record.repo_id);
  }
  return { documents, phrase, phraseElsewhere, author, rareIds };
}

const corpus = census(generateRecords(lit, corpusSize, { seed: 2024 }));
const shareOf = (token: string) => (corpus.documents.get(token.toLowerCase()) ?? 0) / corpusSize;

describe('benchmark terms in a 20 000-record LIT corpus', () => {
  it('finds the rare term seldom, and only in the records set aside for it', () => {
    expect(corpus.rareIds.length).toBeLessThanOrEqual(Math.ceil(corpusSize / rareModulus));
    for (const id of corpus.rareIds) expect(Number(id) % rareModulus).toBe(rareResidue);
  });

  it('finds the rare term about ten times per million records by construction', () => {
    // One record in each block of 100 000 consecutive ids carries it.
    const block = [...generateRecords(lit, 3, { seed: 2024, startId: 7 * rareModulus + rareResidue - 1 })];
    const carrying = block.filter((stored) => tokensOf(stored.record.description as string).includes(benchmarkTerms.rare));
    expect(carrying.map((stored) => stored.record.repo_id)).toEqual([String(7 * rareModulus + rareResidue)]);
  });

  it('finds the one-percent term in about 1% of records', () => {
    expect(shareOf(benchmarkTerms.onePercent)).toBeGreaterThan(0.007);
    expect(shareOf(benchmarkTerms.onePercent)).toBeLessThan(0.013);
  });

  it('finds the common term in over 20% (about 30%) of records', () => {
    expect(shareOf(benchmarkTerms.common)).toBeGreaterThan(0.27);
    expect(shareOf(benchmarkTerms.common)).toBeLessThan(0.33);
  });

  it('finds the nearly-all term in nearly every record', () => {
    expect(shareOf(benchmarkTerms.nearlyAll)).toBeGreaterThan(0.95);
  });

  it('finds the benchmark surname among the authors of about 0.5% of records', () => {
    expect(corpus.author / corpusSize).toBeGreaterThan(0.0035);
    expect(corpus.author / corpusSize).toBeLessThan(0.0065);
    expect(shareOf(benchmarkTerms.author)).toBeCloseTo(corpus.author / corpusSize, 6);
  });

  it('finds the phrase in about 1% of records while its words alone are far more frequent', () => {
    const phraseShare = corpus.phrase / corpusSize;
    expect(phraseShare).toBeGreaterThan(0.007);
    expect(phraseShare).toBeLessThan(0.013);
    for (const word of benchmarkTerms.phrase.split(' ')) expect(shareOf(word)).toBeGreaterThan(3 * phraseShare);
  });

  it('never lets the phrase arise by chance in titles, subjects or full texts', () => {
    expect(corpus.phraseElsewhere).toBe(0);
  });

  it('has a prefix shared by several frequent words', () => {
    const words = [...corpus.documents].filter(([token, count]) => token.startsWith(benchmarkTerms.prefix) && count / corpusSize > 0.01);
    expect(words.length).toBeGreaterThanOrEqual(5);
  });

  it('states the shares the corpus realises', () => {
    expect(benchmarkShares.onePercent).toBe(0.01);
    expect(benchmarkShares.common).toBeGreaterThan(0.2);
    expect(benchmarkShares.nearlyAll).toBeGreaterThan(0.9);
  });
});

describe('vocabulary lists', () => {
  // Any list a generator draws from; the benchmark terms may come only from benchmark sentences.
  const listed = [
    ...Object.entries(vocabulary)
      .filter(([name]) => !name.startsWith('benchmark'))
      .flatMap(([, value]) =>
        Array.isArray(value) ? value.map(String) : typeof value === 'object' ? Object.values(value).flat().map(String) : [],
      ),
    ...topics.flatMap((topic) => [
      ...topic.nouns,
      ...topic.adjectives,
      ...topic.terms,
      ...topic.places,
      ...topic.categories,
      ...topic.sponsors,
      ...topic.journals.flat(),
    ]),
    ...researchOrgs.map((org) => org.name),
    ...dataRepositories.map((repository) => repository.name),
    ...contributingOrgs,
  ].join('\n');

  it.each(['rare', 'onePercent', 'common', 'author'] as const)('never lists the %s benchmark term', (kind) => {
    expect(tokensOf(listed)).not.toContain(benchmarkTerms[kind].toLowerCase());
  });

  it('never lists the benchmark phrase as adjacent words', () => {
    expect(listed.toLowerCase()).not.toContain(benchmarkTerms.phrase);
  });
});

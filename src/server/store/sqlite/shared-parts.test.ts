import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { readUpstreamFiles } from '../../import/files';
import { realData, realFiles } from '../../import/real-files.test-support';
import type { QueryEngine } from '../engine';
import { openEngine } from './query-engine';
import { openStoreWriter } from './sqlite';

/**
 * What a generation's reader works out once and hands to every worker (store/pool/
 * facet-reader.ts): the facet values, then the type-ahead tables, then the "Did you mean"
 * vocabulary. A worker answers from what it was handed, exactly as the reader would, and
 * does not make its own: here the worker's file holds one record, the reader's all of them.
 * (A worker counts the records holding a typed word in its own file, which in a pool is the
 * reader's.)
 */

const dir = mkdtempSync(join(tmpdir(), 'records-shared-parts-'));
const lit = deploymentByKey('LIT')!;
const records = readUpstreamFiles(lit, [fileURLToPath(new URL(realFiles.litJson, realData))]);
let reader: QueryEngine;
let worker: QueryEngine;

function storeOf(name: string, count: number): string {
  const path = join(dir, name);
  const writer = openStoreWriter(path, { bulk: true });
  try {
    writer.put('LIT', records.slice(0, count));
  } finally {
    writer.close();
  }
  return path;
}

beforeAll(() => {
  reader = openEngine(storeOf('all.db', records.length), { snapshot: true });
  worker = openEngine(storeOf('one.db', 1), { snapshot: true });
  worker.warmSearch();
  // As the pool posts them: each part in its own message, so each is a copy made by structured clone.
  worker.adopt(structuredClone({ facets: reader.sharedFacets() }));
  worker.adopt(structuredClone({ completions: reader.sharedCompletions('LIT') }));
  worker.adopt(structuredClone({ words: reader.sharedWords('LIT') }));
});

afterAll(() => {
  reader?.close();
  worker?.close();
  rmSync(dir, { recursive: true, force: true });
});

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null && !ArrayBuffer.isView(value);

/** Misspellings of words the records hold, from their titles. */
const slips = () =>
  records
    .flatMap((record) => String(record.record.title ?? '').split(/\W+/))
    .filter((word) => /^[a-z]{6,}$/i.test(word))
    .slice(0, 30)
    .map((word) => word.slice(0, 2) + word[3] + word[2] + word.slice(4));

describe('parts handed to a worker', () => {
  it('give the reader’s "Did you mean" suggestions, not ones from the worker’s own records', () => {
    const searches = slips();
    const expected = searches.map((q) => reader.suggest('LIT', q));
    expect(expected.filter(Boolean).length).toBeGreaterThan(10);
    expect(searches.map((q) => worker.suggest('LIT', q))).toEqual(expected);
  });

  it('hold the spellings suggestions are made from, not the index’s every word (which each worker would make into strings)', () => {
    const handed = reader.sharedWords('LIT').get('LIT')!;
    const strings = (value: unknown): number =>
      typeof value === 'string'
        ? 1
        : Array.isArray(value)
          ? value.reduce((sum: number, item) => sum + strings(item), 0)
          : isObject(value)
            ? strings(Object.values(value))
            : 0;
    expect(handed.words.length).toBeGreaterThan(100);
    expect(strings(handed)).toBe(handed.words.length);
  });

  it('hand the facet values over from the memory the reader read them into, copying none (the reader holds them once)', () => {
    const [first, again] = [reader.sharedFacets().get('LIT')!, reader.sharedFacets().get('LIT')!];
    for (const array of ['offsets', 'codes', 'totals'] as const) {
      expect(first.facetIndex[array].buffer, array).toBeInstanceOf(SharedArrayBuffer);
      expect(again.facetIndex[array], array).toBe(first.facetIndex[array]);
    }
  });

  it('give the reader’s type-ahead values with their counts', () => {
    for (const prefix of ['a', 'ma', 'sol', 'u']) {
      const request = { fields: lit.facets.filter((facet) => facet.typeAhead).map((facet) => facet.name), prefix, limit: 10 };
      const values = reader.complete('LIT', request);
      expect(worker.complete('LIT', request), prefix).toEqual(values);
    }
    expect(reader.complete('LIT', { fields: ['author'], prefix: 'a', limit: 10 }).length).toBeGreaterThan(1);
  });

  it('give the number of records with the ranks to a worker of the same revision only', () => {
    const total = reader.count('LIT');
    expect(total).toBe(records.length);
    // The worker's file holds one record: the reader's count is not taken for it.
    worker.adopt(structuredClone({ ranks: reader.sharedRanks() }));
    expect(worker.count('LIT')).toBe(1);
    // A worker on the reader's file takes the count it was handed rather than counting again.
    const twin = openEngine(join(dir, 'all.db'), { snapshot: true });
    try {
      const ranks = reader.sharedRanks();
      const handed = new Map([...ranks].map(([key, part]) => [key, { ...part, records: part.records + 1 }]));
      twin.adopt({ ranks: handed });
      expect(twin.count('LIT')).toBe(total + 1);
    } finally {
      twin.close();
    }
  });
});

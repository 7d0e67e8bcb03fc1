import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey, deployments } from '../../../deployments/registry';
import type { DeploymentKey } from '../../../deployments/schema';
import { generateRecords } from '../../corpus/generate';
import { readUpstreamFiles } from '../../import/files';
import { realData, realFiles } from '../../import/real-files.test-support';
import type { StoredRecord } from '../types';
import { openEngine } from './query-engine';
import { bodyCodec, dictionaryOf } from './record-bodies';
import { openSqliteRecordWriter } from './record-writer';
import { openStoreWriter } from './sqlite';

const dir = mkdtempSync(join(tmpdir(), 'records-bodies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const real = (file: string) => new URL(file, realData).pathname;

/** Writes `batches` (in order, each one put) into a new store and reads every record back by repo_id and by id. */
function writtenAndRead(name: string, key: DeploymentKey, batches: readonly (readonly StoredRecord[])[]) {
  const path = join(dir, `${name}.db`);
  const writer = openStoreWriter(path);
  for (const batch of batches) writer.put(key, batch);
  writer.close();
  const engine = openEngine(path);
  try {
    const last = new Map(batches.flat().map((stored) => [stored.record.repo_id, stored]));
    const db = new Database(path, { readonly: true });
    const ids = db.prepare(`SELECT id FROM ${key.toLowerCase()}_records ORDER BY id`).pluck().all() as number[];
    db.close();
    return {
      expected: [...last.values()],
      byRepoId: [...last.keys()].map((repoId) => engine.get(key, repoId)?.record),
      fetched: engine.fetch(key, ids).docs,
      fulltexts: [...last.keys()].map((repoId) => engine.fulltext(key, repoId)),
    };
  } finally {
    engine.close();
  }
}

describe('record bodies', () => {
  it('decode to the JSON they were encoded from, whatever the text and the dictionary', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 40 }), (json, firsts) => {
        const codec = bodyCodec(dictionaryOf(firsts));
        expect(codec.decode(codec.encode(json))).toBe(json);
      }),
      { numRuns: 200 },
    );
  });

  it('read back as written for generated records of every deployment, replaced ones too, with their full text', () => {
    let run = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...deployments.map(({ key }) => key)),
        fc.nat({ max: 1000 }),
        fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { minLength: 1, maxLength: 5 }),
        (key, seed, titles) => {
          const pool = [...generateRecords(deploymentByKey(key)!, 30, { seed })];
          // A second write replaces some records with other titles: their bodies are written again against the same dictionary.
          const replaced = titles.map((title, i) => ({
            ...pool[(i * 7) % pool.length]!,
            record: { ...pool[(i * 7) % pool.length]!.record, title },
          }));
          const { expected, byRepoId, fetched, fulltexts } = writtenAndRead(`generated-${run++}`, key, [pool, replaced]);
          expect(byRepoId).toEqual(expected.map(({ record }) => record));
          expect(new Set(fetched)).toEqual(new Set(expected.map(({ record }) => JSON.stringify(record))));
          expect(fulltexts).toEqual(expected.map(({ fulltext }) => fulltext || undefined));
        },
      ),
      { numRuns: 8 },
    );
  }, 120_000);

  it('read back as written for the real records shipped with the project', () => {
    const files: [DeploymentKey, string[]][] = [
      ['LIT', [realFiles.litJson, realFiles.litXml]],
      ['DC1', [realFiles.geothermal, realFiles.plasma]],
    ];
    for (const [key, names] of files) {
      const records = readUpstreamFiles(deploymentByKey(key)!, names.map(real));
      // Written a few at a time, as a harvest writes them: the dictionary is chosen from the first write's records only.
      const batches = Array.from({ length: Math.ceil(records.length / 50) }, (_, i) => records.slice(i * 50, i * 50 + 50));
      const { expected, byRepoId, fetched } = writtenAndRead(`real-${key}`, key, batches);
      expect(expected.length).toBeGreaterThan(30);
      expect(byRepoId).toEqual(expected.map(({ record }) => record));
      expect(fetched).toEqual(expected.map(({ record }) => JSON.stringify(record)));
    }
  }, 60_000);

  it('are read for a page in the order its ids are asked, an id asked twice given twice and a missing one skipped', () => {
    const path = join(dir, 'page.db');
    const records = [...generateRecords(deploymentByKey('LIT')!, 30, { seed: 5 })];
    const writer = openStoreWriter(path);
    writer.put('LIT', records);
    writer.close();
    const engine = openEngine(path);
    try {
      const json = (id: number) => JSON.stringify(records[id - 1]!.record);
      expect(engine.fetch('LIT', Float64Array.of(17, 3, 999, 3, 30, 1)).docs).toEqual([17, 3, 3, 30, 1].map(json));
      expect(engine.fetch('LIT', []).docs).toEqual([]);
    } finally {
      engine.close();
    }
  });

  it('are known unchanged by a harvest, so an unchanged record is not written again', async () => {
    const path = join(dir, 'changed.db');
    const records = [...generateRecords(deploymentByKey('LIT')!, 20, { seed: 4 })];
    const writer = await openSqliteRecordWriter(path);
    expect(await writer.changed('LIT', records)).toHaveLength(20);
    await writer.put('LIT', records);
    const edited = { ...records[3]!, record: { ...records[3]!.record, title: 'Another title' } };
    expect(await writer.changed('LIT', [...records, edited])).toEqual([edited]);
    await writer.close();
  });

  it('and the text searched are kept once: the pages holding them take less than the records as JSON', () => {
    const path = join(dir, 'size.db');
    const records = [...generateRecords(deploymentByKey('LIT')!, 400, { seed: 9 })];
    const writer = openStoreWriter(path);
    writer.put('LIT', records);
    writer.close();
    const db = new Database(path, { readonly: true });
    try {
      // The records' rows and any table of their text (the layouts before 15 kept it again beside them).
      const bytes = db
        .prepare(`SELECT sum(pgsize) FROM dbstat WHERE name IN ('lit_records', 'lit_text') AND aggregate = TRUE`)
        .pluck()
        .get() as number;
      const json = records.reduce(
        (sum, { record, fulltext }) => sum + Buffer.byteLength(JSON.stringify(record)) + (fulltext?.length ?? 0),
        0,
      );
      expect(bytes).toBeLessThan(json * 0.75);
    } finally {
      db.close();
    }
  });
});

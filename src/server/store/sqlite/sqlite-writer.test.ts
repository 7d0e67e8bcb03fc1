import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { parseListRequest } from '../../http/criteria';
import { parseQueryString } from '../../http/query-string';
import { openEngine } from './query-engine';
import { openStoreWriter } from './sqlite';
import { decodeKeyChunk } from './key-lists';

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-writer-'));
const require = createRequire(import.meta.url);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A reader on its own thread and connection that reads, over and over until told to stop,
 * the record count, the postings' row count and the revision in one snapshot, and reports
 * every combination it saw and every error.
 */
function startReader(path: string, stop: Int32Array) {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const Database = require(workerData.driver);
     const db = new Database(workerData.path, { readonly: true });
     const stop = new Int32Array(workerData.stop);
     const seen = new Set();
     const errors = [];
     let reads = 0;
     const snapshot = db.transaction(() => [
       db.prepare('SELECT count(*) FROM lit_records').pluck().get(),
       db.prepare('SELECT rows FROM lit_lengths').pluck().get(),
       db.prepare("SELECT value FROM meta WHERE key = 'revision'").pluck().get(),
     ]);
     while (Atomics.load(stop, 0) === 0) {
       try {
         seen.add(JSON.stringify(snapshot()));
         reads++;
         Atomics.store(stop, 1, reads);
       } catch (error) {
         errors.push(String(error));
       }
     }
     db.close();
     parentPort.postMessage({ reads, seen: [...seen], errors });`,
    { eval: true, workerData: { path, driver: require.resolve('better-sqlite3'), stop: stop.buffer } },
  );
  return new Promise<{ reads: number; seen: string[]; errors: string[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('writing into a database that is being read', () => {
  it('readers on other connections see each put whole or not at all, without errors, and a snapshot under way keeps its state', async () => {
    const path = join(dir, 'concurrent.db');
    const writer = openStoreWriter(path);
    const all = [...generateRecords(lit, 600, { seed: 9 })];
    writer.put('LIT', all.slice(0, 200));

    // A read under way when a put commits finishes on its snapshot.
    const held = new Database(path, { readonly: true });
    held.exec('BEGIN');
    const countBefore = held.prepare('SELECT count(*) FROM lit_records').pluck().get();
    writer.put('LIT', all.slice(200, 250));
    expect(held.prepare('SELECT count(*) FROM lit_records').pluck().get()).toBe(countBefore);
    expect(held.prepare('SELECT rows FROM lit_lengths').pluck().get()).toBe(countBefore);
    held.exec('COMMIT');
    expect(held.prepare('SELECT count(*) FROM lit_records').pluck().get()).toBe(250);
    held.close();

    const stop = new Int32Array(new SharedArrayBuffer(8));
    const report = startReader(path, stop);
    while (Atomics.load(stop, 1) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const committed = new Set<string>();
    const revision = () => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare("SELECT value FROM meta WHERE key = 'revision'").pluck().get() as string;
      } finally {
        db.close();
      }
    };
    committed.add(JSON.stringify([250, 250, revision()]));
    // Replacements (the first 100 again, retitled) and additions, in batches.
    for (let start = 250; start < 600; start += 50) {
      const replaced = all
        .slice(start - 250, start - 200)
        .map((stored) => ({ ...stored, record: { ...stored.record, title: `Zyzzyvated ${stored.record.title}` } }));
      writer.put('LIT', [...replaced, ...all.slice(start, start + 50)]);
      committed.add(JSON.stringify([start + 50, start + 50, revision()]));
    }
    Atomics.store(stop, 0, 1);
    const { reads, seen, errors } = await report;
    writer.close();

    expect(errors).toEqual([]);
    expect(reads).toBeGreaterThan(0);
    expect(seen.length, 'the reader saw more than one committed state').toBeGreaterThan(1);
    // Every state a reader saw is one a put committed: records, postings and revision together.
    for (const state of seen) expect(committed.has(state), state).toBe(true);

    const engine = openEngine(path);
    try {
      const criteria = parseListRequest(lit, parseQueryString('q=zyzzyvated')).criteria;
      expect(engine.rank('LIT', criteria, 1000).total).toBe(350);
    } finally {
      engine.close();
    }
  }, 60_000);
});

describe('what a store file keeps', () => {
  it('no FTS5 index and no index of keys by record: a replaced record has exactly its new keys, drawn again from its row to delete the old', () => {
    const path = join(dir, 'keys.db');
    const writer = openStoreWriter(path);
    const [first, second] = generateRecords(lit, 2, { seed: 11 });
    const before = { ...first!, site: 'OSTI', generated: true, record: { ...first!.record, doi: '10.1234/before', language: 'French' } };
    const after = {
      ...first!,
      site: 'ANL',
      generated: false,
      record: { ...first!.record, doi: '10.1234/after', language: 'German', authors: ['Okafor, Chidi'] },
    };
    writer.put('LIT', [before, second!]);
    writer.put('LIT', [after]);
    writer.close();
    const db = new Database(path, { readonly: true });
    try {
      expect(db.prepare(`SELECT name FROM sqlite_schema WHERE sql LIKE '%fts5%' OR name LIKE 'lit_keys_%'`).pluck().all()).toEqual([]);
      const lists = db.prepare(`SELECT name, value, chunk, data FROM lit_keys`).raw().all() as [string, string, number, Uint8Array][];
      // Facet values are kept once, in the facet columns, not again beside the keys.
      expect(lists.filter(([name]) => name.startsWith('facet:'))).toEqual([]);
      const keysOf = (repoId: string) => {
        const id = db.prepare(`SELECT id FROM lit_records WHERE repo_id = ?`).pluck().get(repoId) as number;
        return lists
          .filter(([, , chunk, data]) => decodeKeyChunk(chunk, data).includes(id))
          .map(([name, value]) => `${name}=${value}`)
          .sort();
      };
      const keys = keysOf(String(first!.record.repo_id));
      expect(keys).toEqual(expect.arrayContaining(['doi=10.1234/after', 'language=german', 'site=anl', 'author_name=okafor, c']));
      expect(keys.filter((key) => /before|french|osti|origin=/.test(key))).toEqual([]);
      // The other record kept its keys.
      expect(keysOf(String(second!.record.repo_id)).length).toBeGreaterThan(5);
    } finally {
      db.close();
    }
    const engine = openEngine(path);
    try {
      const total = (query: string) => engine.rank('LIT', parseListRequest(lit, parseQueryString(query)).criteria, 20).total;
      expect([total('doi=10.1234/after'), total('doi=10.1234/before'), total('q=okafor'), total('q=temperature&language=french')]).toEqual([
        1, 0, 1, 0,
      ]);
      // A deployment no write has reached has no postings, and finds nothing.
      expect(engine.rank('DC1', parseListRequest(deploymentByKey('DC1')!, parseQueryString('q=data')).criteria, 20).total).toBe(0);
    } finally {
      engine.close();
    }
  });
});

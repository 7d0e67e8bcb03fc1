import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { openPooledStore } from './pooled-store';
import { reloadingStore } from './reloading-store';
import { openStoreWriter } from './sqlite/sqlite';

/**
 * A served file's write-ahead log stays bounded: each generation's workers pin a snapshot,
 * and once a generation serves alone they move it off the log, which is emptied
 * (sqlite/snapshot-move.ts). Before, each generation pinned the log in turn and it grew by
 * every write for as long as the file was served.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-served-log-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/** Resolves when `generation` (or a later one) has released the log. */
function releases() {
  let released = 0;
  let waiting: { generation: number; resolve: () => void }[] = [];
  return {
    onLogReleased(generation: number) {
      released = Math.max(released, generation);
      waiting = waiting.filter((wait) => (wait.generation <= released ? (wait.resolve(), false) : true));
    },
    after: (generation: number) =>
      new Promise<void>((resolve) => (generation <= released ? resolve() : waiting.push({ generation, resolve }))),
  };
}

/** Enough writes that a log keeping each would pass twice the first three's size. */
const writes = 8;

describe(`a served file written ${writes} times`, () => {
  it('keeps its write-ahead log within one write of empty', { timeout: 240_000 }, async () => {
    const path = join(dir, 'served.db');
    const bulk = openStoreWriter(path, { bulk: true });
    bulk.put('LIT', generateRecords(lit, 300, { seed: 3, startId: 1 }));
    bulk.close();
    const writer = openStoreWriter(path);
    const log = releases();
    let served = 0;
    const store = await reloadingStore(path, (file) => openPooledStore(file, { size: 2 }), {
      checkMs: 20,
      log: () => undefined,
      onGeneration: (generation, facets) => facets && (served = generation),
      onLogReleased: log.onLogReleased,
    });
    const afterWrite: number[] = [];
    try {
      for (let batch = 0; batch < writes; batch++) {
        const generation = served + 1;
        writer.put('LIT', generateRecords(lit, 40, { seed: 10 + batch, startId: 1000 + batch * 40 }));
        afterWrite.push(sizeOf(`${path}-wal`));
        // Served (a new generation) and the old one gone: the log is emptied.
        await log.after(generation);
        expect(sizeOf(`${path}-wal`)).toBe(0);
      }
      // Each write starts the log again from its beginning: it never holds more than one.
      const bound = 2 * Math.max(...afterWrite.slice(0, 3));
      expect(Math.max(...afterWrite)).toBeLessThanOrEqual(bound);
      expect(await store.count('LIT')).toBe(300 + writes * 40);
    } finally {
      await store.close();
      writer.close();
    }
  });
});

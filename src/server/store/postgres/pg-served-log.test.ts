import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { openPooledStore } from '../pooled-store';
import { openPgStore } from './pg-store';
import { openPgRecordWriter } from './pg-writer';
import { postgresUnavailable, startCluster } from './cluster.test-support';

/**
 * A PostgreSQL server's local index, served as a SQLite file is, keeps its write-ahead log
 * bounded: once the generation serving a write serves alone, the log is emptied
 * (sqlite/snapshot-move.ts). Before, it grew by every change the index applied.
 */

const unavailable = postgresUnavailable();
if (unavailable) console.log(`PostgreSQL index log test skipped: ${unavailable}`);

const lit = deploymentByKey('LIT')!;

const sizeOf = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/** Enough writes that a log keeping each would pass twice the first three's size. */
const writes = 8;

describe.skipIf(unavailable)(`a PostgreSQL server’s local index following ${writes} writes`, () => {
  it('keeps its write-ahead log within one write of empty', { timeout: 300_000 }, async () => {
    const cluster = await startCluster();
    const indexDir = mkdtempSync(join(tmpdir(), 'records-pg-log-'));
    let released = 0;
    let waiting: { generation: number; resolve: () => void }[] = [];
    const releasedAfter = (generation: number) =>
      new Promise<void>((resolve) => (generation <= released ? resolve() : waiting.push({ generation, resolve })));
    try {
      const writer = await openPgRecordWriter(cluster.primary.url);
      await writer.put('LIT', generateRecords(lit, 300, { seed: 3, startId: 1 }));
      const store = await openPgStore(cluster.primary.url, {
        indexDir,
        pollMs: 100,
        open: (path) => openPooledStore(path, { size: 2 }),
        log: () => undefined,
        onLogReleased(generation) {
          released = Math.max(released, generation);
          waiting = waiting.filter((wait) => (wait.generation <= released ? (wait.resolve(), false) : true));
        },
      });
      const wal = () =>
        sizeOf(
          join(
            indexDir,
            readdirSync(indexDir).find((name) => name.endsWith('.db'))!,
          ) + '-wal',
        );
      const afterWrite: number[] = [];
      try {
        for (let batch = 0; batch < writes; batch++) {
          // Each write is served by a generation newer than the one whose release was last seen.
          const next = released + 1;
          await writer.put('LIT', generateRecords(lit, 40, { seed: 10 + batch, startId: 1000 + batch * 40 }));
          await store.caughtUp();
          afterWrite.push(wal());
          await releasedAfter(next);
          expect(wal()).toBe(0);
        }
        const bound = 2 * Math.max(...afterWrite.slice(0, 3));
        expect(Math.max(...afterWrite)).toBeLessThanOrEqual(bound);
        expect(await store.count('LIT')).toBe(300 + writes * 40);
      } finally {
        await store.close();
        await writer.close();
      }
    } finally {
      rmSync(indexDir, { recursive: true, force: true });
      await cluster.destroy();
    }
  });
});

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { keptPlaceOf } from '../pool/kept-parts';
import { partKinds } from '../pool/part-chunks';
import { openPooledStore } from '../pooled-store';
import { openPgStore, type PgStore } from './pg-store';
import { openPgRecordWriter } from './pg-writer';
import { postgresUnavailable, startCluster } from './cluster.test-support';
import { expectFacetsAsWrittenAtOnce } from './fresh-facets.test-support';

/**
 * A PostgreSQL server restarted before its facet reader had made every part (type-ahead and
 * vocabularies take a while at a million records): the restarted server reads the facet values
 * as kept, and its first write's generation still takes the facet index over from them rather
 * than reading every facet column again (which grows with the store, and is what a write's
 * facets then wait for). Before, the file written anew after the kept facet values lost the
 * columns' state kept beside them.
 */

const unavailable = postgresUnavailable();
if (unavailable) console.log(`PostgreSQL restart facets test skipped: ${unavailable}`);

const lit = deploymentByKey('LIT')!;

/** The kept file cut after its facet columns' state: what a server stopped right after its reader kept the facet values leaves. */
function cutAfterColumns(file: string): void {
  const data = readFileSync(file);
  for (let at = 0; at + 9 <= data.length;) {
    const end = at + 8 + Number(data.readBigUInt64LE(at));
    if (data[at + 8] === partKinds.columns) return writeFileSync(file, data.subarray(0, end));
    at = end;
  }
  throw new Error(`no facet columns' state in ${file}`);
}

describe.skipIf(unavailable)('a PostgreSQL server restarted before its facet reader ended', () => {
  it('takes its first write’s facet index over from the kept one, counting as a store written at once', { timeout: 300_000 }, async () => {
    const cluster = await startCluster();
    const indexDir = mkdtempSync(join(tmpdir(), 'records-pg-restart-'));
    const lines: string[] = [];
    const serve = () =>
      openPgStore(cluster.primary.url, {
        indexDir,
        pollMs: 3_600_000,
        open: (path) => openPooledStore(path, { size: 1, log: (line) => lines.push(line) }),
        log: () => undefined,
      });
    const first = [...generateRecords(lit, 300, { seed: 3, startId: 1 })];
    // Values for stored records and new ones.
    const second = [...generateRecords(lit, 120, { seed: 5, startId: 250 })];
    let store: PgStore | undefined;
    let keptFile: string | undefined;
    try {
      const writer = await openPgRecordWriter(cluster.primary.url);
      try {
        await writer.put('LIT', first);
        store = await serve();
        const indexPath = join(
          indexDir,
          readdirSync(indexDir).find((name) => name.endsWith('.db'))!,
        );
        keptFile = keptPlaceOf(indexPath, new URL('file:///worker.cjs')).file;
        // Type-ahead is made after the facet values and their columns' state are kept.
        await store.complete!('LIT', { fields: ['subject'], prefix: 'a', limit: 1 });
        await store.close();
        store = undefined;
        cutAfterColumns(keptFile);

        lines.length = 0;
        store = await serve();
        expect(lines).toContainEqual(expect.stringMatching(/^facet values read as kept/));
        // The restarted reader has written the kept file anew by the time it makes type-ahead.
        await store.complete!('LIT', { fields: ['subject'], prefix: 'a', limit: 1 });
        await writer.put('LIT', second);
        await store.caughtUp();
      } finally {
        await writer.close();
      }
      expect(lines).toContainEqual(expect.stringMatching(/^facet values: LIT: taken over from the generation before/));

      await expectFacetsAsWrittenAtOnce(store, [...first, ...second], indexDir, ['', 'publication_date_start=01/01/2010']);
    } finally {
      await store?.close();
      if (keptFile) rmSync(keptFile, { force: true });
      rmSync(indexDir, { recursive: true, force: true });
      await cluster.destroy();
    }
  });
});

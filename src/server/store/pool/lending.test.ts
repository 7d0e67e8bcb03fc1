import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { parseListRequest } from '../../http/criteria';
import { parseQueryString } from '../../http/query-string';
import { countTakenJob, takeJob, type CountJob } from '../facets/count-sharing';
import { openPooledStore, type PoolOptions } from '../pooled-store';
import { openStore, openStoreWriter } from '../sqlite/sqlite';
import type { FacetRequest, RecordStore } from '../types';

/**
 * A worker lent to another's facet count (lending.ts) that is slow, or fails half-way, never
 * changes an answer: the poster counts the rest itself and never reads the helper's counts.
 * The pool and the posting worker are real; the lent worker's part is played here, where the
 * pool hands it the job, so the test decides when (and whether) the helper finishes.
 */

const lit = deploymentByKey('LIT')!;
const everyFacet: FacetRequest[] = lit.facets.map(({ name }) => ({ name, limit: 20, offset: 0, sort: 'count' as const }));
const searches = ['q=reactor', 'facet.language=English', 'q=energy OR reactor&exclude.publication_year=2001'];
let dir: string;
let path: string;
let own: RecordStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pool-lending-'));
  path = join(dir, 'records.db');
  const writer = openStoreWriter(path);
  writer.put('LIT', generateRecords(lit, 300, { seed: 17 }));
  writer.close();
  own = openStore(path);
});

afterAll(async () => {
  await own?.close();
  rmSync(dir, { recursive: true, force: true });
});

const criteriaOf = (search: string) => parseListRequest(lit, parseQueryString(search)).criteria;

/** A helper's counts half written: what a slow or failing helper has left when its poster looks. */
const partly = (job: CountJob) => job.passes.forEach(({ out }) => out.fill(7, 0, Math.min(3, out.length)));

/**
 * A pool whose lent workers are played by `helper`: it is handed each job the pool lends, and
 * says through `free` when the lent worker would tell the pool it is free again.
 */
async function withHelper(
  size: number,
  sharing: NonNullable<PoolOptions['sharing']>,
  helper: (job: CountJob, free: (counted: boolean) => void) => void,
  use: (pool: RecordStore) => Promise<void>,
) {
  const onWorker = (worker: Worker) => {
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message: object) => {
      if (!('help' in message)) return post(message);
      helper((message as { help: CountJob }).help, (counted) => worker.emit('message', { helped: counted }));
    };
  };
  // The poster waits for its job to be taken, so every count below is shared.
  const pool = await openPooledStore(path, { size, cacheBytes: 0, sharing, onWorker });
  try {
    await pool.facetsWarm;
    await use(pool);
  } finally {
    await pool.close();
  }
}

describe('a lent worker that is slow or fails', () => {
  it('is not waited for past the pool’s helper patience, and its counts, written late, never reach an answer', async () => {
    // Every other job is lent to a slow helper, which finishes it only while the next job is counted.
    let late: { job: CountJob; free: (counted: boolean) => void } | undefined;
    let slow = 0;
    let prompt = 0;
    const helper = (job: CountJob, free: (counted: boolean) => void) => {
      expect(takeJob(job)).toBe(true);
      Atomics.notify(job.state, 0);
      const finishing = late;
      late = undefined;
      if (finishing) {
        countTakenJob(finishing.job);
        finishing.free(true);
        countTakenJob(job);
        free(true);
        prompt++;
      } else {
        // Still counting when its poster's patience ends: half its counts are written.
        partly(job);
        late = { job, free };
        slow++;
      }
    };
    // Four workers: the slow helper stays lent while the next count borrows another.
    await withHelper(4, { fromRecords: 1, waitMs: 60_000, helperPatienceMs: 1 }, helper, async (pool) => {
      for (const search of [...searches, ...searches]) {
        const criteria = criteriaOf(search);
        expect(await pool.facets('LIT', criteria, everyFacet), search).toEqual(await own.facets('LIT', criteria, everyFacet));
      }
      expect([slow, prompt]).toEqual([searches.length, searches.length]);
    });
  });

  it('that fails half-way is not waited for, whatever the patience, and its counts never reach an answer', async () => {
    let failures = 0;
    const helper = (job: CountJob, free: (counted: boolean) => void) => {
      expect(takeJob(job)).toBe(true);
      const failing: CountJob = {
        ...job,
        passes: {
          [Symbol.iterator]() {
            partly(job);
            throw new Error('the helper ran out of memory');
          },
        } as unknown as CountJob['passes'],
      };
      expect(() => countTakenJob(failing)).toThrow(/out of memory/);
      failures++;
      free(false);
    };
    // A poster that waited out its patience for a failed helper would outlast the test's time limit.
    // Three workers: one counts, one is lent, one stays free for lookups.
    await withHelper(3, { fromRecords: 1, waitMs: 60_000, helperPatienceMs: 600_000 }, helper, async (pool) => {
      for (const search of searches) {
        const criteria = criteriaOf(search);
        expect(await pool.facets('LIT', criteria, everyFacet), search).toEqual(await own.facets('LIT', criteria, everyFacet));
      }
      expect(failures).toBe(searches.length);
    });
  });
});

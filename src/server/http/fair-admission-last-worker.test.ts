import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { CostBook } from '../store/admission';
import { openPooledStore } from '../store/pooled-store';
import { openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore } from '../store/types';
import { HeldWorkers, statusThrough } from './held-workers.test-support';
import { startServer, type RunningServer } from './server';

/**
 * Two search workers (and one for records), two clients flooding one kind of request, and
 * a person who searched a moment ago: the flood holds one search worker, and the person's
 * next search takes the other as it comes, not after a flood request (pool/scheduler.ts).
 */

const lit = deploymentByKey('LIT')!;
const floodSize = 6;

/** Every kind cheap: only who holds the workers keeps the last one from the flood. */
class CheapPrices extends CostBook {
  override priceOf(): number {
    return 1;
  }
  override isDear(): boolean {
    return false;
  }
  override charge(): void {}
}

let dir: string;
let server: RunningServer;
const workers = new HeldWorkers();
/** Facets requests that have reached the store. */
let facetsAsked = 0;

/** The store as the server sees it, counting the facets requests that reach it. */
function counting(store: RecordStore): RecordStore {
  return {
    ...store,
    facets: (...args) => {
      facetsAsked++;
      return store.facets(...args);
    },
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fair-last-worker-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path, { bulk: true });
  writer.put('LIT', generateRecords(lit, 800, { seed: 43 }));
  writer.close();
  const store = await openPooledStore(path, { size: 3, cacheBytes: 0, costs: new CheapPrices(), onWorker: workers.onWorker });
  server = await startServer({ store: counting(store), port: 0 });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const fetchFrom = (agent: Agent, path: string) => statusThrough(agent, `${server.url}${path}`);

/** Resolves once `done()` says so, looking again after each turn of the event loop. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

describe('the last free search worker', () => {
  it('is kept from two clients flooding one kind while a person searches, and taken by the person’s search at once', async () => {
    const agents = ['127.0.0.2', '127.0.0.3', '127.0.0.4'].map(
      (localAddress) => new Agent({ keepAlive: true, maxSockets: floodSize, localAddress }),
    );
    const [first, second, person] = agents as [Agent, Agent, Agent];
    try {
      expect(await fetchFrom(person, `${lit.basePath}/records?q=energy`)).toBe(200);
      workers.hold();
      const before = workers.given.length;
      const asked = facetsAsked;
      const flood = Array.from({ length: floodSize }, (_, i) =>
        fetchFrom(i % 2 ? second : first, `${lit.basePath}/facets?facet_offset=${i % 3}`),
      );
      // Every flood request waits in the pool (nothing is answered while held), so had the
      // flood a second worker it would have it now.
      await until(() => facetsAsked === asked + floodSize);
      const search = fetchFrom(person, `${lit.basePath}/records?q=solar`);
      await until(() => workers.given.length >= before + 2);
      expect(workers.given.slice(before, before + 2)).toEqual(['facets', 'rankRender']);
      workers.release();
      expect(await Promise.all([...flood, search])).toEqual(Array<number>(floodSize + 1).fill(200));
    } finally {
      workers.release();
      for (const agent of agents) agent.destroy();
    }
  });
});

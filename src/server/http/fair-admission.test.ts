import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { CostBook, type Admission } from '../store/admission';
import { openPooledStore } from '../store/pooled-store';
import { openStoreWriter } from '../store/sqlite/sqlite';
import { clientOfAddress } from './client-address';
import { startServer, type RunningServer } from './server';

/**
 * The worker pool shares its workers between clients, and a client is the address a request
 * comes from: a person's search waits for one request of a client flooding the server, not
 * for every request the flood has queued, even when the flood's requests are the cheaper.
 */

const lit = deploymentByKey('LIT')!;
const floodSize = 20;

/** Facets priced cheap, searches dearer (never dear); the count of facets requests priced (= queued) so far. */
class FakePrices extends CostBook {
  facetsPriced = 0;
  private readonly waiters: { count: number; resolve: () => void }[] = [];
  override priceOf({ kind }: Admission): number {
    if (!kind.startsWith('facets')) return 30;
    this.facetsPriced++;
    for (const waiter of this.waiters.filter(({ count }) => this.facetsPriced >= count)) waiter.resolve();
    return 1;
  }
  override isDear(): boolean {
    return false;
  }
  override charge(): void {}
  /** Resolves once `count` facets requests have reached the pool. */
  priced(count: number): Promise<void> {
    return new Promise((resolve) => (this.facetsPriced >= count ? resolve() : this.waiters.push({ count, resolve })));
  }
}

let dir: string;
let server: RunningServer;
const costs = new FakePrices();
/** The operations the workers are given, in the order given. */
const given: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fair-admission-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path, { bulk: true });
  writer.put('LIT', generateRecords(lit, 1500, { seed: 41 }));
  writer.close();
  const onWorker = (worker: Worker) => {
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message: { op?: string }) => {
      if (message.op) given.push(message.op);
      post(message);
    };
  };
  // One search worker (the other is kept for record lookups): the order of searches is all the pool decides.
  const store = await openPooledStore(path, { size: 2, cacheBytes: 0, costs, onWorker });
  server = await startServer({ store, port: 0 });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

function fetchFrom(agent: Agent, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(`${server.url}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

describe('admission fair by client', () => {
  it('runs a person’s search before most of a flood of cheaper requests from another address', async () => {
    const flooder = new Agent({ keepAlive: true, maxSockets: floodSize, localAddress: '127.0.0.2' });
    const person = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.3' });
    try {
      const flood = Array.from({ length: floodSize }, (_, i) => fetchFrom(flooder, `${lit.basePath}/facets?facet_offset=${i % 3}`));
      await costs.priced(floodSize);
      const search = fetchFrom(person, `${lit.basePath}/records?q=energy`);
      expect(await Promise.all([...flood, search])).toEqual(Array<number>(floodSize + 1).fill(200));
      const at = given.findIndex((op) => op !== 'facets');
      // The person's search waits for the facets running when it came (and any finished by then), not for the rest.
      expect(given.slice(at + 1).filter((op) => op === 'facets').length).toBeGreaterThan(floodSize / 2);
    } finally {
      flooder.destroy();
      person.destroy();
    }
  });
});

describe('the client a request is counted against', () => {
  it('is its IPv4 address, however it is written', () => {
    expect(clientOfAddress('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOfAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, so one host cannot be many clients', () => {
    expect(clientOfAddress('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientOfAddress('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(clientOfAddress('2001:0db8::7')).toBe('2001:db8:0:0::/64');
    expect(clientOfAddress('::1')).toBe('0:0:0:0::/64');
    expect(clientOfAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('is one client for requests whose address is unknown', () => {
    expect(clientOfAddress(undefined)).toBe('unknown');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { CostBook, type Admission } from '../store/admission';
import { openPooledStore } from '../store/pooled-store';
import { openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore } from '../store/types';
import { clientOfAddress } from './client-address';
import { HeldWorkers, statusThrough } from './held-workers.test-support';
import { startServer, type RunningServer } from './server';

/**
 * The worker pool shares its workers between clients, and a client is the address a request
 * comes from: a person's search waits for one request of a client flooding the server, not
 * for every request the flood has queued, even when the flood's requests are the cheaper.
 */

const lit = deploymentByKey('LIT')!;
const floodSize = 20;

/** Facets priced cheap, searches dearer (never dear). */
class FakePrices extends CostBook {
  override priceOf({ kind }: Admission): number {
    return kind.startsWith('facets') ? 1 : 30;
  }
  override isDear(): boolean {
    return false;
  }
  override charge(): void {}
}

let dir: string;
let server: RunningServer;
const costs = new FakePrices();
const workers = new HeldWorkers();
/** Requests that have reached the store, by operation, and who waits for a count of them. */
const arrived = new Map<string, number>();
const arrivals: { op: string; count: number; resolve: () => void }[] = [];
const reached = (op: string, count: number) =>
  new Promise<void>((resolve) => ((arrived.get(op) ?? 0) >= count ? resolve() : arrivals.push({ op, count, resolve })));

/** The store as the server sees it, counting what reaches it. */
function counting(store: RecordStore): RecordStore {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const answer: unknown = value.apply(target, args);
        const op = String(name);
        arrived.set(op, (arrived.get(op) ?? 0) + 1);
        for (const waiter of arrivals.filter((each) => each.op === op && arrived.get(op)! >= each.count)) waiter.resolve();
        return answer;
      };
    },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fair-admission-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path, { bulk: true });
  writer.put('LIT', generateRecords(lit, 1500, { seed: 41 }));
  writer.close();
  // One search worker (the other is kept for record lookups): the order of searches is all the pool decides.
  const store = await openPooledStore(path, { size: 2, cacheBytes: 0, costs, onWorker: workers.onWorker });
  server = await startServer({ store: counting(store), port: 0 });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const fetchFrom = (agent: Agent, path: string) => statusThrough(agent, `${server.url}${path}`);

describe('admission fair by client', () => {
  it('runs a person’s search before most of a flood of cheaper requests from another address', async () => {
    const flooder = new Agent({ keepAlive: true, maxSockets: floodSize, localAddress: '127.0.0.2' });
    const person = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.3' });
    try {
      // The worker gets nothing until the whole flood and the search wait in the queue, so the
      // order it then takes them in is the pool's choice alone, however fast the machine.
      workers.hold();
      const searches = arrived.get('page') ?? 0;
      const flood = Array.from({ length: floodSize }, (_, i) => fetchFrom(flooder, `${lit.basePath}/facets?facet_offset=${i % 3}`));
      await reached('facets', floodSize);
      const search = fetchFrom(person, `${lit.basePath}/records?q=energy`);
      await reached('page', searches + 1);
      await new Promise((resolve) => setImmediate(resolve));
      workers.release();
      expect(await Promise.all([...flood, search])).toEqual(Array<number>(floodSize + 1).fill(200));
      const at = workers.given.findIndex((op) => op !== 'facets');
      // The person's search waits for the facets running when it came (and any finished by then), not for the rest.
      expect(workers.given.slice(at + 1).filter((op) => op === 'facets').length).toBeGreaterThan(floodSize / 2);
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

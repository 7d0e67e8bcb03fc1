import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import type { DeploymentKey } from '../../deployments/schema';
import { generateRecords } from '../corpus/generate';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import { cachedStore } from './cached-store';
import type { EngineCalls } from './engine-calls';
import { asClient } from './client';
import { openPooledStore } from './pooled-store';
import { openStoreWriter } from './sqlite/sqlite';
import type { Criteria, RecordStore } from './types';

/**
 * The cache of search orders: a repeated search is answered without ranking again, and
 * with a budget of 0 (`records serve --search-cache-mb 0`) every search is ranked afresh
 * with the same results, while identical searches in flight are still ranked once.
 */

const lit = deploymentByKey('LIT')!;
const criteria = (query: string): Criteria => parseListRequest(lit, parseQueryString(query)).criteria;

/** A body of the records' ids, one a line. */
const rendered = (docs: readonly string[]) => {
  const ids = docs.map((doc) => (JSON.parse(doc) as { repo_id: string }).repo_id);
  return { body: Buffer.from(ids.join('\n')), etag: ids.join(','), generated: [] };
};

/** An engine of 100 records ordered by id, counting its ranking calls; `gate` holds them back until opened. */
function fakeEngine() {
  const docs = (ids: ArrayLike<number>) => ({ docs: Array.from(ids, (id) => JSON.stringify({ repo_id: String(id) })), generated: [] });
  let open: () => void = () => undefined;
  let gate: Promise<void> | undefined;
  async function rankPage(_key: DeploymentKey, _criteria: Criteria, need: number, offset: number, limit: number) {
    engine.rankCalls++;
    await gate;
    const ids = Int32Array.from({ length: Math.min(need, 100) }, (_, i) => i + 1);
    return { total: 100, ids, complete: need >= 100, ...docs(ids.subarray(offset, offset + limit)) };
  }
  const engine = {
    rankCalls: 0,
    hold() {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release: () => open(),
    calls: {
      revision: 'fake',
      rankPage,
      fetch: async (_key: DeploymentKey, ids: Int32Array) => docs(ids),
      async rankRender(key: DeploymentKey, search: Criteria, need: number, offset: number, limit: number) {
        const { docs: window, generated: _generated, ...ranked } = await rankPage(key, search, need, offset, limit);
        return { ...ranked, page: rendered(window) };
      },
      render: async (_key: DeploymentKey, ids: Int32Array) => rendered(docs(ids).docs),
      facets: async () => ({ total: 100, facets: [] }),
      get: async () => undefined,
      fulltext: async () => undefined,
      count: async () => 100,
      suggest: async () => undefined,
      complete: async () => [],
      close: async () => undefined,
    } satisfies EngineCalls,
  };
  return engine;
}

const repoIds = (result: { records: readonly { repo_id: string }[] }) => result.records.map((record) => record.repo_id);

describe('the cache of search orders', () => {
  it('answers a repeated search and its next page without ranking again', async () => {
    const engine = fakeEngine();
    const store = cachedStore(engine.calls, { minDepth: 30 });
    const first = await store.search('LIT', criteria('q=wind&rows=10'));
    const again = await store.search('LIT', criteria('q=wind&rows=10'));
    const next = await store.search('LIT', criteria('q=wind&rows=10&page=2'));
    expect(engine.rankCalls).toBe(1);
    expect(repoIds(again)).toEqual(repoIds(first));
    expect(repoIds(next)).toEqual(['11', '12', '13', '14', '15', '16', '17', '18', '19', '20']);
  });

  it('ranks a first page with the next one only, and a search paged further once, deep: for searches and rendered pages alike', async () => {
    const engine = fakeEngine();
    const store = cachedStore(engine.calls);
    const rendering = { format: 'json', origin: 'http://localhost', bibtexPrefix: '' } as const;
    const first = await store.page!('LIT', criteria('q=wind&rows=10'), rendering);
    const second = await store.page!('LIT', criteria('q=wind&rows=10&page=2'), rendering);
    expect(engine.rankCalls).toBe(1);
    const searched = await store.search('LIT', criteria('q=wind&rows=10&page=3'));
    const beyond = await store.page!('LIT', criteria('q=wind&rows=10&page=11'), rendering);
    await store.search('LIT', criteria('q=wind&rows=10&page=9'));
    expect(engine.rankCalls).toBe(2);
    expect(first).toMatchObject({ total: 100, etag: '1,2,3,4,5,6,7,8,9,10' });
    expect(String(second.body)).toBe('11\n12\n13\n14\n15\n16\n17\n18\n19\n20');
    expect(repoIds(searched)[0]).toBe('21');
    expect({ total: beyond.total, body: String(beyond.body) }).toEqual({ total: 100, body: '' });
  });

  it('with a budget of 0 keeps nothing: every search reaches the engine and gets the same answer', async () => {
    const engine = fakeEngine();
    const store = cachedStore(engine.calls, { budgetBytes: 0 });
    const first = await store.search('LIT', criteria('q=wind&rows=10'));
    const again = await store.search('LIT', criteria('q=wind&rows=10'));
    const next = await store.search('LIT', criteria('q=wind&rows=10&page=2'));
    expect(engine.rankCalls).toBe(3);
    expect({ total: again.total, ids: repoIds(again) }).toEqual({ total: first.total, ids: repoIds(first) });
    expect(repoIds(next)[0]).toBe('11');
  });

  it('with a budget of 0 still ranks identical searches in flight once', async () => {
    const engine = fakeEngine();
    const store = cachedStore(engine.calls, { budgetBytes: 0 });
    engine.hold();
    const both = Promise.all([store.search('LIT', criteria('q=wind&rows=10')), store.search('LIT', criteria('q=wind&rows=10&page=2'))]);
    engine.release();
    const [first, second] = await both;
    expect(engine.rankCalls).toBe(1);
    expect(repoIds(first)[0]).toBe('1');
    expect(repoIds(second)[0]).toBe('11');
    // Once it has finished, nothing of it is left to answer from.
    await store.search('LIT', criteria('q=wind&rows=10'));
    expect(engine.rankCalls).toBe(2);
  });

  it('does not make one client wait for another’s search in flight, which waits that client’s turn', async () => {
    const engine = fakeEngine();
    const store = cachedStore(engine.calls, { budgetBytes: 0 });
    engine.hold();
    const flood = asClient('flooder', () => store.search('LIT', criteria('q=wind&rows=10')));
    const person = asClient('person', () => store.search('LIT', criteria('q=wind&rows=10')));
    expect(engine.rankCalls).toBe(2);
    engine.release();
    expect(repoIds(await person)).toEqual(repoIds(await flood));
  });
});

describe('the worker-thread store with the cache off', () => {
  let dir: string;
  let store: RecordStore;
  let ranked = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cache-off-'));
    const path = join(dir, 'records.db');
    const writer = openStoreWriter(path);
    writer.put('LIT', generateRecords(lit, 300, { seed: 5 }));
    writer.close();
    store = await openPooledStore(path, {
      size: 2,
      cacheBytes: 0,
      // Only a ranking reply carries an order's ids.
      onWorker: (worker) => worker.on('message', (reply: { value?: { ids?: unknown } }) => void (reply.value?.ids && ranked++)),
    });
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ranks two identical searches on the workers both times, with identical results', async () => {
    const search = criteria('q=data&rows=20');
    const first = await store.search('LIT', search);
    const second = await store.search('LIT', search);
    expect(ranked).toBe(2);
    expect(first.total).toBeGreaterThan(20);
    expect({ total: second.total, ids: repoIds(second) }).toEqual({ total: first.total, ids: repoIds(first) });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { searchColumns } from '../../deployments/schema';
import { generateRecords } from '../corpus/generate';
import { admissionOf, CostBook } from './admission';
import { asClient } from './client';
import { openPooledStore } from './pooled-store';
import { openStoreWriter } from './sqlite/sqlite';
import { parseQuery } from '../query/parse';
import { StoreOverloaded, type Criteria, type RecordStore } from './types';

const lit = deploymentByKey('LIT')!;
const workers: Worker[] = [];
let dir: string;
let store: RecordStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pooled-store-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path);
  writer.put('LIT', generateRecords(lit, 50, { seed: 3 }));
  writer.close();
  store = await openPooledStore(path, { size: 2, onWorker: (worker) => workers.push(worker) });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the worker-thread store', () => {
  it('answers from its workers', async () => {
    expect(await store.count('LIT')).toBe(50);
    expect((await store.get('LIT', '50000001'))?.record.repo_id).toBe('50000001');
  });

  it('fails only the requests a dying worker held, and keeps answering with a replacement', async () => {
    await store.count('LIT'); // both workers are up
    const started = workers.length;
    // Requests spread over both workers; then both die before they can answer.
    const inFlight = Promise.allSettled([store.get('LIT', '50000002'), store.get('LIT', '50000003')]);
    await Promise.all(workers.slice(0, started).map((worker) => worker.terminate()));
    const outcomes = await inFlight;
    for (const outcome of outcomes) {
      // A request either finished before its worker stopped or failed with a clear error.
      if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/store worker stopped/);
    }
    expect(workers.length).toBe(started + 2);
    expect((await store.get('LIT', '50000004'))?.record.repo_id).toBe('50000004');
    expect(await store.count('LIT')).toBe(50);
  });
});

describe('a pool ready with fewer workers than it has', () => {
  const everything: Criteria = { text: [], exact: [], dates: [], sort: 'relevance', order: 'desc', offset: 0, limit: 20 };

  /** Each worker the pool starts, and each that says it is warm, in the order they came. */
  function startsAndReadies() {
    const events: string[] = [];
    let allReady!: () => void;
    const ready = new Promise<void>((resolve) => (allReady = resolve));
    const onWorker = (worker: Worker) => {
      const n = events.filter((event) => event.startsWith('started')).length + 1;
      events.push(`started ${n}`);
      const onReady = (message: unknown) => {
        if (typeof message !== 'object' || message === null || !('ready' in message)) return;
        worker.off('message', onReady);
        events.push(`ready ${n}`);
        if (events.filter((event) => event.startsWith('ready')).length === 3) allReady();
      };
      worker.on('message', onReady);
    };
    return { events, ready, onWorker };
  }

  it('opens once its first two are warm, starts the third once it has answered, and answers all the while', async () => {
    const { events, ready, onWorker } = startsAndReadies();
    const pool = await openPooledStore(join(dir, 'records.db'), { size: 3, readyWith: 2, cacheBytes: 0, onWorker, holdBackMs: 60_000 });
    try {
      expect(events.filter((event) => event.startsWith('started'))).toEqual(['started 1', 'started 2']);
      expect((await pool.search('LIT', everything)).total).toBe(50);
      await ready;
      expect(events.filter((event) => event.startsWith('started'))).toHaveLength(3);
      const ids = ['50000001', '50000002', '50000003'];
      expect((await Promise.all(ids.map((id) => pool.get('LIT', id)))).map((found) => found?.record.repo_id)).toEqual(ids);
    } finally {
      await pool.close();
    }
  });

  it('starts the third as soon as a search has to wait for a worker', async () => {
    const { events, ready, onWorker } = startsAndReadies();
    const pool = await openPooledStore(join(dir, 'records.db'), { size: 3, readyWith: 2, cacheBytes: 0, onWorker, holdBackMs: 60_000 });
    try {
      // Three searches unlike each other (none waits for another's order), with two workers.
      const words = ['alpha', 'beta', 'gamma'].map((word) => ({
        ...everything,
        text: [{ columns: searchColumns, query: parseQuery(word)! }],
      }));
      await Promise.all(words.map((criteria) => pool.search('LIT', criteria).then(() => events.push('answered'))));
      await ready;
      expect(events.indexOf('started 3')).toBeLessThan(events.findIndex((event) => event.startsWith('answered')));
    } finally {
      await pool.close();
    }
  });

  it('hands out type-ahead before its first answers, though it holds the rest of its reading back until then', async () => {
    const pool = await openPooledStore(join(dir, 'records.db'), { size: 3, readyWith: 2, cacheBytes: 0, holdBackMs: 60_000 });
    try {
      const completed = await pool.complete!('LIT', { fields: ['subject'], prefix: 'a', limit: 5 });
      expect(completed.length).toBeGreaterThan(0);
      expect(completed.every(({ field, value }) => field === 'subject' && /(^|\W)a/i.test(value))).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('starts every worker before any is warm unless told otherwise', async () => {
    const { events, ready, onWorker } = startsAndReadies();
    const pool = await openPooledStore(join(dir, 'records.db'), { size: 3, cacheBytes: 0, onWorker });
    try {
      await ready;
      expect(events.slice(0, 3)).toEqual(['started 1', 'started 2', 'started 3']);
    } finally {
      await pool.close();
    }
  });
});

describe('a pool with one search worker', () => {
  it('answers a bulk page when nothing else is asked', { timeout: 30_000 }, async () => {
    // Nobody else has asked lately: it takes the one search worker at once.
    const criteria: Criteria = { text: [], exact: [], dates: [], sort: 'relevance', order: 'desc', offset: 0, limit: 1000 };
    expect(admissionOf('rankPage', ['LIT', criteria]).bulk).toBe(true);
    const page = await store.search('LIT', criteria);
    expect(page.total).toBe(50);
  });
});

describe('admission and the time budget', () => {
  let big: string;
  beforeAll(() => {
    big = join(dir, 'big.db');
    const writer = openStoreWriter(big, { bulk: true });
    writer.put('LIT', generateRecords(lit, 4000, { seed: 5 }));
    writer.close();
  });

  /** Short prefixes OR-ed: about the most a search may cost (query/cost.ts), read from every expanded word. */
  const expensive = (i: number): Criteria => ({
    text: [{ columns: searchColumns, query: parseQuery(`a* OR e* OR i* OR o* OR ${'bcdfghjklmnpqrstvwxyz'[i]}*`)! }],
    exact: [],
    dates: [],
    sort: 'relevance',
    order: 'desc',
    offset: 0,
    limit: 20,
  });

  it('answers a record lookup before the searches queued ahead of it', async () => {
    const pool = await openPooledStore(big, { size: 2, cacheBytes: 0 });
    try {
      await pool.count('LIT');
      const finished: string[] = [];
      const searches = Array.from({ length: 8 }, (_, i) => pool.search('LIT', expensive(i)).then(() => finished.push(`search ${i}`)));
      const started = performance.now();
      const record = await pool.get('LIT', '50000007');
      const waited = performance.now() - started;
      finished.push('record');
      await Promise.all(searches);
      expect(record?.record.repo_id).toBe('50000007');
      // Searches hold one worker at most; the other is free for lookups.
      expect(finished.indexOf('record')).toBeLessThanOrEqual(1);
      expect(waited).toBeLessThan(2_000);
    } finally {
      await pool.close();
    }
  });

  it('answers a search past its budget as overloaded and keeps serving with a fresh worker', async () => {
    const started: Worker[] = [];
    const pool = await openPooledStore(big, {
      size: 2,
      budgetMs: 1,
      cacheBytes: 0,
      onWorker: (worker) => started.push(worker),
    });
    try {
      await pool.count('LIT');
      const outcome = await pool.search('LIT', expensive(0)).then(
        () => 'answered',
        (error: unknown) => error,
      );
      expect(outcome).toBeInstanceOf(StoreOverloaded);
      expect((outcome as Error).message).toMatch(/took longer than 0.001 s/);
      expect(started.length).toBe(3);
      expect((await pool.get('LIT', '50000009'))?.record.repo_id).toBe('50000009');
    } finally {
      await pool.close();
    }
  });

  it('refuses searches beyond its queue at once', async () => {
    const pool = await openPooledStore(big, { size: 2, maxQueued: 2, cacheBytes: 0 });
    try {
      await Promise.all([pool.count('LIT'), pool.count('LIT')]);
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => pool.search('LIT', expensive(i))));
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      // One runs, two wait, the rest are refused as overloaded.
      expect(refused.length).toBe(3);
      for (const outcome of refused) expect(outcome.reason).toBeInstanceOf(StoreOverloaded);
    } finally {
      await pool.close();
    }
  });

  it('runs a search that names a repo_id under the budget like any other search', async () => {
    const pool = await openPooledStore(big, { size: 2, budgetMs: 1, cacheBytes: 0 });
    try {
      const outcome = await pool.search('LIT', { ...expensive(0), repoIds: ['50000003'] }).then(
        () => 'answered',
        (error: unknown) => error,
      );
      expect(outcome).toBeInstanceOf(StoreOverloaded);
    } finally {
      await pool.close();
    }
  });

  const allFacets = lit.facets.map(({ name }) => ({ name, limit: 10, offset: 0, sort: 'count' as const }));
  const noQuery: Criteria = { ...expensive(0), text: [] };
  const rare: Criteria = { ...expensive(0), text: [{ columns: searchColumns, query: parseQuery('zebra')! }] };

  /** The requests the workers are given, in the order given (not the facet values handed to them). */
  const requestsGiven = () => {
    const given: string[] = [];
    const onWorker = (worker: Worker) => {
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message: { op?: string }) => {
        if (message.op) given.push(message.op);
        post(message);
      };
    };
    return { given, onWorker };
  };

  it('admits searches by what their kind has cost: a flood of dear facets holds one worker, and a cheap search goes first', async () => {
    const costs = new CostBook();
    // As measured earlier: facets without a query proved dear, a one-word search cheap.
    costs.charge(admissionOf('facets', ['LIT', noQuery, allFacets]).kind, 400);
    costs.charge(admissionOf('rankPage', ['LIT', rare, 200, 0, 20]).kind, 1);
    const { given, onWorker } = requestsGiven();
    const pool = await openPooledStore(big, { size: 3, cacheBytes: 0, costs, onWorker });
    try {
      const flood = Array.from({ length: 3 }, () => pool.facets('LIT', noQuery, allFacets));
      const search = pool.search('LIT', rare);
      await Promise.all([...flood, search]);
      // One dear request at a time; the search is given the other worker before the rest of the flood.
      expect(given).toEqual(['facets', 'rankPage', 'facets', 'facets']);
    } finally {
      await pool.close();
    }
  });

  it('shares its workers between clients: a search waits for one of a flooding client’s, not for all of them', async () => {
    const costs = new CostBook();
    // The flood is of a kind measured cheap, the person's search of a dearer (not dear) one.
    costs.charge(admissionOf('facets', ['LIT', noQuery, allFacets]).kind, 1);
    costs.charge(admissionOf('rankPage', ['LIT', rare, 200, 0, 20]).kind, 30);
    const { given, onWorker } = requestsGiven();
    // One search worker: who goes next is all the pool decides.
    const pool = await openPooledStore(big, { size: 2, cacheBytes: 0, costs, onWorker });
    try {
      const flood = Array.from({ length: 6 }, () => asClient('flooder', () => pool.facets('LIT', noQuery, allFacets)));
      const search = asClient('person', () => pool.search('LIT', rare));
      await Promise.all([...flood, search]);
      expect(given).toEqual(['facets', 'rankPage', 'facets', 'facets', 'facets', 'facets', 'facets']);
    } finally {
      await pool.close();
    }
  });

  it('lets a dear search that has waited its patience out take the last worker beside cheap ones, but not beside a dear one', async () => {
    const costs = new CostBook();
    costs.charge(admissionOf('facets', ['LIT', noQuery, allFacets]).kind, 400);
    costs.charge(admissionOf('rankPage', ['LIT', rare, 200, 0, 20]).kind, 1);
    const word = (text: string): Criteria => ({ ...rare, text: [{ columns: searchColumns, query: parseQuery(text)! }] });
    const order = async (patienceMs: number, another: 'another client asked' | 'nobody else asked') => {
      const { given, onWorker } = requestsGiven();
      const pool = await openPooledStore(big, { size: 3, cacheBytes: 0, costs, onWorker, patienceMs });
      try {
        if (another === 'another client asked') await asClient('another', () => pool.search('LIT', word('plasma')));
        // A cheap search holds one search worker; then a dear one, then cheap ones again, then another dear one.
        await Promise.all([
          pool.search('LIT', word('zebra')),
          pool.facets('LIT', noQuery, allFacets),
          pool.search('LIT', word('quartz')),
          pool.facets('LIT', noQuery, allFacets),
        ]);
        return given.slice(another === 'another client asked' ? 1 : 0);
      } finally {
        await pool.close();
      }
    };
    // Patient: while another client has asked lately, the dear searches wait for both workers to be free.
    expect(await order(60_000, 'another client asked')).toEqual(['rankPage', 'rankPage', 'facets', 'facets']);
    // No patience: the first dear search goes as soon as a worker is free, the cheap one waits for it.
    expect(await order(0, 'another client asked')).toEqual(['rankPage', 'facets', 'rankPage', 'facets']);
    // Nobody else has asked lately (a person's page, its results and its facets): the dear search goes beside the cheap one at once.
    expect(await order(60_000, 'nobody else asked')).toEqual(['rankPage', 'facets', 'rankPage', 'facets']);
  });

  it('charges each kind of search the time it took', async () => {
    const costs = new CostBook();
    const charged = new Map<string, number>();
    const charge = costs.charge.bind(costs);
    costs.charge = (kind, ms) => {
      charged.set(kind, ms);
      charge(kind, ms);
    };
    const pool = await openPooledStore(big, { size: 2, cacheBytes: 0, costs });
    try {
      await pool.facets('LIT', noQuery, allFacets);
      const kind = admissionOf('facets', ['LIT', noQuery, allFacets]).kind;
      expect(charged.get(kind)).toBeGreaterThan(0);
      expect(costs.priceOf(admissionOf('facets', ['LIT', noQuery, allFacets]))).toBe(charged.get(kind));
    } finally {
      await pool.close();
    }
  });
});

import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { searchColumns } from '../../deployments/schema';
import { generateRecords } from '../corpus/generate';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import { parseQuery } from '../query/parse';
import { openPooledStore, type PoolOptions } from './pooled-store';
import { reloadingStore } from './reloading-store';
import { openStore, openStoreWriter } from './sqlite/sqlite';
import { StoreOverloaded, type Criteria, type FacetRequest, type RecordStore } from './types';

/**
 * Generations of a served file and the workers behind them: a reload is served only once its
 * workers are warm (the old generation answers meanwhile), and a file that cannot be read
 * sends no worker into a loop of restarts: they back off, and the log has one line when the
 * file becomes unreadable and one when it can be read again.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-generations-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(target: string, count: number, startId: number) {
  const writer = openStoreWriter(target);
  try {
    writer.put('LIT', generateRecords(lit, count, { seed: 5, startId }));
  } finally {
    writer.close();
  }
}

/** Lines of a log, and a promise for the first line (from now) that contains `text`. */
function logBook() {
  const lines: string[] = [];
  const waiting: { text: string; resolve: () => void }[] = [];
  return {
    lines,
    log(line: string) {
      lines.push(line);
      for (const wait of waiting.filter((candidate) => line.includes(candidate.text))) wait.resolve();
    },
    next: (text: string) => new Promise<void>((resolve) => waiting.push({ text, resolve })),
  };
}

describe('a reload', () => {
  it('takes over only when its workers are warm, and the old generation answers meanwhile', async () => {
    const path = join(dir, 'reload.db');
    write(path, 200, 1);
    const ready = new Set<Worker>();
    const takeovers: boolean[] = [];
    const open = async (file: string) => {
      const started: Worker[] = [];
      const store = await openPooledStore(file, {
        size: 2,
        onWorker: (worker) => {
          started.push(worker);
          worker.on('message', (message: { ready?: boolean }) => message.ready && ready.add(worker));
        },
      });
      takeovers.push(started.every((worker) => ready.has(worker)));
      return store;
    };
    let generationReady!: () => void;
    const secondGeneration = new Promise<void>((resolve) => (generationReady = resolve));
    const store = await reloadingStore(path, open, { checkMs: 20, log: () => undefined, onGeneration: () => generationReady() });
    try {
      write(path, 50, 1001);
      // Asked while the new generation warms up: answered by the old one.
      expect(await store.get('LIT', '1')).toBeDefined();
      await secondGeneration;
      expect(takeovers).toEqual([true, true]);
      expect(await store.get('LIT', '1001')).toBeDefined();
    } finally {
      await store.close();
    }
  });
});

const everything: Criteria = { text: [], exact: [], dates: [], sort: 'relevance', order: 'desc', offset: 0, limit: 10 };
const everyFacet: FacetRequest[] = lit.facets.map(({ name }) => ({ name, limit: 20, offset: 0, sort: 'count' as const }));

/** A pool over 300 new records in `name`, beside a store that reads the file itself, both closed after `use`. */
async function poolBesideOwn(name: string, options: PoolOptions, use: (pool: RecordStore, own: RecordStore) => Promise<void>) {
  const path = join(dir, name);
  write(path, 300, 1);
  const pool = await openPooledStore(path, options);
  const own = openStore(path);
  try {
    await pool.facetsWarm;
    await use(pool, own);
  } finally {
    await pool.close();
    await own.close();
  }
}

/** Facets of `search` (a query string) from both stores. */
const facetsOfBoth = (pool: RecordStore, own: RecordStore, search: string) => {
  const { criteria } = parseListRequest(lit, parseQueryString(search));
  return Promise.all([pool.facets('LIT', criteria, everyFacet), own.facets('LIT', criteria, everyFacet)]);
};

describe('facet values read once per generation', () => {
  it('give every worker the counts a store reading its own gives', async () => {
    await poolBesideOwn('shared-facets.db', { size: 3 }, async (pool, own) => {
      const criteria: Criteria = { ...everything, text: [{ columns: searchColumns, query: parseQuery('reactor')! }] };
      const expected = await own.facets('LIT', criteria, everyFacet);
      // As many at once as there are workers, so each answers one.
      const answers = await Promise.all([1, 2, 3].map(() => pool.facets('LIT', criteria, everyFacet)));
      for (const answer of answers) expect(answer).toEqual(expected);
    });
  });

  it('give the same counts when a free worker counts half of them', async () => {
    let helped: (took: boolean) => void = () => {};
    const nextHelp = () => new Promise<boolean>((resolve) => (helped = resolve));
    // From the first record, and the poster waits for its helper: every request below is shared.
    const sharing = { fromRecords: 1, waitMs: 60_000 };
    await poolBesideOwn('count-sharing.db', { size: 3, sharing, onHelped: (took) => helped(took) }, async (pool, own) => {
      const searches = [
        'q=reactor',
        'q=energy OR reactor&facet.product_type=Journal Article&exclude.publication_year=2001',
        'facet.language=English',
      ];
      for (const search of searches) {
        const help = nextHelp();
        const [pooled, alone] = await facetsOfBoth(pool, own, search);
        expect(pooled).toEqual(alone);
        // Another worker counted half (its word may come after the answer).
        expect(await help).toBe(true);
      }
    });
  });

  it('give the same counts for many searches at once, each worker counting its own or lent to another', async () => {
    let lent!: () => void;
    // A helper's word may come after the answer it helped with.
    const someLent = new Promise<void>((resolve) => (lent = resolve));
    const sharing = { fromRecords: 1, waitMs: 60_000 };
    await poolBesideOwn('concurrent-sharing.db', { size: 4, sharing, onHelped: (took) => took && lent() }, async (pool, own) => {
      const searches = ['q=reactor', 'q=energy', 'facet.language=English', 'q=system OR model', 'exclude.publication_year=2001', ''];
      // Twice each, all at once: workers post halves, take others' and answer at the same time.
      const answers = await Promise.all([...searches, ...searches].map((search) => facetsOfBoth(pool, own, search)));
      for (const [pooled, alone] of answers) expect(pooled).toEqual(alone);
      // The last alone finds two workers free: its half is lent.
      const [pooled, alone] = await facetsOfBoth(pool, own, 'q=plasma');
      expect(pooled).toEqual(alone);
      await someLent;
    });
  });

  it('count alone when lending a worker would leave none free for lookups', async () => {
    // What the pool hands its workers: a lent worker is handed the job before its poster can answer.
    const lent: unknown[] = [];
    const onWorker = (worker: Worker) => {
      const post = worker.postMessage.bind(worker);
      worker.postMessage = (message: object) => {
        if ('help' in message) lent.push(message);
        post(message);
      };
    };
    // Two workers: while one counts, the other is the one kept for lookups. A poster whose
    // job the pool neither lent nor declined would wait out the test's time limit.
    const sharing = { fromRecords: 1, waitMs: 60_000 };
    await poolBesideOwn('counting-alone.db', { size: 2, sharing, onWorker }, async (pool, own) => {
      const [pooled, alone] = await facetsOfBoth(pool, own, 'q=reactor');
      expect(pooled).toEqual(alone);
      expect(lent).toEqual([]);
      expect(await pool.count('LIT')).toBe(300);
    });
  });

  it('let a new generation answer searches at once and facets once it has read them, the old one answering facets meanwhile', async () => {
    const path = join(dir, 'facets-later.db');
    write(path, 200, 1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened = 0;
    // The second generation's facet values are "read" only when the test says so.
    const open = async (file: string): Promise<RecordStore> => {
      const store = await openPooledStore(file, { size: 2 });
      return ++opened === 1 ? store : { ...store, facetsWarm: store.facetsWarm!.then(() => held) };
    };
    const switched: { count: number; facets: boolean; resolve: () => void }[] = [];
    const generation = (count: number, facets: boolean) => new Promise<void>((resolve) => switched.push({ count, facets, resolve }));
    const store = await reloadingStore(path, open, {
      checkMs: 20,
      log: () => undefined,
      onGeneration: (count, facets) => switched.filter((s) => s.count === count && s.facets === facets).forEach((s) => s.resolve()),
    });
    try {
      const searches = generation(2, false);
      const facets = generation(2, true);
      write(path, 50, 1001);
      await searches;
      expect((await store.search('LIT', everything)).total).toBe(250);
      expect((await store.facets('LIT', everything, everyFacet)).total).toBe(200);
      release();
      await facets;
      expect((await store.facets('LIT', everything, everyFacet)).total).toBe(250);
    } finally {
      await store.close();
    }
  });
});

describe('a file that cannot be read', () => {
  it('restarts workers after growing pauses, logs once when unreadable and once when readable, and answers 503 with no worker left', async () => {
    const path = join(dir, 'unreadable.db');
    const away = join(dir, 'away.db');
    write(path, 100, 1);
    const book = logBook();
    const workers: Worker[] = [];
    let started = 0;
    let startedWaiters: { count: number; resolve: () => void }[] = [];
    const pool = await openPooledStore(path, {
      size: 2,
      restartMs: 20,
      maxRestartMs: 200,
      log: book.log,
      onWorker: (worker) => {
        workers.push(worker);
        started++;
        startedWaiters = startedWaiters.filter((wait) => (started >= wait.count ? (wait.resolve(), false) : true));
      },
    });
    const startedAtLeast = (count: number) => new Promise<void>((resolve) => startedWaiters.push({ count, resolve }));
    // Its facet values are read after it opens; read before the file goes away, so the log is the workers' alone.
    await pool.facetsWarm;
    try {
      expect(await pool.count('LIT')).toBe(100);
      renameSync(path, away);
      const unreadable = book.next('cannot read');
      // A worker stops (as one replaced after the time budget does); its replacement cannot open the file.
      await workers[0]!.terminate();
      await unreadable;
      // The next restarts come after pauses, and say nothing more.
      await startedAtLeast(started + 3);
      expect(book.lines.filter((line) => line.includes('cannot read'))).toHaveLength(1);
      // The other worker still answers.
      expect((await pool.get('LIT', '7'))?.record.repo_id).toBe('7');

      // With no worker left, a request is answered as unavailable with the reason, at once.
      await workers[1]!.terminate();
      await startedAtLeast(started + 1);
      const outcome = await pool.count('LIT').then(
        () => 'answered',
        (error: unknown) => error,
      );
      expect(outcome).toBeInstanceOf(StoreOverloaded);
      expect((outcome as Error).message).toMatch(/cannot be read now/);

      const readable = book.next('can be read again');
      renameSync(away, path);
      await readable;
      expect(book.lines).toHaveLength(2);
      // Requests are answered again (a worker that can read is back; the other follows).
      let count: number | undefined;
      while (count === undefined) count = await pool.count('LIT').catch(() => undefined);
      expect(count).toBe(100);
    } finally {
      await pool.close();
    }
  });
});

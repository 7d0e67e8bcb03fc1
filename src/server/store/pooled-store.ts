import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { cachedStore, type EngineCalls } from './cached-store';
import { openEngine, type Ranked, type SharedFacets } from './engine';
import type { AdoptFacets, HelpWith, MoveSnapshot, StoreReply, WorkerSettings } from './store-worker';
import type { SnapshotMove } from './sqlite/snapshot-move';
import { declineHelp, type CountJob } from './shared-counting';
import type { RenderedBody } from './rendered-page';
import { admissionOf, CostBook, type Op } from './admission';
import { currentClient } from './client';
import { SearchScheduler } from './pool/scheduler';
import { StoreOverloaded, type RecordStore } from './types';
import { bundledModule } from '../module-bundle.js';

/**
 * A RecordStore whose queries run on worker threads, each with its own read-only SQLite
 * connection, so a slow query never blocks the event loop. Each worker runs one request at
 * a time; requests wait here, in two lanes (admission.ts): lookups (a record by its key, a
 * short page of records by id) take any free worker first, while searches may occupy all
 * workers but one, so a record is never stuck behind expensive searches. Searches are
 * shared fairly between clients, then priced by what their kind took when it ran, cheaper
 * first (pool/scheduler.ts), and the last free search worker is kept from dear ones, so no
 * client's flood makes another client wait for more than a search, and a flood of dear ones
 * leaves a worker for cheap ones. Every
 * search, whatever its parameters, runs under the time budget: past it, its worker is
 * replaced (SQLite cannot be interrupted from here) and it is answered as overloaded, as
 * are searches beyond the queue's bound. The cache of search orders and totals
 * (cached-store.ts) lives in the main thread, shared by all.
 *
 * The pool is handed out once its workers are warm for searches. The facet values (seconds
 * to read at a million records) are read once, by a worker of their own that hands them to
 * every worker on shared memory and ends (`facetsWarm`): a server whose data changed answers
 * searches from the new data while the previous pool still answers facets
 * (reloading-store.ts), and a pool holds one copy of them, not one per worker. A worker
 * counting a broad search's facets may be lent a free worker for half of the count
 * (shared-counting.ts), while another stays free for lookups.
 */

interface Job {
  readonly op: Op;
  /** Who asked (client.ts): searches are shared fairly between clients (pool/scheduler.ts). */
  readonly client: string;
  readonly args: unknown[];
  readonly search: boolean;
  readonly kind: string;
  /**
   * Milliseconds, as its kind has cost so far (admission.ts), and whether that is dear: read
   * when asked, so a search waits by what its kind costs now, not by one slow run of it
   * measured in a busy moment before it came.
   */
  readonly cost: number;
  readonly dear: boolean;
  /** When it was queued (performance.now()). */
  readonly queued: number;
  started?: number;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Warmed up and taking requests (store-worker.ts says so). */
  ready: boolean;
  job?: Job;
  budget?: NodeJS.Timeout;
  /** Why the worker could not start (its opening error), if it could not. */
  startError?: string;
  /** The pause before a worker that could not start is started again. */
  restart?: NodeJS.Timeout;
  /** Counting half of another worker's facets (shared-counting.ts): busy, though it holds no job. */
  helping?: boolean;
  /** Its snapshot is to be moved off the log once it is idle (snapshot-move.ts); busy once sent. */
  move?: { sent: boolean; readonly resolve: (moved: SnapshotMove) => void };
}

/** A search's time budget unless `records serve --query-budget-ms` says otherwise. */
export const defaultBudgetMs = 10_000;

/** How long a search waits at most before it goes ahead of its client's cheaper ones (PoolOptions.patienceMs). */
const defaultPatienceMs = 1_000;

const workerEntry = new URL('./store-worker.ts', import.meta.url);

/**
 * A worker's short-lived objects are small (its postings are typed arrays outside the
 * heap), yet V8's default lets each worker's young generation grow to tens of megabytes,
 * which stay claimed while the server is busy: with three workers, a fifth of its memory.
 */
const workerYoungGenerationMb = 12;

export interface PoolOptions {
  /** Workers; one more than the cores, since one is kept free for record lookups. */
  readonly size?: number;
  /** How long one search may run before its worker is replaced and it is answered as overloaded. */
  readonly budgetMs?: number;
  /** Searches that may wait for a worker; one more is answered as overloaded at once. */
  readonly maxQueued?: number;
  /**
   * How long a search may wait before it goes ahead of its client's cheaper ones, dear or
   * not: cheapest first alone would keep a dearer search waiting for as long as cheaper ones
   * keep coming.
   */
  readonly patienceMs?: number;
  /** The prices searches are admitted by (admission.ts); tests pass one they have charged. */
  readonly costs?: CostBook;
  /** Called with each worker started, replacements included (tests use it to stop one). */
  readonly onWorker?: (worker: Worker) => void;
  /** Budget of the cache of search orders in this thread (cached-store.ts); 0 turns it off. */
  readonly cacheBytes?: number;
  /** The first pause before a worker that could not start is started again; it doubles up to `maxRestartMs`. */
  readonly restartMs?: number;
  readonly maxRestartMs?: number;
  /** Where the one line per change of state goes (the file cannot be read / can be read again). */
  readonly log?: (line: string) => void;
  /**
   * When a worker counting a broad search's facets may hand half of the count to a free
   * one (shared-counting.ts): from how many records, and (tests) how long it waits for the
   * helper.
   */
  readonly sharing?: WorkerSettings['sharing'];
  /** Called when a worker was lent to another's count, with whether it counted (tests use it). */
  readonly onHelped?: (counted: boolean) => void;
}

/** Records of a facets count before half of it is handed to a free worker: below, the trip costs more than it saves. */
const shareCountsFrom = 50_000;

/** A body rendered by a worker arrives as the bytes of the Buffer it was (a Uint8Array). */
function bodyOf(page: RenderedBody): RenderedBody {
  const buffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { body, encoded } = page;
  return { ...page, body: buffer(body), ...(encoded && { encoded: { ...encoded, body: buffer(encoded.body) } }) };
}

export async function openPooledStore(
  path: string,
  {
    size = availableParallelism() + 1,
    budgetMs = defaultBudgetMs,
    maxQueued = 256,
    patienceMs = defaultPatienceMs,
    onWorker,
    cacheBytes,
    costs = new CostBook(),
    restartMs = 250,
    maxRestartMs = 30_000,
    log = (line: string) => console.error(`records: ${line}`),
    sharing = { fromRecords: shareCountsFrom },
    onHelped,
  }: PoolOptions = {},
): Promise<RecordStore> {
  // Opening once here checks the file and reads the revision before any worker starts.
  const probe = openEngine(path);
  const revision = probe.revision;
  probe.close();
  const script = await bundledModule(workerEntry);

  let closing = false;
  const lookups: Job[] = [];
  const searches = new SearchScheduler<Job>({ patienceMs, capacity: maxQueued });
  const searchWorkers = Math.max(1, size - 1);
  /** Why workers cannot start now (the file cannot be read), while they cannot. */
  let unreadable: string | undefined;
  let startFailures = 0;
  // The pool is handed out only once every worker has warmed up and said so.
  let warm = false;
  let settleWarm!: { resolve: () => void; reject: (error: Error) => void };
  const warmed = new Promise<void>((resolve, reject) => (settleWarm = { resolve, reject }));

  const unavailable = () => new StoreOverloaded(`The database cannot be read now (${unreadable}); try again later.`);

  // A worker that dies (a native crash, running out of memory) fails only the request it
  // held; a fresh worker takes its place so later requests are still answered. One that
  // cannot even start (the file became unreadable) is started again after growing pauses.
  function spawn(slot: Slot): void {
    const worker = new Worker(script, {
      workerData: { path, role: 'search', sharing } satisfies WorkerSettings,
      resourceLimits: { maxYoungGenerationSizeMb: workerYoungGenerationMb },
    });
    // A worker started again takes the facet values before any request.
    if (facets) worker.postMessage({ adopt: facets } satisfies AdoptFacets);
    slot.worker = worker;
    slot.ready = false;
    slot.helping = false;
    // A replacement opens its own snapshot: the move is asked again later, of it too.
    if (slot.move?.sent) settleMove(slot, 'busy');
    slot.startError = undefined;
    onWorker?.(worker);
    worker.on('message', (reply: StoreReply) => {
      if ('facets' in reply) return;
      if ('help' in reply) return lendHelper(slot, reply.help);
      if ('moved' in reply) {
        settleMove(slot, reply.moved);
        dispatch();
        return;
      }
      if ('helped' in reply) {
        slot.helping = false;
        onHelped?.(reply.helped);
        dispatch();
        return;
      }
      if ('ready' in reply) {
        slot.ready = true;
        if (unreadable !== undefined) log(`${path} can be read again`);
        unreadable = undefined;
        startFailures = 0;
        if (!warm && slots.every((candidate) => candidate.ready)) {
          warm = true;
          settleWarm.resolve();
        }
        dispatch();
        return;
      }
      const job = settle(slot);
      if (!job) return;
      costs.charge(job.kind, performance.now() - job.started!);
      if (reply.ok) job.resolve(reply.value);
      else job.reject(new Error(reply.message));
      dispatch();
    });
    worker.on('error', (error) => {
      if (!slot.ready) slot.startError = error.message;
      settle(slot)?.reject(error);
    });
    worker.on('exit', (code) => {
      if (closing || slot.worker !== worker) return;
      settle(slot)?.reject(new Error(`store worker stopped (exit code ${code})`));
      if (slot.ready) {
        spawn(slot);
        dispatch();
        return;
      }
      const reason = slot.startError ?? `its worker stopped with exit code ${code}`;
      if (!warm) {
        // A generation that cannot warm up is never served (reloading-store.ts keeps the last one).
        void close();
        settleWarm.reject(new Error(`cannot read ${path}: ${reason}`));
        return;
      }
      if (unreadable === undefined) log(`cannot read ${path} (${reason}); its workers are started again after growing pauses`);
      unreadable = reason;
      startFailures++;
      if (!slots.some((candidate) => candidate.ready))
        for (const job of [...lookups.splice(0), ...searches.drain()]) job.reject(unavailable());
      slot.restart = setTimeout(() => spawn(slot), Math.min(maxRestartMs, restartMs * 2 ** (startFailures - 1)));
    });
  }

  function settle(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.budget);
    slot.job = undefined;
    if (job?.search) searches.finished(job, performance.now() - job.started!);
    return job;
  }

  function run(slot: Slot, job: Job) {
    slot.job = job;
    job.started = performance.now();
    // A lookup reads at most a page of rows by key (admission.ts); a search, whatever its parameters, has the budget.
    if (job.search) {
      slot.budget = setTimeout(() => {
        // The worker is busy in SQLite and cannot be told to stop: a new one takes its place.
        const stuck = slot.worker;
        costs.charge(job.kind, budgetMs);
        settle(slot)?.reject(
          new StoreOverloaded(`The search took longer than ${budgetMs / 1000} s, this server's limit. Narrow it and try again.`),
        );
        spawn(slot);
        void stuck.terminate();
        dispatch();
      }, budgetMs);
    }
    slot.worker.postMessage({ id: 0, op: job.op, args: job.args });
  }

  /** The next waiting search a search worker may take now (pool/scheduler.ts), if any. */
  function nextSearch(): Job | undefined {
    const running = slots.filter((candidate) => candidate.job?.search).map((candidate) => candidate.job!);
    return searches.next(searchWorkers - running.length, running);
  }

  /** Passes a worker's half of a count to a free worker, while another stays free for lookups; otherwise its poster counts it. */
  function lendHelper(from: Slot, job: CountJob) {
    const free = slots.filter((slot) => slot !== from && slot.ready && !slot.job && !slot.helping && !slot.move);
    if (free.length < 2 || closing) return declineHelp(job);
    free[0]!.helping = true;
    free[0]!.worker.postMessage({ help: job } satisfies HelpWith);
  }

  function settleMove(slot: Slot, moved: SnapshotMove) {
    const move = slot.move;
    slot.move = undefined;
    move?.resolve(moved);
  }

  /**
   * Moves every worker's snapshot off the write-ahead log, one idle worker at a time (one
   * holding the file's lock at once: snapshot-move.ts), so the log can be emptied. Asked by
   * the reloading store once this pool serves alone.
   */
  async function moveSnapshots(): Promise<SnapshotMove> {
    let outcome: SnapshotMove = 'unpinned';
    for (const slot of slots) {
      if (closing) return 'changed';
      const moved = await new Promise<SnapshotMove>((resolve) => {
        slot.move = { sent: false, resolve };
        dispatch();
      });
      if (moved === 'busy' || moved === 'changed') return moved;
      if (moved === 'moved') outcome = 'moved';
    }
    return outcome;
  }

  function dispatch() {
    for (const slot of slots) {
      if (!slot.move || slot.move.sent || slot.job || !slot.ready || slot.helping) continue;
      slot.move.sent = true;
      slot.worker.postMessage({ moveSnapshot: true } satisfies MoveSnapshot);
    }
    for (const slot of slots) {
      if (slot.job || !slot.ready || slot.helping || slot.move) continue;
      const job = lookups.shift() ?? nextSearch();
      if (!job) return;
      run(slot, job);
    }
  }

  let facets: SharedFacets | undefined;
  const slots: Slot[] = Array.from({ length: size }, () => {
    const slot = {} as Slot;
    spawn(slot);
    return slot;
  });

  const facetReader = new Worker(script, { workerData: { path, role: 'facets' } satisfies WorkerSettings });
  const facetsWarm = new Promise<void>((resolve) => {
    facetReader.on('message', (reply: StoreReply) => {
      if (!('facets' in reply) || closing) return;
      facets = reply.facets;
      // Posted before any later request, so every facets request finds them.
      for (const slot of slots) slot.worker.postMessage({ adopt: facets } satisfies AdoptFacets);
      resolve();
    });
    facetReader.on('error', (error) => {
      if (!closing) log(`the facet values of ${path} could not be read ahead (${error.message}); each worker reads them on first use`);
    });
    // Ended with or without them: without, each worker reads its own on first use.
    facetReader.on('exit', () => resolve());
  });

  function call<T>(op: Op, args: unknown[]): Promise<T> {
    if (closing) return Promise.reject(new Error('the store is closed'));
    if (unreadable !== undefined && !slots.some((slot) => slot.ready)) return Promise.reject(unavailable());
    const admission = admissionOf(op, args);
    const search = !admission.lookup;
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        op,
        args,
        client: currentClient(),
        search,
        kind: admission.kind,
        get cost() {
          return costs.priceOf(admission);
        },
        get dear() {
          return costs.isDear(admission);
        },
        queued: performance.now(),
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      if (!search) lookups.push(job);
      else searches.add(job)?.reject(new StoreOverloaded('Too many searches are waiting; try again shortly.'));
      dispatch();
    });
  }

  const calls: EngineCalls = {
    revision,
    rankPage: (...args) => call('rankPage', args),
    fetch: (...args) => call('fetch', args),
    rankRender: async (...args) => {
      const ranked = await call<Ranked & { page: RenderedBody }>('rankRender', args);
      return { ...ranked, page: bodyOf(ranked.page) };
    },
    render: async (...args) => bodyOf(await call<RenderedBody>('render', args)),
    facets: (...args) => call('facets', args),
    get: (...args) => call('get', args),
    fulltext: (...args) => call('fulltext', args),
    count: (...args) => call('count', args),
    suggest: (...args) => call('suggest', args),
    close,
  };
  async function close() {
    closing = true;
    for (const job of [...lookups.splice(0), ...searches.drain()]) job.reject(new Error('the store is closed'));
    for (const slot of slots) {
      clearTimeout(slot.restart);
      settleMove(slot, 'changed');
    }
    await Promise.all([facetReader, ...slots.map((slot) => slot.worker)].map((worker) => worker.terminate()));
  }
  await warmed;
  return { ...cachedStore(calls, { budgetBytes: cacheBytes }), facetsWarm, moveSnapshots };
}

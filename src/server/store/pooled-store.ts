import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { cachedStore } from './cached-store';
import type { DeploymentKey } from '../../deployments/schema';
import type { EngineCalls } from './engine-calls';
import type { Ranked } from './engine';
import { openEngine } from './sqlite/query-engine';
import type { WorkerSettings } from './store-worker';
import type { RenderedBody } from '../render/rendered-body';
import { CostBook, type Op } from './admission';
import { readFacetsAhead } from './pool/facet-reader';
import { bodyOf, jobOf } from './pool/jobs';
import { Dispatcher } from './pool/dispatcher';
import { HeldBackWork } from './pool/held-back-work';
import { lendHelper } from './pool/lending';
import { moveSnapshots, settleMove } from './pool/snapshot-moves';
import { poolShelves } from './pool/threads';
import { WorkerSlots, type SlotEvents } from './pool/worker-slots';
import { StoreOverloaded, type RecordStore } from './types';
import { bundledModule } from '../module-bundle.js';

/**
 * A RecordStore whose queries run on worker threads, each with its own read-only SQLite
 * connection, so a slow query never blocks the event loop. Each worker runs one request at
 * a time; requests wait here, in two lanes (admission.ts): lookups (a record by its key, a
 * short page of records by id) take any free worker first, while searches may occupy all
 * workers but one, so a record is never stuck behind expensive searches. Searches are
 * shared fairly between clients, then priced by what their kind took when it ran, cheaper
 * first (pool/scheduler.ts), and the last free search worker is kept for a search unlike
 * those running (of another client, of another kind) and from dear ones, so a flood of one
 * kind, or of dear ones, leaves a worker for a person's search. Every
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
 * (count-sharing.ts), while another stays free for lookups.
 *
 * In parts, under pool/: the jobs (jobs.ts), which search runs next (scheduler.ts), the
 * workers' lives (worker-slots.ts), lending a worker (lending.ts), the facet values read
 * ahead (facet-reader.ts), what waits for the first answers (held-back-work.ts) and moving
 * snapshots off the log (snapshot-moves.ts); this file puts them together and says which
 * free worker takes what.
 */

/** A search's time budget unless `records serve --query-budget-ms` says otherwise. */
export const defaultBudgetMs = 10_000;

/** PoolOptions.holdBackMs unless said: the first answers of a restart at a million records come well within it. */
const defaultHoldBackMs = 2_000;

/** How long a search waits at most before it goes ahead of its client's cheaper ones (PoolOptions.patienceMs). */
const defaultPatienceMs = 1_000;

const workerEntry = new URL('./store-worker.ts', import.meta.url);

export interface PoolOptions {
  /** Workers; one more than the cores, since one is kept free for record lookups. */
  readonly size?: number;
  /**
   * How many of them are warm before the store opens (all, unless said); the rest start after
   * its first answers (pool/held-back-work.ts).
   * A search page asks for its results and its facets at once: a server that starts two first
   * answers both sooner than one that starts every worker before either (cli.ts).
   */
  readonly readyWith?: number;
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
   * one (count-sharing.ts): from how many records, how long it waits for a helper to take
   * it (tests), and how long for a helper that took it (`helperPatienceMs`, 2 s unless said).
   */
  readonly sharing?: WorkerSettings['sharing'];
  /** Called when a worker was lent to another's count, with whether it counted (tests use it). */
  readonly onHelped?: (counted: boolean) => void;
  /** How long after it opens the pool holds back what it does besides answering, at the latest (pool/held-back-work.ts). */
  readonly holdBackMs?: number;
}

/** Records of a facets count before half of it is handed to a free worker: below, the trip costs more than it saves. */
const shareCountsFrom = 50_000;

/** What the pool does with what its workers say (worker-slots.ts). */
function slotEvents(
  dispatcher: Dispatcher,
  slots: () => WorkerSlots,
  closing: () => boolean,
  { costs, budgetMs, onHelped }: { costs: CostBook; budgetMs: number; onHelped?: (counted: boolean) => void },
): SlotEvents {
  const dispatch = () => dispatcher.dispatch();
  return {
    answered(job, answer) {
      costs.charge(job.kind, performance.now() - job.started!);
      if (answer.ok) job.resolve(answer.value);
      else job.reject(new Error(answer.message));
      dispatch();
    },
    ended: (job, ms) => dispatcher.ended(job, ms),
    overBudget(job) {
      costs.charge(job.kind, budgetMs);
      job.reject(new StoreOverloaded(`The search took longer than ${budgetMs / 1000} s, this server's limit. Narrow it and try again.`));
    },
    askedHelp: (slot, job) => lendHelper(slots().all, slot, job, closing()),
    helped(counted) {
      onHelped?.(counted);
      dispatch();
    },
    moved(slot, moved) {
      settleMove(slot, moved);
      dispatch();
    },
    // A replacement opens its own snapshot: the move is asked again later, of it too.
    replaced: (slot) => slot.move?.sent && settleMove(slot, 'busy'),
    changed: dispatch,
    unavailable: () =>
      dispatcher.failWaiting(() => new StoreOverloaded(`The database cannot be read now (${slots().unreadable}); try again later.`)),
  };
}

/** The engine's calls as jobs for the pool's workers; type-ahead and suggestions once `laterPart` has what they need. */
function poolCalls(
  revision: string,
  call: <T>(op: Op, args: unknown[]) => Promise<T>,
  laterPart: (part: 'words' | 'completions', key: DeploymentKey) => Promise<void>,
): Omit<EngineCalls, 'close'> {
  return {
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
    // Each waits for the reader's vocabularies / type-ahead tables rather than a worker making its own (seconds).
    suggest: async (...args) => {
      await laterPart('words', args[0]);
      return call('suggest', args);
    },
    complete: async (...args) => {
      await laterPart('completions', args[0]);
      return call('complete', args);
    },
  };
}

export async function openPooledStore(path: string, options: PoolOptions = {}): Promise<RecordStore> {
  const { size = availableParallelism() + 1, budgetMs = defaultBudgetMs, patienceMs = defaultPatienceMs, costs = new CostBook() } = options;
  const { log = (line: string) => console.error(`records: ${line}`), sharing = { fromRecords: shareCountsFrom } } = options;
  const { readyWith = size, restartMs = 250, maxRestartMs = 30_000 } = options;
  // Opening once here checks the file and reads the revision before any worker starts.
  const probe = openEngine(path);
  const revision = probe.revision;
  probe.close();
  let closing = false;
  const heldBack = new HeldBackWork(() => {
    slots.startRest();
    goOn();
  });
  const dispatcher = new Dispatcher(() => slots, { size, patienceMs, maxQueued: options.maxQueued ?? 256, budgetMs, heldBack });
  const { search: shelf, reader: readerShelf } = poolShelves(await bundledModule(workerEntry), size);
  const slots: WorkerSlots = new WorkerSlots(
    { path, shelf, size, readyWith, sharing, log, restartMs, maxRestartMs, onWorker: options.onWorker },
    slotEvents(
      dispatcher,
      () => slots,
      () => closing,
      { costs, budgetMs, onHelped: options.onHelped },
    ),
  );
  const { reader, facetsWarm, handedOver, ended, goOn } = readFacetsAhead(
    readerShelf,
    path,
    log,
    () => closing,
    (part) => slots.adopt(part),
  );

  function call<T>(op: Op, args: unknown[]): Promise<T> {
    if (closing) return Promise.reject(new Error('the store is closed'));
    if (slots.unreadable !== undefined && !slots.anyReady)
      return Promise.reject(new StoreOverloaded(`The database cannot be read now (${slots.unreadable}); try again later.`));
    return new Promise<T>((resolve, reject) => dispatcher.add(jobOf(op, args, costs, resolve as (value: unknown) => void, reject)));
  }

  const calls: EngineCalls = {
    ...poolCalls(revision, call, (part, key) => {
      heldBack.release();
      return handedOver(part, key);
    }),
    close,
  };
  async function close() {
    closing = true;
    heldBack.release();
    dispatcher.failWaiting(() => new Error('the store is closed'));
    for (const slot of slots.all) settleMove(slot, 'changed');
    await Promise.all([reader.end(), slots.close()]);
  }
  try {
    await slots.warmed;
  } catch (error) {
    await close();
    throw error;
  }
  heldBack.releaseAfter(options.holdBackMs ?? defaultHoldBackMs);
  const moves = () =>
    moveSnapshots(
      slots.all,
      () => closing,
      () => dispatcher.dispatch(),
      ended,
    );
  return { ...cachedStore(calls, { budgetBytes: options.cacheBytes }), facetsWarm, moveSnapshots: moves };
}

import type { Worker } from 'node:worker_threads';
import { bundleThread } from '../../bundle-thread.js';
import type { StoreReply, ToWorker, WorkerSettings } from '../store-worker';

/**
 * The store's worker threads outlive the generations they serve. A new generation borrows the
 * threads a retired one gave back; each opens the new file and closes it again when its
 * generation retires. Started afresh for each generation and terminated after, every thread
 * took its own malloc arena from the C library, which keeps what a thread freed for the next
 * thread to come rather than handing it back to the system: the server's memory grew with
 * every generation and never came down (docs/decisions.md, "Worker threads outlive their
 * generation"). A thread given back the same sizes it freed reuses them.
 *
 * While generations follow one another (a harvest's writes), the shelf keeps what the next
 * one borrows; once they stop, it keeps only what the server began with (the reader's
 * thread), and the search workers the retired generations gave back end, their heaps with
 * them, so a server written to comes back to the memory it began with.
 *
 * Only a thread whose store closed cleanly is kept; one that is stuck in a search, crashed or
 * was stopped is terminated, as before. Kept threads do not keep the process alive.
 */

/**
 * A worker's short-lived objects are small (its postings are typed arrays outside the
 * heap), yet V8's default lets each worker's young generation grow to tens of megabytes,
 * which stay claimed while the server is busy: with three workers, a fifth of its memory.
 */
const workerYoungGenerationMb = 12;

/** How long a shelf holds more idle threads than it keeps at rest, after the last was given back. */
const defaultRestMs = 30_000;

interface Shelf {
  readonly workers: Worker[];
  /** Ends the idle threads beyond those kept at rest, once generations stop following one another. */
  rest?: NodeJS.Timeout;
}

/** Idle threads by role and script. */
const shelves = new Map<string, Shelf>();
/** Shelves waiting to rest, and threads being ended at rest. */
let unsettled = 0;
const atRest: (() => void)[] = [];

/** Settles once no shelf holds more idle threads than it keeps at rest, nor is ending one. */
export function shelvesAtRest(): Promise<void> {
  return unsettled === 0 ? Promise.resolve() : new Promise((resolve) => atRest.push(resolve));
}

const restEnded = () => {
  if (--unsettled === 0) for (const resolve of atRest.splice(0)) resolve();
};

/** What its holder listened to; Node's own listeners (which keep its port referenced while listened to) stay. */
const forgetListeners = (worker: Worker) => {
  for (const event of ['message', 'error', 'exit', 'online', 'messageerror'] as const) worker.removeAllListeners(event);
};

export interface Thread {
  readonly worker: Worker;
  /** Closes its store and keeps the thread for another generation, or ends it if it cannot. */
  giveBack(): Promise<void>;
  /** Ends the thread (stuck or no longer trusted). */
  end(): Promise<void>;
}

/**
 * Where a pool's threads of one role come from: the worker module, and how many of them are
 * kept idle. A thread serves one role all its life: the facet reader's malloc arena comes to
 * hold two generations' facet values (the retiring one's and the new one's, read while the
 * retiring one still answers), and a search worker's a page cache; a thread that took each
 * role in turn would come to hold the most of both, and every kept thread did.
 */
export interface ThreadShelf {
  readonly script: URL;
  readonly role: WorkerSettings['role'];
  /**
   * What the next generation will borrow of the role while generations follow one another: a
   * pool's workers, or its reader. A generation opened while the one before it still closes
   * finds the shelf short and starts threads; kept beyond this, the surplus would lie idle
   * for good, each with a heap of its own and the most its malloc arena ever held.
   */
  readonly keepIdle: number;
  /**
   * What is kept once no thread has been given back for `restMs`: the reader's thread, which
   * the current generation gave back, but no search worker beyond the current generation's,
   * so a server written to returns to the threads it began with.
   */
  readonly restIdle: number;
  readonly restMs?: number;
}

/**
 * A pool's shelves: its search workers, all of which the next generation borrows, but none
 * kept at rest beyond the current generation's; and its reader, whose thread is kept.
 */
export function poolShelves(script: URL, size: number): { readonly search: ThreadShelf; readonly reader: ThreadShelf } {
  return {
    search: { script, role: 'search', keepIdle: size, restIdle: 0 },
    reader: { script, role: 'facets', keepIdle: 1, restIdle: 1 },
  };
}

/**
 * A thread of the shelf's script (store-worker.ts) with no store open, to be opened with
 * `{ open }`; given back, it is kept only while fewer than `keepIdle` of its role are idle.
 */
export function borrowThread({ script, role, keepIdle, restIdle, restMs = defaultRestMs }: ThreadShelf): Thread {
  const kind = `${role} ${script.href}`;
  const shelf = shelves.get(kind) ?? { workers: [] };
  shelves.set(kind, shelf);
  const kept = shelf.workers.pop();
  const worker = kept ?? bundleThread(script, { resourceLimits: { maxYoungGenerationSizeMb: workerYoungGenerationMb } });
  if (kept) {
    forgetListeners(kept);
    kept.ref();
  }
  let settled = false;
  return {
    worker,
    async giveBack() {
      if (settled) return;
      settled = true;
      forgetListeners(worker);
      const closed = await new Promise<boolean>((resolve) => {
        worker.on('message', (reply: StoreReply) => 'closed' in reply && resolve(true));
        worker.on('error', () => resolve(false));
        worker.on('exit', () => resolve(false));
        worker.postMessage({ close: true } satisfies ToWorker);
      });
      forgetListeners(worker);
      if (!closed || shelf.workers.length >= keepIdle) {
        await worker.terminate();
        return;
      }
      // An idle thread that fails is simply forgotten.
      const forget = () => {
        const at = shelf.workers.indexOf(worker);
        if (at >= 0) shelf.workers.splice(at, 1);
      };
      worker.on('error', forget);
      worker.on('exit', forget);
      worker.unref();
      shelf.workers.push(worker);
      if (shelf.workers.length > restIdle) restLater(shelf, restIdle, restMs);
    },
    async end() {
      if (settled) return;
      settled = true;
      await worker.terminate();
    },
  };
}

/** Ends the shelf's idle threads beyond `restIdle` (the longest idle first) once none has been given back for `restMs`. */
function restLater(shelf: Shelf, restIdle: number, restMs: number): void {
  if (shelf.rest) clearTimeout(shelf.rest);
  else unsettled++;
  shelf.rest = setTimeout(() => {
    shelf.rest = undefined;
    const surplus = shelf.workers.splice(0, Math.max(0, shelf.workers.length - restIdle));
    void Promise.all(surplus.map((worker) => worker.terminate())).finally(restEnded);
  }, restMs);
  shelf.rest.unref();
}

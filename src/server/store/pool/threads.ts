import { Worker } from 'node:worker_threads';
import type { StoreReply, ToWorker } from '../store-worker';

/**
 * The store's worker threads outlive the generations they serve. A new generation borrows the
 * threads a retired one gave back; each opens the new file and closes it again when its
 * generation retires. Started afresh for each generation and terminated after, every thread
 * took its own malloc arena from the C library, which keeps what a thread freed for the next
 * thread to come rather than handing it back to the system: the server's memory grew with
 * every generation and never came down (docs/decisions.md, "Worker threads outlive their
 * generation"). A thread given back the same sizes it freed reuses them.
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

const idle = new Map<string, Worker[]>();

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

/** Where a pool's threads come from: the worker module, and how many of its threads are kept idle. */
export interface ThreadShelf {
  readonly script: URL;
  /**
   * What the next generation will borrow: a pool's workers and its facet reader. A generation
   * opened while the one before it still closes finds the shelf short and starts threads;
   * kept beyond this, the surplus would lie idle at the bottom of the shelf for good, each
   * with a heap of its own and the most its malloc arena ever held.
   */
  readonly keepIdle: number;
}

/**
 * A thread of the shelf's script (store-worker.ts) with no store open, to be opened with
 * `{ open }`; given back, it is kept only while fewer than `keepIdle` of the script's are idle.
 */
export function borrowThread({ script, keepIdle }: ThreadShelf): Thread {
  const shelf = idle.get(script.href);
  const kept = shelf?.pop();
  const worker = kept ?? new Worker(script, { resourceLimits: { maxYoungGenerationSizeMb: workerYoungGenerationMb } });
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
      const shelf = idle.get(script.href) ?? [];
      if (!closed || shelf.length >= keepIdle) {
        await worker.terminate();
        return;
      }
      // An idle thread that fails is simply forgotten.
      const forget = () => {
        const at = shelf.indexOf(worker);
        if (at >= 0) shelf.splice(at, 1);
      };
      worker.on('error', forget);
      worker.on('exit', forget);
      worker.unref();
      shelf.push(worker);
      idle.set(script.href, shelf);
    },
    async end() {
      if (settled) return;
      settled = true;
      await worker.terminate();
    },
  };
}

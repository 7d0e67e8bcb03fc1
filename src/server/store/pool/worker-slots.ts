import type { Worker } from 'node:worker_threads';
import { keptPlaceOf } from './kept-parts';
import type { PackedPart } from './packed-strings';
import type { CountJob } from '../facets/count-sharing';
import type { SnapshotMove } from '../sqlite/snapshot-move';
import type { StoreReply, ToWorker, WorkerSettings } from '../store-worker';
import type { Job } from './jobs';
import { borrowThread, type Thread, type ThreadShelf } from './threads';

/**
 * The pool's worker threads, each in a slot that outlives it: a worker that dies (a native
 * crash, running out of memory) fails only the request it held, and a fresh worker takes
 * its place so later requests are still answered. One that cannot even start (the file
 * became unreadable) is started again after growing pauses, with one line in the log when
 * the file cannot be read and one when it can again. A search past its time budget has its
 * worker replaced, as SQLite cannot be interrupted from here. What to run, and when, is the
 * pool's (pooled-store.ts); this module says what the workers say. When the pool closes, an
 * idle worker's thread is given back for the next generation (threads.ts).
 */

export interface Slot {
  worker: Worker;
  thread: Thread;
  /** Warmed up and taking requests (store-worker.ts says so). */
  ready: boolean;
  job?: Job;
  budget?: NodeJS.Timeout;
  /** Why the worker could not start (its opening error), if it could not. */
  startError?: string;
  /** The pause before a worker that could not start is started again. */
  restart?: NodeJS.Timeout;
  /** Counting half of another worker's facets (count-sharing.ts): busy, though it holds no job. */
  helping?: boolean;
  /** Its snapshot is to be moved off the log once it is idle (snapshot-move.ts); busy once sent. */
  move?: { sent: boolean; readonly resolve: (moved: SnapshotMove) => void };
}

type Answer = Extract<StoreReply, { id: number }>;

/** What the pool does with what its workers say. */
export interface SlotEvents {
  /** A worker answered the job it held (its slot is free again). */
  answered(job: Job, answer: Answer): void;
  /** A job ended, answered or not, after `ms` on its worker. */
  ended(job: Job, ms: number): void;
  /** A search ran past its budget: its worker is being replaced. */
  overBudget(job: Job): void;
  /** A worker asks for another to count half of its facets (lending.ts). */
  askedHelp(slot: Slot, job: CountJob): void;
  /** A worker lent to another's count is free again. */
  helped(counted: boolean): void;
  /** A worker moved its snapshot, or could not (snapshot-moves.ts). */
  moved(slot: Slot, moved: SnapshotMove): void;
  /** A slot's worker was started again: a snapshot move it was sent is void. */
  replaced(slot: Slot): void;
  /** Workers may have come free. */
  changed(): void;
  /** No worker can start now and none is ready: what waits cannot be answered. */
  unavailable(): void;
}

export interface SlotSettings {
  readonly path: string;
  /** Where its threads come from: the bundled worker module (store-worker.ts), and how many are kept idle. */
  readonly shelf: ThreadShelf;
  readonly size: number;
  /** The workers started first: the pool is warm once they are, and the rest of `size` start when told (`startRest`). */
  readonly readyWith: number;
  readonly sharing: WorkerSettings['sharing'];
  /** The first pause before a worker that could not start is started again; it doubles up to `maxRestartMs`. */
  readonly restartMs: number;
  readonly maxRestartMs: number;
  readonly log: (line: string) => void;
  /** Called with each worker started, replacements included. */
  readonly onWorker?: (worker: Worker) => void;
}

export class WorkerSlots {
  readonly all: Slot[] = [];
  /** Settles once the first `readyWith` workers have warmed up; fails if one cannot start before (the pool is then never served). */
  readonly warmed: Promise<void>;
  /** Why workers cannot start now (the file cannot be read), while they cannot. */
  unreadable: string | undefined;
  private startFailures = 0;
  private warm = false;
  private failWarm!: (error: Error) => void;
  private resolveWarm!: () => void;
  /** What the pool's reader handed over so far, in order, for each worker started later too. */
  private readonly shared: PackedPart[] = [];
  private closing = false;

  constructor(
    private readonly settings: SlotSettings,
    private readonly events: SlotEvents,
  ) {
    this.warmed = new Promise<void>((resolve, reject) => {
      this.resolveWarm = resolve;
      this.failWarm = reject;
    });
    this.startSlots(Math.min(settings.size, settings.readyWith));
  }

  get anyReady(): boolean {
    return this.all.some((slot) => slot.ready);
  }

  /** Hands every worker what was worked out once for all (facet-reader.ts), and each replacement later. */
  adopt(part: PackedPart): void {
    this.shared.push(part);
    // Posted before any later request, so every request that needs it finds it.
    for (const slot of this.all) slot.worker.postMessage({ adopt: part } satisfies ToWorker);
  }

  /** Starts the workers past the first `readyWith`: after the first answers rather than beside them (held-back-work.ts). */
  startRest(): void {
    if (!this.closing) this.startSlots(this.settings.size - this.all.length);
  }

  /** Runs `job` on the free worker of `slot`; a search past `budgetMs` has its worker replaced. */
  run(slot: Slot, job: Job, budgetMs?: number): void {
    slot.job = job;
    job.started = performance.now();
    if (budgetMs !== undefined) slot.budget = setTimeout(() => this.overBudget(slot), budgetMs);
    slot.worker.postMessage({ id: 0, op: job.op, args: job.args });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const slot of this.all) clearTimeout(slot.restart);
    // Only a worker doing nothing can close its store cleanly; any other is ended.
    const idle = (slot: Slot) => slot.ready && !slot.job && !slot.helping && !slot.move?.sent;
    await Promise.all(this.all.map((slot) => (idle(slot) ? slot.thread.giveBack() : slot.thread.end())));
  }

  private startSlots(count: number): void {
    for (let n = 0; n < count; n++) {
      const slot = {} as Slot;
      this.spawn(slot);
      this.all.push(slot);
    }
  }

  private spawn(slot: Slot): void {
    const { path, shelf, sharing, onWorker } = this.settings;
    const thread = borrowThread(shelf);
    const worker = thread.worker;
    worker.postMessage({
      open: { path, role: 'search', sharing, keep: keptPlaceOf(path, shelf.script) } satisfies WorkerSettings,
    } satisfies ToWorker);
    // A worker started again takes what was handed over before any request.
    for (const part of this.shared) worker.postMessage({ adopt: part } satisfies ToWorker);
    slot.thread = thread;
    slot.worker = worker;
    slot.ready = false;
    slot.helping = false;
    this.events.replaced(slot);
    slot.startError = undefined;
    onWorker?.(worker);
    worker.on('message', (reply: StoreReply) => slot.worker === worker && this.onMessage(slot, reply));
    worker.on('error', (error) => {
      if (slot.worker !== worker) return;
      if (!slot.ready) slot.startError = error.message;
      this.settle(slot)?.reject(error);
    });
    worker.on('exit', (code) => this.onExit(slot, worker, code));
  }

  private onMessage(slot: Slot, reply: StoreReply): void {
    if ('shared' in reply || 'sharedAll' in reply || 'closed' in reply) return;
    if ('help' in reply) return this.events.askedHelp(slot, reply.help);
    if ('moved' in reply) return this.events.moved(slot, reply.moved);
    if ('helped' in reply) {
      slot.helping = false;
      return this.events.helped(reply.helped);
    }
    if ('ready' in reply) return this.onReady(slot);
    const job = this.settle(slot);
    if (job) this.events.answered(job, reply);
  }

  private onReady(slot: Slot): void {
    slot.ready = true;
    if (this.unreadable !== undefined) this.settings.log(`${this.settings.path} can be read again`);
    this.unreadable = undefined;
    this.startFailures = 0;
    if (!this.warm && this.all.every((candidate) => candidate.ready)) {
      this.warm = true;
      this.resolveWarm();
    }
    this.events.changed();
  }

  private onExit(slot: Slot, worker: Worker, code: number): void {
    if (this.closing || slot.worker !== worker) return;
    this.settle(slot)?.reject(new Error(`store worker stopped (exit code ${code})`));
    if (slot.ready) {
      this.spawn(slot);
      this.events.changed();
      return;
    }
    const { path, log, restartMs, maxRestartMs } = this.settings;
    const reason = slot.startError ?? `its worker stopped with exit code ${code}`;
    // A generation that cannot warm up is never served (reloading-store.ts keeps the last one).
    if (!this.warm) return this.failWarm(new Error(`cannot read ${path}: ${reason}`));
    if (this.unreadable === undefined) log(`cannot read ${path} (${reason}); its workers are started again after growing pauses`);
    this.unreadable = reason;
    this.startFailures++;
    if (!this.anyReady) this.events.unavailable();
    slot.restart = setTimeout(() => this.spawn(slot), Math.min(maxRestartMs, restartMs * 2 ** (this.startFailures - 1)));
  }

  /** Takes the job off its slot, whatever became of it. */
  private settle(slot: Slot): Job | undefined {
    const job = slot.job;
    clearTimeout(slot.budget);
    slot.job = undefined;
    if (job) this.events.ended(job, performance.now() - job.started!);
    return job;
  }

  private overBudget(slot: Slot): void {
    // The worker is busy in SQLite and cannot be told to stop: a new one takes its place.
    const stuck = slot.thread;
    const job = this.settle(slot);
    if (job) this.events.overBudget(job);
    this.spawn(slot);
    void stuck.end();
    this.events.changed();
  }
}

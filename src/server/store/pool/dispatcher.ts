import { StoreOverloaded } from '../types';
import type { Job } from './jobs';
import type { HeldBackWork } from './held-back-work';
import { SearchScheduler } from './scheduler';
import { sendMoves } from './snapshot-moves';
import type { WorkerSlots } from './worker-slots';

/**
 * Which free worker takes what: requests wait here in two lanes (admission.ts). Lookups (a
 * record by its key, a short page of records by id) take any free worker first; searches
 * may occupy all workers but one, so a record is never stuck behind expensive searches, and
 * wait their turn in the scheduler (scheduler.ts), each running under the time budget.
 */
export class Dispatcher {
  private readonly lookups: Job[] = [];
  private readonly searches: SearchScheduler<Job>;
  private readonly searchWorkers: number;
  private readonly budgetMs: number;
  /** Looks at the waiting searches again when the next of them has waited its patience out (at `overdueAt`). */
  private overdue: NodeJS.Timeout | undefined;
  private overdueAt: number | undefined;
  private answeredSearch = false;

  constructor(
    private readonly slots: () => WorkerSlots,
    private readonly options: {
      readonly size: number;
      readonly patienceMs: number;
      readonly maxQueued: number;
      readonly budgetMs: number;
      /** Told when a search waits for a worker, and whether the pool is idle having answered one. */
      readonly heldBack?: HeldBackWork;
    },
  ) {
    this.searches = new SearchScheduler<Job>({ patienceMs: options.patienceMs, capacity: options.maxQueued });
    this.searchWorkers = Math.max(1, options.size - 1);
    this.budgetMs = options.budgetMs;
  }

  /** Queues `job` and runs what may run; a search beyond the queue's bound (its own or another's) is refused. */
  add(job: Job): void {
    if (!job.search) this.lookups.push(job);
    else this.searches.add(job)?.reject(new StoreOverloaded('Too many searches are waiting; try again shortly.'));
    this.dispatch();
  }

  /** A job ended after `ms` on its worker: a search's client is charged what it took. */
  ended(job: Job, ms: number): void {
    if (!job.search) return;
    this.answeredSearch = true;
    this.searches.finished(job, ms);
  }

  dispatch(): void {
    const slots = this.slots();
    // One instant for the whole pass: a search that came overdue between choosing what runs
    // and arming the wake-up would be neither run nor woken for.
    const now = performance.now();
    sendMoves(slots.all);
    for (const slot of slots.all) {
      if (slot.job || !slot.ready || slot.helping || slot.move) continue;
      const job = this.lookups.shift() ?? this.nextSearch(now);
      if (!job) break;
      slots.run(slot, job, job.search && !job.unbudgeted ? this.budgetMs : undefined);
    }
    this.wakeWhenOverdue(now);
    const { heldBack } = this.options;
    if (this.searches.length > 0) heldBack?.release();
    // Only once a search was answered: a start asks its record counts before any, one at a time.
    else heldBack?.idle(this.answeredSearch && this.lookups.length === 0 && !slots.all.some((slot) => slot.job));
  }

  /**
   * A search the scheduler holds back until it is overdue (a bulk page for the last free
   * search worker: with a pool of two, the only one) is otherwise looked at again only when
   * another request comes or ends; on a server asked nothing else it would wait for ever.
   */
  private wakeWhenOverdue(now: number): void {
    const at = this.searches.nextOverdue(now);
    if (at === this.overdueAt) return;
    clearTimeout(this.overdue);
    this.overdueAt = at;
    if (at === undefined) return;
    this.overdue = setTimeout(
      () => {
        this.overdueAt = undefined;
        this.dispatch();
      },
      // A timer may fire a little early by performance.now(): the search is then not yet overdue, and the wake-up is armed again.
      at - now + 1,
    );
    this.overdue.unref();
  }

  /** Fails every waiting request (the pool closes, or no worker can start). */
  failWaiting(error: () => Error): void {
    clearTimeout(this.overdue);
    this.overdueAt = undefined;
    for (const job of [...this.lookups.splice(0), ...this.searches.drain()]) job.reject(error());
  }

  /** The next waiting search a search worker may take now (scheduler.ts), if any. */
  private nextSearch(now: number): Job | undefined {
    const running = this.slots()
      .all.filter((candidate) => candidate.job?.search)
      .map((candidate) => candidate.job!);
    return this.searches.next(this.searchWorkers - running.length, running, now);
  }
}

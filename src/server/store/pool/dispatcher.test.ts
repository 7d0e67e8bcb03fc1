import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Dispatcher } from './dispatcher';
import type { Job } from './jobs';
import type { Slot, WorkerSlots } from './worker-slots';

/**
 * The dispatcher's wake-up for a search held back until it is overdue (a bulk page of a dear
 * kind, with one search worker, while another client has asked lately): however the clock
 * moves while it looks, the search runs once overdue, on a server asked nothing else.
 */

const patienceMs = 1000;
let clock = 0;
/** What each read of the clock adds: the time a pass over the queue takes. */
let tick = 0;

beforeEach(() => {
  clock = 0;
  tick = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(performance, 'now').mockImplementation(() => {
    const now = clock;
    clock += tick;
    return now;
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function pool() {
  const ran: Job[] = [];
  const idle = (): Slot => ({ ready: true }) as Slot;
  const slots = {
    all: [idle(), idle()],
    run(slot: Slot, job: Job) {
      slot.job = job;
      ran.push(job);
    },
  } as unknown as WorkerSlots;
  const dispatcher = new Dispatcher(() => slots, { size: 2, patienceMs, maxQueued: 16, budgetMs: 60_000 });
  return { dispatcher, ran, slots };
}

/** Another client's cheap search, run and ended: the last search worker is kept from a bulk page while it has asked lately. */
function otherClientAsked({ dispatcher, ran, slots }: ReturnType<typeof pool>): void {
  dispatcher.add({ ...bulkPage(0), client: 'other', kind: 'words', cost: 1, dear: false, bulk: false });
  const job = ran.pop()!;
  slots.all.find((slot) => slot.job === job)!.job = undefined;
  dispatcher.ended(job, 1);
}

const bulkPage = (queued: number): Job => ({
  op: 'rankPage',
  client: 'local',
  args: [],
  search: true,
  unbudgeted: false,
  kind: 'fetch LIT 2048',
  cost: 50,
  dear: true,
  bulk: true,
  queued,
  resolve: () => undefined,
  reject: () => undefined,
});

describe('a search held back until overdue', () => {
  it('waits its patience, then runs with nothing else asked', () => {
    const tested = pool();
    const { dispatcher, ran } = tested;
    otherClientAsked(tested);
    dispatcher.add(bulkPage(0));
    expect(ran).toHaveLength(0);
    clock = patienceMs + 5;
    vi.advanceTimersByTime(patienceMs + 5);
    expect(ran).toHaveLength(1);
  });

  it('runs though its wake-up fired a little early and it came overdue while the dispatcher looked', () => {
    const tested = pool();
    const { dispatcher, ran } = tested;
    otherClientAsked(tested);
    dispatcher.add(bulkPage(0));
    // The wake-up fires just before the search is overdue by performance.now(), and the
    // clock's reads during that pass go past the instant it comes overdue.
    clock = patienceMs - 0.1;
    tick = 0.4;
    vi.advanceTimersByTime(patienceMs + 1);
    expect(ran).toHaveLength(0);
    tick = 0;
    clock = patienceMs + 5;
    vi.advanceTimersByTime(5);
    expect(ran).toHaveLength(1);
  });
});

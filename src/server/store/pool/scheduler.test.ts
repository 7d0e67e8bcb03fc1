import { describe, expect, it } from 'vitest';
import { SearchScheduler, type Waiting } from './scheduler';

interface Job extends Waiting {
  readonly name: string;
}

// Queued now, in arrival order: none has waited out its patience unless a test says so.
const job = (client: string, cost: number, name = client, dear = false): Job => ({ client, cost, dear, queued: performance.now(), name });
/** A search running, as the pool reports it. */
const running = (cost: number, dear: boolean): Waiting => ({ client: 'elsewhere', cost, dear, queued: 0 });
const scheduler = (capacity = 256) => new SearchScheduler<Job>({ patienceMs: 1_000, capacity });

describe('which waiting search goes next', () => {
  it('takes a person’s search next while eight clients keep the queue full of cheaper ones', () => {
    const queue = scheduler();
    const flooders = Array.from({ length: 8 }, (_, n) => `flooder ${n}`);
    // Each flooder always has one more cheap search waiting (it asks again as each is answered).
    for (const flooder of flooders) queue.add(job(flooder, 1));
    const taken: string[] = [];
    for (let round = 0; round < 40; round++) {
      if (round === 20) queue.add(job('person', 30, 'person'));
      const next = queue.next(1, [])!;
      taken.push(next.name);
      if (next.client !== 'person') queue.add(job(next.client, 1));
    }
    expect(taken.indexOf('person')).toBe(20);
  });

  it('shares the workers between two flooding clients whatever their prices', () => {
    const queue = scheduler();
    for (let i = 0; i < 20; i++) {
      queue.add(job('cheap', 1));
      queue.add(job('dear', 40));
    }
    const first = Array.from({ length: 10 }, () => queue.next(2, [])!.client);
    // Equal turns by price: one dear search is worth forty cheap ones, yet each gets the workers in turn.
    expect(first.filter((client) => client === 'dear').length).toBeGreaterThanOrEqual(1);
    expect(first.filter((client) => client === 'cheap').length).toBeGreaterThanOrEqual(1);
  });

  it('lets a client idle for a while start again from where the others are, not with saved-up turns', () => {
    const queue = scheduler();
    for (let i = 0; i < 50; i++) {
      queue.add(job('busy', 1));
      queue.next(1, []);
    }
    for (let i = 0; i < 10; i++) queue.add(job('late', 1));
    for (let i = 0; i < 10; i++) queue.add(job('busy', 1));
    const taken = Array.from({ length: 6 }, () => queue.next(1, [])!.client);
    expect(taken.filter((client) => client === 'late').length).toBeLessThanOrEqual(4);
  });

  it('takes a client’s cheapest search first, and one that has waited out its patience before it', () => {
    const queue = new SearchScheduler<Job>({ patienceMs: 100, capacity: 10 });
    queue.add({ ...job('a', 30, 'dear'), queued: 0 });
    queue.add({ ...job('a', 1, 'cheap'), queued: 50 });
    expect(queue.next(1, [], 60)!.name).toBe('cheap');
    queue.add({ ...job('a', 1, 'cheap again'), queued: 60 });
    expect(queue.next(1, [], 120)!.name).toBe('dear');
  });

  it('keeps the last free worker from a dear search unless it is far cheaper than every one running', () => {
    const queue = scheduler();
    queue.add(job('a', 100, 'dear', true));
    expect(queue.next(1, [running(90, true)])).toBeUndefined();
    expect(queue.next(1, [running(400, true)])!.name).toBe('dear');
    queue.add(job('a', 100, 'dear', true));
    expect(queue.next(2, [])!.name).toBe('dear');
  });

  it('never gives the last free worker to a page of many records, however cheap its kind’s price', () => {
    const queue = scheduler();
    // A flood of 1,000-entry feeds: the rare words' feeds ran in 3 ms, the common words' take 400.
    queue.add({ ...job('a', 3, 'feed', true), bulk: true });
    expect(queue.next(1, [running(400, true)])).toBeUndefined();
    expect(queue.next(2, [])!.name).toBe('feed');
  });

  it('gives the last free worker to another client’s search that may take it', () => {
    const queue = scheduler();
    queue.add(job('a', 100, 'dear', true));
    queue.add(job('b', 200, 'dearer', true));
    queue.add(job('c', 10, 'cheap'));
    expect(queue.next(1, [running(100, true)])!.name).toBe('cheap');
  });

  it('lets a dear search that has waited out its patience take the last free worker, unless a dear search holds the other', () => {
    const queue = new SearchScheduler<Job>({ patienceMs: 100, capacity: 10 });
    queue.add({ ...job('a', 100, 'dear', true), queued: 0 });
    expect(queue.next(1, [running(10, false)], 50)).toBeUndefined();
    // A flood of cheap searches would otherwise keep it waiting for as long as it lasts.
    expect(queue.next(1, [running(10, false)], 150)!.name).toBe('dear');
    // A flood of dear searches, each overdue in turn, would otherwise hold every worker.
    queue.add({ ...job('b', 100, 'dear', true), queued: 0 });
    expect(queue.next(1, [running(100, true)], 150)).toBeUndefined();
  });
});

describe('a full queue', () => {
  it('makes room for another client’s search by refusing the newest of the client holding most', () => {
    const queue = scheduler(4);
    const flood = Array.from({ length: 4 }, (_, i) => job('flooder', 1, `flood ${i}`));
    for (const waiting of flood) expect(queue.add(waiting)).toBeUndefined();
    expect(queue.add(job('person', 5))?.name).toBe('flood 3');
    expect(queue.length).toBe(4);
    expect(queue.next(1, [])!.client).toBe('flooder');
    expect(queue.next(1, [])!.client).toBe('person');
  });

  it('refuses the newcomer when its own client holds as many as any', () => {
    const queue = scheduler(2);
    queue.add(job('a', 1));
    queue.add(job('b', 1));
    const late = job('a', 1, 'late');
    expect(queue.add(late)).toBe(late);
    expect(queue.length).toBe(2);
  });

  it('hands back every waiting search when drained', () => {
    const queue = scheduler();
    queue.add(job('a', 1));
    queue.add(job('b', 1));
    expect(queue.drain().map(({ client }) => client)).toEqual(['a', 'b']);
    expect(queue.length).toBe(0);
    expect(queue.next(1, [])).toBeUndefined();
  });
});

describe('a client’s share', () => {
  it('is what its searches took, not their price: a flood whose searches run long is served less', () => {
    const queue = scheduler();
    const long = 'priced cheap, runs long';
    queue.add(job(long, 5));
    queue.add(job('other', 5));
    const taken: string[] = [];
    for (let i = 0; i < 12; i++) {
      const next = queue.next(1, [])!;
      taken.push(next.client);
      // Both are priced 5 ms; one's searches take 100 ms each.
      queue.finished(next, next.client === long ? 100 : 5);
      queue.add(job(next.client, 5));
    }
    expect(taken.filter((client) => client === 'other').length).toBeGreaterThan(8);
  });
});

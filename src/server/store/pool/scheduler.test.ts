import { describe, expect, it } from 'vitest';
import { SearchScheduler, type Waiting } from './scheduler';

interface Job extends Waiting {
  readonly name: string;
}

// Queued now, in arrival order: none has waited out its patience unless a test says so. All
// of one kind unless a test says otherwise.
const job = (client: string, cost: number, name = client, dear = false, kind = 'search'): Job => ({
  client,
  kind,
  cost,
  dear,
  queued: performance.now(),
  name,
});
/** A search running, as the pool reports it. */
const running = (cost: number, dear: boolean): Waiting => ({ client: 'elsewhere', kind: 'search', cost, dear, queued: 0 });
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
    queue.add({ ...job('elsewhere', 10, 'cheap'), queued: 0 });
    queue.add({ ...job('a', 100, 'dear', true), queued: 0 });
    expect(queue.next(2, [], 0)!.name).toBe('cheap');
    expect(queue.next(1, [running(10, false)], 50)).toBeUndefined();
    // A flood of cheap searches would otherwise keep it waiting for as long as it lasts.
    expect(queue.next(1, [running(10, false)], 150)!.name).toBe('dear');
    // A flood of dear searches, each overdue in turn, would otherwise hold every worker.
    queue.add({ ...job('b', 100, 'dear', true), queued: 0 });
    expect(queue.next(1, [running(100, true)], 150)).toBeUndefined();
  });
  it('gives the last free worker to a dear search of the only client that has asked lately, unless a dear search runs', () => {
    const queue = new SearchScheduler<Job>({ patienceMs: 1_000, capacity: 10, reserveMs: 100 });
    // A person's page: its results and its facets, asked together.
    queue.add({ ...job('person', 5, 'results', false, 'words'), queued: 0 });
    queue.add({ ...job('person', 120, 'facets', true, 'facets'), queued: 0 });
    const results = queue.next(2, [], 0)!;
    expect(results.name).toBe('results');
    expect(queue.next(1, [results], 0)!.name).toBe('facets');
    queue.add({ ...job('person', 120, 'more facets', true, 'facets'), queued: 10 });
    expect(queue.next(1, [{ ...results, dear: true }], 10)).toBeUndefined();
    // Somebody else asks: the last worker is kept for searches that are not dear again.
    queue.add({ ...job('other', 5, 'cheap', false, 'words'), queued: 20 });
    const cheap = queue.next(2, [], 20)!;
    expect(cheap.name).toBe('cheap');
    expect(queue.next(1, [cheap], 30)).toBeUndefined();
    expect(queue.next(1, [cheap], 130)!.name).toBe('more facets');
  });
});

describe('the last free search worker', () => {
  /** A search as the pool runs it: `job` taken at `at`, for the scheduler to be told when it ends. */
  const flood = (client: string, at: number, name = client): Job => ({ ...job(client, 5, name, false, 'facets'), queued: at });
  const persons = (at: number): Job => ({ ...job('person', 5, 'person', false, 'words'), queued: at });

  it('is kept from a flood of one kind, from many clients, while another kind has asked lately, and taken by it as soon as it comes', () => {
    const queue = scheduler();
    queue.add(persons(0));
    queue.finished(queue.next(2, [], 0)!, 5);
    for (const flooder of ['f1', 'f2', 'f3']) queue.add(flood(flooder, 10));
    const first = queue.next(2, [], 10)!;
    expect(first.kind).toBe('facets');
    // Cheap, never dear, of another client: before, the flood took this worker too.
    expect(queue.next(1, [first], 10)).toBeUndefined();
    queue.add(persons(20));
    expect(queue.next(1, [first], 20)!.name).toBe('person');
  });

  it('is kept from a client holding a worker while another client has asked lately, whatever kinds it asks', () => {
    const queue = scheduler();
    queue.add(persons(0));
    queue.finished(queue.next(2, [], 0)!, 5);
    // One client over many connections, each request of a kind of its own.
    for (let i = 0; i < 4; i++) queue.add({ ...job('flooder', 5, `flood ${i}`, false, `kind ${i}`), queued: 10 });
    const first = queue.next(2, [], 10)!;
    expect(queue.next(1, [first], 10)).toBeUndefined();
    queue.add(persons(20));
    expect(queue.next(1, [first], 20)!.name).toBe('person');
    // With two workers free, the flood takes one: the pool is never left idle for it.
    expect(queue.next(2, [], 30)!.client).toBe('flooder');
  });

  it('goes to the one client, or the one kind, that holds the others when nobody else has asked lately', () => {
    const queue = new SearchScheduler<Job>({ patienceMs: 1_000, capacity: 16, reserveMs: 1_000 });
    // One client alone: every request behind a reverse proxy has the proxy's address.
    for (let i = 0; i < 3; i++) queue.add({ ...job('proxy', 5, `proxied ${i}`, false, `kind ${i % 2}`), queued: 0 });
    const first = queue.next(2, [], 0)!;
    expect(queue.next(1, [first], 0)!.client).toBe('proxy');
    // A flood of one kind, once the person who asked is long gone.
    const later = scheduler();
    later.add(persons(0));
    later.finished(later.next(2, [], 0)!, 5);
    later.add(flood('f1', 20_000));
    later.add(flood('f2', 20_000));
    const taken = later.next(2, [], 20_000)!;
    expect(later.next(1, [taken], 20_000)?.kind).toBe('facets');
  });

  it('lets a person searching as often as each of 8 flooding clients start every search at once', () => {
    // Two search workers; 8 clients each loop a 30 ms search of one kind, asking again as soon as
    // answered; a person's 10 ms search, asked again 10 ms after each answer (a record between).
    const queue = scheduler();
    const workers: { job: Job; ends: number }[] = [];
    const waits: number[] = [];
    let personAsks = 5;
    for (let n = 0; n < 8; n++) queue.add(flood(`f${n}`, 0));
    for (let now = 0; now < 5_000; now++) {
      for (const done of workers.filter(({ ends }) => ends === now)) {
        workers.splice(workers.indexOf(done), 1);
        queue.finished(done.job, done.job.client === 'person' ? 10 : 30);
        if (done.job.client === 'person') personAsks = now + 10;
        else queue.add(flood(done.job.client, now));
      }
      if (now === personAsks) queue.add(persons(now));
      for (
        let next = queue.next(
          2 - workers.length,
          workers.map(({ job }) => job),
          now,
        );
        next;
      ) {
        if (next.client === 'person') waits.push(now - next.queued);
        workers.push({ job: next, ends: now + (next.client === 'person' ? 10 : 30) });
        next = queue.next(
          2 - workers.length,
          workers.map(({ job }) => job),
          now,
        );
      }
    }
    expect(waits.length).toBeGreaterThan(200);
    // Its first search waits for one flood search to end (both workers were the flood's), none later.
    // Before, it waited for a search of each flooder in turn whenever it had had as much as they.
    expect(waits[0]).toBeLessThanOrEqual(30);
    expect(Math.max(...waits.slice(1))).toBe(0);
  });
});

describe('a client’s lead', () => {
  it('is forgiven past a bound when it comes back: one slow search does not make its next wait for every flooder to catch up', () => {
    const queue = scheduler();
    for (let n = 0; n < 8; n++) queue.add(job(`f${n}`, 2));
    // The person's search ran slow in a busy moment (100 ms where the flood's take 2).
    queue.add(job('person', 2));
    let taken = queue.next(1, [])!;
    while (taken.client !== 'person') {
      queue.finished(taken, 2);
      queue.add(job(taken.client, 2));
      taken = queue.next(1, [])!;
    }
    queue.finished(taken, 100);
    queue.add(job('person', 2));
    let before = 0;
    for (taken = queue.next(1, [])!; taken.client !== 'person'; taken = queue.next(1, [])!) {
      before++;
      queue.finished(taken, 2);
      queue.add(job(taken.client, 2));
    }
    // Before, each of the 8 flooders had 50 searches first (400 in all).
    expect(before).toBeLessThanOrEqual(8 * 10);
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

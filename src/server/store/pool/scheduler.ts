import { LastAsked } from './last-asked';

/**
 * The searches waiting for a worker of the pool, and which goes next. Fair by client first,
 * by price second: each client (store/client.ts) has its own queue, and the next search is
 * taken from the client that has had the least of the workers' time, so a person's single
 * search goes before the next of any client flooding the pool, however cheap that flood is.
 * Within one client, searches go cheapest first (admission.ts prices them), and one that
 * has waited `patienceMs` goes before cheaper ones of its client, so none waits for ever.
 *
 * A client's share is counted as start-time fair queueing counts it: each search taken
 * adds its price to its client's usage, corrected to the time it took once it has run (a
 * kind's price is only its recent runs' fastest), and a client that has been idle starts
 * again from the usage of the last search taken (the pool's virtual time), so time not
 * used earlier is not saved up for a burst later; nor is one that comes back idle more
 * than `maxLeadMs` ahead of it, so one slow run does not cost it a wait for every client.
 *
 * Fairness in turns alone still lets a flood hold every worker: a person who searches as
 * often as each of 8 flooding clients has had as much of the workers, and waits for a
 * search of each of them in turn. So the last free search worker is kept for a search
 * unlike every one running: of a client holding none of the workers, and of a kind (its
 * shape, admission.ts) none of them runs, so a flood of one kind, from one client or many,
 * holds all search workers but one, and a search of another kind starts as soon as it
 * comes. It is kept only while another client, or another kind, has asked lately
 * (`reserveMs`): one client alone (every request behind a reverse proxy), or searches all of
 * one kind, have every worker, as nobody else would take the last.
 *
 * Besides, the last free search worker goes only to a search that is not dear, far cheaper than
 * every search running (a page of many records never is: its kind's price is its cheapest
 * page's), or of the one client to ask lately (a person's page asks for its results and its
 * dear facets at once), so a flood of dear searches never holds every worker; one that has
 * waited out its patience may take it anyway. None may while a dear search runs (a flood's
 * searches, each overdue in turn, would hold every worker).
 */

export interface Waiting {
  /** Who asked (store/client.ts). */
  readonly client: string;
  /** Requests of the same shape (admission.ts): a flood of one kind is kept from the last free worker. */
  readonly kind: string;
  /** Milliseconds, as its kind has cost so far (admission.ts). */
  readonly cost: number;
  readonly dear: boolean;
  /** A page of many records: however cheap its kind's price, it is never "far cheaper" than a search running. */
  readonly bulk?: boolean;
  /** When it was queued (performance.now()). */
  readonly queued: number;
}

interface Client<J> {
  /** Its waiting searches, cheapest first; equal prices in arrival order. */
  readonly queue: J[];
  /** The workers' time its searches have been given, in the pool's virtual time. */
  usage: number;
  /** Its searches taken and not yet finished: a client is remembered while it has any. */
  running: number;
  /**
   * It had used less than the others and starts from the virtual time: among clients of the
   * same usage it goes first, as it has had nothing of this turn.
   */
  returning: boolean;
}

export interface SchedulerOptions {
  /** How long a search may wait before it goes ahead of cheaper ones of its client. */
  readonly patienceMs: number;
  /** Searches that may wait; past it, the newest search of the client holding most is refused. */
  readonly capacity: number;
  /**
   * How long after another client, or another kind of search, last asked the last free
   * worker is still kept from a client, or a kind, that holds one (10 s unless said).
   */
  readonly reserveMs?: number;
  /**
   * How far ahead of the virtual time a client that comes back with nothing queued or
   * running may be: one slow run (a busy moment, a dear page) would otherwise keep its next
   * search waiting until every other client had caught up with it, a wait that grows with
   * the number of clients (20 ms unless said). A client keeping searches queued pays in full.
   */
  readonly maxLeadMs?: number;
}

const defaultReserveMs = 10_000;
const defaultMaxLeadMs = 20;

/** A search taken counts at least this much against its client, so even free searches take turns. */
const leastCharge = 0.1;

/** Idle clients remembered at most; past it, the idle ones are forgotten (they start again from the virtual time). */
const maxIdleClients = 4096;

export class SearchScheduler<J extends Waiting> {
  private readonly clients = new Map<string, Client<J>>();
  /** What each search running was charged when taken, until it has finished. */
  private readonly charged = new Map<J, number>();
  /** The usage of the client served last: where a client that was idle starts again. */
  private virtualTime = 0;
  private waiting = 0;
  private readonly clientsAsked = new LastAsked();
  private readonly kindsAsked = new LastAsked();
  private readonly reserveMs: number;
  private readonly maxLeadMs: number;

  constructor(private readonly options: SchedulerOptions) {
    this.reserveMs = options.reserveMs ?? defaultReserveMs;
    this.maxLeadMs = options.maxLeadMs ?? defaultMaxLeadMs;
  }

  get length(): number {
    return this.waiting;
  }

  /**
   * Queues `job`. When the queue is full, the newest search of the client holding the most
   * makes room for it, unless its own client holds as many: returns the search refused
   * (`job` itself or the one it displaced), undefined when none was.
   */
  add(job: J): J | undefined {
    this.clientsAsked.asked(job.client, job.queued);
    this.kindsAsked.asked(job.kind, job.queued);
    let refused: J | undefined;
    if (this.waiting >= this.options.capacity) {
      const own = this.clients.get(job.client)?.queue.length ?? 0;
      const largest = this.largestClient();
      if (!largest || largest.queue.length <= own + 1) return job;
      refused = this.removeNewest(largest);
    }
    let client = this.clients.get(job.client);
    if (!client) this.clients.set(job.client, (client = { queue: [], usage: this.virtualTime, running: 0, returning: true }));
    else if (client.queue.length === 0 && client.usage <= this.virtualTime) {
      client.usage = this.virtualTime;
      client.returning = true;
    } else if (client.queue.length === 0 && client.running === 0) client.usage = Math.min(client.usage, this.virtualTime + this.maxLeadMs);
    const at = client.queue.findIndex((waiting) => waiting.cost > job.cost);
    client.queue.splice(at === -1 ? client.queue.length : at, 0, job);
    this.waiting++;
    return refused;
  }

  /** The search a worker takes now, if any may run: `free` search workers are free, and `running` are the searches running. */
  next(free: number, running: readonly Waiting[], now = performance.now()): J | undefined {
    if (free <= 0 || this.waiting === 0) return undefined;
    const cheapestRunning = Math.min(...running.map(({ cost }) => cost));
    const unlikeRunning = this.unlikeRunning(running, now);
    const noDearRunning = !running.some(({ dear }) => dear);
    const alone = (job: J) => noDearRunning && !this.clientsAsked.othersSince(job.client, now - this.reserveMs);
    const cheapEnough = (job: J) => !job.dear || (!job.bulk && job.cost * 4 <= cheapestRunning) || alone(job);
    const mayRun = (job: J) => free > 1 || (unlikeRunning(job) && cheapEnough(job));
    let best: { client: Client<J>; at: number } | undefined;
    for (const client of this.clients.values()) {
      if (client.queue.length === 0) continue;
      const at = this.candidate(client.queue, now, mayRun, (job) => mayRun(job) || (noDearRunning && unlikeRunning(job)));
      if (at === -1) continue;
      if (!best || this.before(client, client.queue[at]!, best.client, best.client.queue[best.at]!)) best = { client, at };
    }
    if (!best) return undefined;
    const [job] = best.client.queue.splice(best.at, 1);
    this.waiting--;
    this.virtualTime = Math.max(this.virtualTime, best.client.usage);
    const charge = Math.max(leastCharge, job!.cost);
    best.client.usage += charge;
    best.client.running++;
    best.client.returning = false;
    this.charged.set(job!, charge);
    this.forgetIdle();
    return job;
  }

  /** When the next waiting search will have waited its patience out, if one has yet to (dispatcher.ts looks again then). */
  nextOverdue(now = performance.now()): number | undefined {
    let next: number | undefined;
    for (const client of this.clients.values())
      for (const job of client.queue) {
        const at = job.queued + this.options.patienceMs;
        if (at > now && (next === undefined || at < next)) next = at;
      }
    return next;
  }

  /** A search taken has finished after `ms` of a worker's time: its client is charged what it took, not its price. */
  finished(job: J, ms: number): void {
    const charge = this.charged.get(job);
    if (charge === undefined) return;
    this.charged.delete(job);
    const client = this.clients.get(job.client);
    if (!client) return;
    client.usage += Math.max(leastCharge, ms) - charge;
    client.running--;
  }

  /** Empties the queue (the pool is closing, or cannot read its file): the searches that waited. */
  drain(): J[] {
    const jobs = [...this.clients.values()].flatMap((client) => client.queue.splice(0));
    this.waiting = 0;
    return jobs;
  }

  /**
   * Whether a search may take the last free worker as far as who holds the others goes: not
   * while its client holds one, or a search of its kind runs, if anyone else has asked lately.
   */
  private unlikeRunning(running: readonly Waiting[], now: number): (job: J) => boolean {
    if (running.length === 0) return () => true;
    const since = now - this.reserveMs;
    const holding = new Set(running.map(({ client }) => client));
    const kinds = new Set(running.map(({ kind }) => kind));
    return (job) =>
      !(holding.has(job.client) && this.clientsAsked.othersSince(job.client, since)) &&
      !(kinds.has(job.kind) && this.kindsAsked.othersSince(job.kind, since));
  }

  /** Within one client: the search waiting longest past its patience if it may run, else the cheapest that may. */
  private candidate(queue: readonly J[], now: number, mayRun: (job: J) => boolean, overdueMayRun: (job: J) => boolean): number {
    const overdue = now - this.options.patienceMs;
    let at = -1;
    for (let i = 0; i < queue.length; i++) if (queue[i]!.queued <= overdue && (at === -1 || queue[i]!.queued < queue[at]!.queued)) at = i;
    return at !== -1 && overdueMayRun(queue[at]!) ? at : queue.findIndex(mayRun);
  }

  /** Between clients: the one that has had least first; then one returning, the cheaper search, the one waiting longer. */
  private before(a: Client<J>, jobA: J, b: Client<J>, jobB: J): boolean {
    if (a.usage !== b.usage) return a.usage < b.usage;
    if (a.returning !== b.returning) return a.returning;
    if (jobA.cost !== jobB.cost) return jobA.cost < jobB.cost;
    return jobA.queued < jobB.queued;
  }

  private largestClient(): Client<J> | undefined {
    let largest: Client<J> | undefined;
    for (const client of this.clients.values()) if (!largest || client.queue.length > largest.queue.length) largest = client;
    return largest;
  }

  private removeNewest(client: Client<J>): J {
    let at = 0;
    for (let i = 1; i < client.queue.length; i++) if (client.queue[i]!.queued >= client.queue[at]!.queued) at = i;
    this.waiting--;
    return client.queue.splice(at, 1)[0]!;
  }

  /**
   * A client with nothing waiting whose usage the virtual time has reached would start from
   * the virtual time anyway: it is forgotten. Others are kept while there are few.
   */
  private forgetIdle(): void {
    for (const [name, client] of this.clients)
      if (client.queue.length === 0 && client.running === 0 && (client.usage <= this.virtualTime || this.clients.size > maxIdleClients))
        this.clients.delete(name);
  }
}

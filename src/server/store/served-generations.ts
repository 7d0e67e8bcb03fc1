import type { RecordStore } from './types';

/**
 * The generations of a served file open at once (reloading-store.ts): the current one
 * (searches), the one facets are asked of, and retired ones still finishing their requests,
 * each closed when its last request has ended.
 */

/** Which file a generation was opened on, and the revision its writer left. */
export interface Identity {
  readonly inode: number;
  readonly device: number;
  readonly revision: string;
}

export interface Generation {
  readonly store: RecordStore;
  readonly identity: Identity;
  /** Its number: 1 for the first opened. */
  readonly count: number;
  inFlight: number;
  retired: boolean;
  /** Its store has been closed. */
  closed: boolean;
  /** Its workers' snapshots are off the log, or need not or cannot move. */
  logSettled: boolean;
}

/** What the server is told of generations (ReloadOptions). */
export interface GenerationEvents {
  /** Called when a new generation has replaced the old one (its store opened and warm), for searches and then for facets. */
  readonly onGeneration?: (generation: number, facets: boolean) => void;
  /** Called when a generation serving alone has moved its snapshots off the write-ahead log and emptied it. */
  readonly onLogReleased?: (generation: number) => void;
  /** Called when a retired generation has closed: its requests ended and its workers closed their stores. */
  readonly onClosed?: (generation: number) => void;
}

/**
 * The generations open at once: the current one (searches), the one facets are asked of
 * (the current one once its facet values are read), and retired ones still finishing requests.
 */
export class Generations {
  /** Generations whose stores are not closed yet. */
  private readonly live = new Set<Generation>();
  current: Generation;
  /** The generation facets are asked of: the current one once its facet values are read. */
  facetsFrom: Generation;
  count = 0;
  closed = false;
  private moving = false;

  constructor(
    first: RecordStore,
    identity: Identity,
    private readonly options: GenerationEvents,
    /** Called when a generation closed, so the one left may move its snapshots off the log. */
    private readonly onClosed: () => void,
  ) {
    this.current = this.facetsFrom = this.open(first, identity);
  }

  private open(store: RecordStore, identity: Identity): Generation {
    const generation = { store, identity, count: ++this.count, inFlight: 0, retired: false, closed: false, logSettled: false };
    this.live.add(generation);
    return generation;
  }

  /** A new generation serves searches from now on, and facets once its facet values are read. */
  replace(store: RecordStore, identity: Identity): void {
    const old = this.current;
    const generation = this.open(store, identity);
    this.current = generation;
    this.options.onGeneration?.(generation.count, false);
    void this.retire(old);
    if (store.facetsWarm) {
      const takeFacets = () => {
        if (!this.closed && !generation.retired) this.takesFacets(generation);
      };
      store.facetsWarm.then(takeFacets, takeFacets);
    } else this.takesFacets(generation);
  }

  /** Facets are asked of `generation` from now on (a newer one may have taken them already). */
  private takesFacets(generation: Generation): void {
    if (generation.count < this.facetsFrom.count) return;
    const before = this.facetsFrom;
    this.facetsFrom = generation;
    this.options.onGeneration?.(generation.count, true);
    void this.retire(before);
  }

  private async retire(generation: Generation): Promise<void> {
    if (generation === this.current || generation === this.facetsFrom || generation.retired) return;
    generation.retired = true;
    if (generation.inFlight === 0) await this.closeGeneration(generation);
  }

  private async closeGeneration(generation: Generation): Promise<void> {
    if (generation.closed) return;
    generation.closed = true;
    await generation.store.close().catch(() => undefined);
    this.live.delete(generation);
    if (this.closed) return;
    this.options.onClosed?.(generation.count);
    this.onClosed();
  }

  /** Runs one call on the generation current when it starts (for facets: `facetsFrom`), holding that generation open until it ends. */
  async within<T>(work: (store: RecordStore) => Promise<T>, generation = this.current): Promise<T> {
    generation.inFlight++;
    try {
      return await work(generation.store);
    } finally {
      generation.inFlight--;
      if (generation.retired && generation.inFlight === 0) await this.closeGeneration(generation);
    }
  }

  /** Moves the current generation's snapshots off the log once it serves alone (in the background: a busy worker may take a while). */
  settleLog(): void {
    const generation = this.current;
    if (this.moving || generation.logSettled || this.live.size > 1 || !generation.store.moveSnapshots) return;
    this.moving = true;
    generation.store
      .moveSnapshots()
      .then(
        (moved) => {
          if (moved === 'busy') return;
          generation.logSettled = true;
          if (moved === 'moved' && !this.closed) this.options.onLogReleased?.(generation.count);
        },
        () => {
          generation.logSettled = true;
        },
      )
      .finally(() => {
        this.moving = false;
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...new Set([this.current, this.facetsFrom])].map((generation) => generation.store.close()));
  }
}

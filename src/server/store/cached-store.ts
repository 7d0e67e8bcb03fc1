import type { ApiRecord } from '../../deployments/registry';
import type { DeploymentKey } from '../../deployments/schema';
import { BudgetCache } from '../caches/budget-cache';
import type { PageRendering } from '../render/page-body';
import type { MarkedDocs } from '../render/rendered-body';
import { currentClient } from './client';
import type { Ranked } from './engine';
import type { EngineCalls } from './engine-calls';
import type { Criteria, RecordStore, RenderedPage, SearchResult } from './types';

/**
 * A RecordStore over a query engine (in this thread or on workers) that remembers each
 * search's order and exact total: the next page, the same search from another user, or a
 * deep page after the first costs an id lookup instead of ranking again. The database is
 * read-only while a store is open (the revision is fixed), so entries never go stale;
 * they leave only by LRU when the memory budget is spent.
 */

export interface CacheOptions {
  /** Bytes of ordered ids kept (each id is 4 bytes); 0 keeps none, so every search is ranked afresh. */
  readonly budgetBytes?: number;
  /** Ranked at least this deep on a miss past the first page, so the pages after it are hits. */
  readonly minDepth?: number;
}

/** Criteria without paging: every page of one search shares an entry. */
function cacheKey(key: DeploymentKey, criteria: Criteria): string {
  const { offset: _offset, limit: _limit, ...search } = criteria;
  return `${key}\u0000${JSON.stringify(search)}`;
}

/** A page whose records are parsed from their JSON text only if someone reads them (a JSON response does not). */
function result(total: number, { docs, generated }: MarkedDocs): SearchResult {
  let records: readonly ApiRecord[] | undefined;
  return {
    total,
    json: docs,
    generated,
    get records() {
      records ??= docs.map((doc) => JSON.parse(doc) as ApiRecord);
      return records;
    },
  };
}

const noDocs: MarkedDocs = { docs: [], generated: [] };

const covers = (ranked: Ranked, need: number) => ranked.complete || ranked.ids.length >= need;

/** The budget `records serve` uses unless told otherwise (`--search-cache-mb`). */
export const defaultCacheBytes = 64 * 1024 * 1024;

/** Search orders kept by the bytes of their ids, least recently used out first once the budget is spent. */
class OrderCache {
  private readonly orders: BudgetCache<Ranked>;

  constructor(budget: number) {
    this.orders = new BudgetCache(budget);
  }

  remember(id: string, ranked: Ranked): void {
    this.orders.set(id, ranked, ranked.ids.byteLength + 256);
  }

  /** The order kept for `id` if it covers `need` rows. */
  lookup(id: string, need: number): Ranked | undefined {
    const ranked = this.orders.get(id);
    return ranked && covers(ranked, need) ? ranked : undefined;
  }
}

/** How deep a search is ranked on a miss. */
function depthOf(criteria: Criteria, minDepth: number): number {
  // A first page ranks itself and the next (which the app fetches ahead): it is most searches'
  // only page, and top k prunes far more at 40 than at 200. A search paged further is ranked
  // deep at once. The same depths with the cache off, so an uncached request costs what a first does.
  const need = criteria.offset + criteria.limit;
  return criteria.offset === 0 ? 2 * need : Math.max(need, minDepth);
}

/** The page's ids in an order at hand. */
const windowIds = (ranked: Ranked, { offset, limit }: Criteria) =>
  offset >= ranked.total ? new Int32Array(0) : ranked.ids.slice(offset, offset + limit);

/**
 * The windows of searches (pages), each read from an order at hand, the cache's or one being
 * ranked for another request of the same client, or else ranked and read at once.
 */
class SearchWindows {
  // Searches being ranked now, by client: a request for the same search waits for that work
  // instead of repeating it. Only the same client's: the work waits its client's turn in the
  // pool (pool/scheduler.ts), so another client joining it would wait for a flood's turn.
  private readonly running = new Map<string, { need: number; promise: Promise<Ranked> }>();

  constructor(
    private readonly cache: OrderCache,
    private readonly minDepth: number,
  ) {}

  /** A window of a search: `window` reads it from an order at hand, `first` ranks and reads it at once. */
  async windowOf<T>(
    key: DeploymentKey,
    criteria: Criteria,
    window: (ranked: Ranked, ids: Int32Array) => Promise<T>,
    first: (depth: number) => Promise<Ranked & { window: T }>,
  ): Promise<T> {
    const id = cacheKey(key, criteria);
    const need = criteria.offset + criteria.limit;
    const cached = this.cache.lookup(id, need);
    if (cached) return window(cached, windowIds(cached, criteria));
    const runningId = `${currentClient()} ${id}`;
    const inFlight = this.running.get(runningId);
    if (inFlight && inFlight.need >= need) {
      const ranked = await inFlight.promise;
      return window(ranked, windowIds(ranked, criteria));
    }
    return this.rankFirst(id, runningId, depthOf(criteria, this.minDepth), first);
  }

  /** Ranks a search `depth` deep and reads its window, letting the same client's requests for it wait on the work. */
  private async rankFirst<T>(
    id: string,
    runningId: string,
    depth: number,
    first: (depth: number) => Promise<Ranked & { window: T }>,
  ): Promise<T> {
    const work = first(depth);
    const promise = work.then(({ window: _window, ...ranked }) => ranked);
    // Waiters see a failure through their own await; nobody waiting is not an unhandled rejection.
    promise.catch(() => undefined);
    this.running.set(runningId, { need: depth, promise });
    try {
      const { window: found, ...ranked } = await work;
      this.cache.remember(id, ranked);
      return found;
    } finally {
      if (this.running.get(runningId)?.promise === promise) this.running.delete(runningId);
    }
  }
}

export function cachedStore(engine: EngineCalls, options: CacheOptions = {}): RecordStore {
  const windows = new SearchWindows(new OrderCache(options.budgetBytes ?? defaultCacheBytes), options.minDepth ?? 200);

  const search = (key: DeploymentKey, criteria: Criteria): Promise<SearchResult> =>
    windows.windowOf(
      key,
      criteria,
      async (ranked, ids) => result(ranked.total, ids.length ? await engine.fetch(key, ids) : noDocs),
      async (depth) => {
        const { docs, generated, ...ranked } = await engine.rankPage(key, criteria, depth, criteria.offset, criteria.limit);
        return { ...ranked, window: result(ranked.total, criteria.offset >= ranked.total ? noDocs : { docs, generated }) };
      },
    );

  const page = (key: DeploymentKey, criteria: Criteria, rendering: PageRendering): Promise<RenderedPage> =>
    windows.windowOf(
      key,
      criteria,
      async (ranked, ids) => ({ total: ranked.total, ...(await engine.render(key, ids, rendering)) }),
      async (depth) => {
        const { page: body, ...ranked } = await engine.rankRender(key, criteria, depth, criteria.offset, criteria.limit, rendering);
        return { ...ranked, window: { total: ranked.total, ...body } };
      },
    );

  return {
    revision: engine.revision,
    search,
    page,
    facets: (key, criteria, requests) => engine.facets(key, criteria, requests),
    get: (key, repoId) => engine.get(key, repoId),
    fulltext: (key, repoId) => engine.fulltext(key, repoId),
    count: (key) => engine.count(key),
    suggest: (key, q) => engine.suggest(key, q),
    complete: (key, request) => engine.complete(key, request),
    close: () => engine.close(),
  };
}

import { deploymentByKey } from '../../deployments/registry';
import type { DeploymentKey } from '../../deployments/schema';
import type { Suggestion } from '../../formats/suggest-response';
import type { CompletedValue, CompleteRequest } from '../complete/complete-request';
import type { PageRendering } from '../render/page-body';
import { renderBody, type MarkedDocs, type RenderedBody } from '../render/rendered-body';
import type { QueryEngine, Ranked } from './engine';
import type { Criteria, FacetRequest, FacetsResult, FoundRecord } from './types';

/**
 * The store's operations on a query engine, as the cache of search orders (cached-store.ts)
 * asks them: asynchronous, since a pooled store's run on worker threads. One dispatcher
 * answers them from an engine, whether in this thread (`localCalls`) or on a worker
 * (store-worker.ts, which is sent an operation's name and arguments).
 */

export interface EngineCalls {
  readonly revision: string;
  /** Orders and counts (see QueryEngine.rank) and returns the records of one window of the order, as stored JSON text. */
  rankPage(key: DeploymentKey, criteria: Criteria, need: number, offset: number, limit: number): Promise<Ranked & MarkedDocs>;
  fetch(key: DeploymentKey, ids: Int32Array): Promise<MarkedDocs>;
  /** rankPage with the window written as a response body where the engine runs (render/rendered-body.ts). */
  rankRender(
    key: DeploymentKey,
    criteria: Criteria,
    need: number,
    offset: number,
    limit: number,
    rendering: PageRendering,
  ): Promise<Ranked & { page: RenderedBody }>;
  /** fetch with the records written as a response body where the engine runs. */
  render(key: DeploymentKey, ids: Int32Array, rendering: PageRendering): Promise<RenderedBody>;
  facets(key: DeploymentKey, criteria: Criteria, requests: readonly FacetRequest[]): Promise<FacetsResult>;
  get(key: DeploymentKey, repoId: string): Promise<FoundRecord | undefined>;
  fulltext(key: DeploymentKey, repoId: string): Promise<string | undefined>;
  count(key: DeploymentKey): Promise<number>;
  suggest(key: DeploymentKey, q: string): Promise<Suggestion | undefined>;
  complete(key: DeploymentKey, request: CompleteRequest): Promise<CompletedValue[]>;
  close(): Promise<void>;
}

/** An operation a store sends its engine. */
export type EngineOp = Exclude<keyof EngineCalls, 'revision' | 'close'>;

/** Each operation answered at once, by an engine on the thread it runs on. */
export type EngineAnswers = { [K in EngineOp]: (...args: Parameters<EngineCalls[K]>) => Awaited<ReturnType<EngineCalls[K]>> };

/** The one dispatcher of the store's operations: each answered by `engine`. */
export function engineAnswers(engine: QueryEngine): EngineAnswers {
  const rendered = (key: DeploymentKey, ids: ArrayLike<number>, rendering: PageRendering) => {
    const deployment = deploymentByKey(key);
    if (!deployment) throw new Error(`unknown deployment ${key}`);
    return renderBody(deployment, engine.fetch(key, ids), rendering, engine.revision);
  };
  return {
    rankPage(key, criteria, need, offset, limit) {
      const ranked = engine.rank(key, criteria, need);
      return { ...ranked, ...engine.fetch(key, ranked.ids.subarray(offset, offset + limit)) };
    },
    fetch: (key, ids) => engine.fetch(key, ids),
    rankRender(key, criteria, need, offset, limit, rendering) {
      const ranked = engine.rank(key, criteria, need);
      return { ...ranked, page: rendered(key, ranked.ids.subarray(offset, offset + limit), rendering) };
    },
    render: rendered,
    facets: (key, criteria, requests) => engine.facets(key, criteria, requests),
    get: (key, repoId) => engine.get(key, repoId),
    fulltext: (key, repoId) => engine.fulltext(key, repoId),
    count: (key) => engine.count(key),
    suggest: (key, q) => engine.suggest(key, q),
    complete: (key, request) => engine.complete(key, request),
  };
}

/** Runs the operation `op` names with the arguments it was sent (a worker's request). */
export function answerOp(answers: EngineAnswers, op: EngineOp, args: readonly unknown[]): unknown {
  return (answers[op] as (...args: readonly unknown[]) => unknown)(...args);
}

/** Engine calls for an engine in this thread: the same answers, as promises. */
export function localCalls(engine: QueryEngine): EngineCalls {
  const answers = engineAnswers(engine);
  const calls = Object.fromEntries(
    (Object.keys(answers) as EngineOp[]).map((op) => [op, async (...args: unknown[]) => answerOp(answers, op, args)]),
  ) as Omit<EngineCalls, 'revision' | 'close'>;
  return { ...calls, revision: engine.revision, close: async () => engine.close() };
}

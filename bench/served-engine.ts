import type { EngineOptions } from '../src/server/store/sqlite/query-engine';

/**
 * How a served worker opens its engine (store-worker.ts): one read snapshot for the engine's
 * life, so a search takes no read transaction of its own. The benchmarks that time the
 * engine open theirs the same way.
 */
export const asServed: EngineOptions = { snapshot: true };

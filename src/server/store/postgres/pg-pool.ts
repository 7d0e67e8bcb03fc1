import type pg from 'pg';
import { pgDriver } from './pg-driver';
import { StoreOverloaded } from '../types';

/**
 * Connections to a primary and its streaming replicas. Reads go to the replicas in turn
 * (to the primary when there are none); a replica that fails is skipped for a while and
 * the read is tried on the next server, so losing a replica stops no local index (pg-index.ts).
 */

export interface PgTarget {
  readonly primary: string;
  readonly replicas: readonly string[];
}

/** `postgres://primary[,postgres://replica…]`: the first URL is the primary. */
export function parseStoreUrl(value: string): PgTarget {
  const urls = value
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of urls) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`--store: "${url}" is not a URL (expected postgres://user@host:port/database)`);
    }
    if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
      throw new Error(`--store: "${url}" is not a postgres:// URL`);
    }
  }
  if (urls.length === 0) throw new Error('--store needs a postgres:// URL');
  return { primary: urls[0]!, replicas: urls.slice(1) };
}

/** How long a failed replica is left out before it is tried again. */
const retryAfterMs = 5_000;

/**
 * The pool's own wait for one of its connections ran out: the server is busy, not down.
 * (pg's pool says so in these words only; a connection that cannot be made says otherwise.)
 */
const isPoolWait = (error: unknown) => (error as Error).message === 'timeout exceeded when trying to connect';

/** Errors that say the server, not the query, is at fault: try another server. */
function isConnectionError(error: unknown): boolean {
  if (isPoolWait(error)) return false;
  const code = (error as { code?: string }).code ?? '';
  return (
    /^(ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|57P0[1-3]|08\w{3})$/.test(code) ||
    /Connection terminated|connect/i.test(String((error as Error).message))
  );
}

/** 57014: a statement ran past statement_timeout (the budget); 53300: the server has no connection to spare. */
function overloadOf(error: unknown, budgetMs: number): StoreOverloaded | undefined {
  const code = (error as { code?: string }).code;
  if (code === '57014')
    return new StoreOverloaded(`The search took longer than ${budgetMs / 1000} s, this server's limit. Narrow it and try again.`);
  if (code === '53300' || isPoolWait(error)) return new StoreOverloaded('Every connection to the database is in use; try again shortly.');
  return undefined;
}

interface Server {
  readonly pool: pg.Pool;
  downUntil: number;
}

export interface PgPools {
  /** Runs a read on a replica (or the primary), moving on from servers that are down. */
  read<R extends pg.QueryResultRow>(query: pg.QueryConfig): Promise<pg.QueryResult<R>>;
  readonly primary: pg.Pool;
  close(): Promise<void>;
}

/** How long one statement may run unless the server is given its own budget. */
export const defaultStatementTimeoutMs = 30_000;

export function openPools(target: PgTarget, { size = 8, statementTimeoutMs = defaultStatementTimeoutMs, waitMs = 3_000 } = {}): PgPools {
  const { Pool } = pgDriver();
  const make = (url: string) => {
    const pool = new Pool({
      connectionString: url,
      max: size,
      // Both how long a new connection may take and how long a request waits for a free one.
      connectionTimeoutMillis: waitMs,
      statement_timeout: statementTimeoutMs,
    });
    // An idle client losing its server is reported here; the next query gets a new one.
    pool.on('error', () => undefined);
    return pool;
  };
  const primary = make(target.primary);
  const readers: Server[] = (target.replicas.length ? target.replicas.map(make) : [primary]).map((pool) => ({ pool, downUntil: 0 }));
  let next = 0;

  /** The servers a read tries, in turn. */
  function tries(): Server[] {
    const now = Date.now();
    const order = readers.map((_, i) => readers[(next + i) % readers.length]!);
    next = (next + 1) % readers.length;
    // Servers believed up first, then the rest: a read is never refused while one may answer.
    const servers = [...order.filter((s) => s.downUntil <= now), ...order.filter((s) => s.downUntil > now)];
    if (target.replicas.length) servers.push({ pool: primary, downUntil: 0 });
    return servers;
  }

  return {
    primary,
    async read<R extends pg.QueryResultRow>(query: pg.QueryConfig) {
      let lastError: unknown;
      for (const server of tries()) {
        try {
          return await server.pool.query<R>(query);
        } catch (error) {
          const overload = overloadOf(error, statementTimeoutMs);
          if (overload) throw overload;
          if (!isConnectionError(error)) throw error;
          server.downUntil = Date.now() + retryAfterMs;
          lastError = error;
        }
      }
      throw lastError;
    },
    async close() {
      const pools = new Set([primary, ...readers.map((s) => s.pool)]);
      await Promise.all([...pools].map((pool) => pool.end()));
    },
  };
}

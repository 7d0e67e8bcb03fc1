import pg from 'pg';
import { StoreOverloaded } from '../types';

/**
 * Connections to a primary and its streaming replicas. Reads go to the replicas in turn
 * (to the primary when there are none); a replica that fails is skipped for a while and
 * the read is tried on the next server, so losing a replica costs no request.
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

/** Runs statements on one connection, one after another, each stopped by the server when what is left of the budget runs out. */
export type BudgetedRead = <R extends pg.QueryResultRow>(query: pg.QueryConfig) => Promise<pg.QueryResult<R>>;

interface Server {
  readonly pool: pg.Pool;
  downUntil: number;
}

export interface PgPools {
  /** Runs a read on a replica (or the primary), moving on from servers that are down. */
  read<R extends pg.QueryResultRow>(query: pg.QueryConfig): Promise<pg.QueryResult<R>>;
  /**
   * Runs `work` on one connection of one reading server (so a request of many statements
   * holds one connection, not the pool), each statement with statement_timeout set to what
   * is left of `budgetMs`: past the budget the server itself stops the statement, so nothing
   * runs on after the request was answered 503.
   */
  withBudget<T>(budgetMs: number, work: (read: BudgetedRead) => Promise<T>): Promise<T>;
  readonly primary: pg.Pool;
  close(): Promise<void>;
}

/** Memory for one sort or bitmap of a statement, per connection (PostgreSQL's work_mem). */
const workMemMb = 64;

/** How long one statement may run unless the server is given its own budget. */
export const defaultStatementTimeoutMs = 30_000;

export function openPools(target: PgTarget, { size = 8, statementTimeoutMs = defaultStatementTimeoutMs, waitMs = 3_000 } = {}): PgPools {
  const make = (url: string) => {
    // The planner does not count decompressing each row's tsvector, which a sequential scan
    // pays for every row it filters, so it picks one for broad searches; every query of the
    // store has an index that does better (GIN for text and keys, the ordered columns').
    // The rows GIN finds are a bitmap in work_mem: in the default 4 MB, the bitmap of a word
    // in a third of a million records turns lossy, and every row of a lossy page has its
    // vector decompressed and tested again; 64 MB keeps it exact.
    const pool = new pg.Pool({
      connectionString: url,
      max: size,
      // Both how long a new connection may take and how long a request waits for a free one.
      connectionTimeoutMillis: waitMs,
      statement_timeout: statementTimeoutMs,
      options: `-c enable_seqscan=off -c work_mem=${workMemMb}MB`,
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
    async withBudget<T>(budgetMs: number, work: (read: BudgetedRead) => Promise<T>): Promise<T> {
      const deadline = performance.now() + budgetMs;
      const late = () =>
        new StoreOverloaded(`The request took longer than ${budgetMs / 1000} s, this server's limit. Narrow it and try again.`);
      let lastError: unknown;
      for (const server of tries()) {
        let client: pg.PoolClient;
        try {
          client = await server.pool.connect();
        } catch (error) {
          const overload = overloadOf(error, budgetMs);
          if (overload) throw overload;
          if (!isConnectionError(error)) throw error;
          server.downUntil = Date.now() + retryAfterMs;
          lastError = error;
          continue;
        }
        // One statement at a time, so each one's timeout is what is left when it starts.
        let queue: Promise<unknown> = Promise.resolve();
        const read: BudgetedRead = <R extends pg.QueryResultRow>(query: pg.QueryConfig) => {
          const run = queue.then(async () => {
            const left = Math.floor(deadline - performance.now());
            if (left <= 0) throw late();
            await client.query(`SET statement_timeout = ${left}`);
            return client.query<R>(query).catch((error: unknown) => {
              throw (error as { code?: string }).code === '57014' ? late() : error;
            });
          });
          queue = run.catch(() => undefined);
          return run;
        };
        let broken = false;
        try {
          return await work(read);
        } catch (error) {
          const overload = overloadOf(error, budgetMs);
          if (overload) throw overload;
          if (!isConnectionError(error)) throw error;
          broken = true;
          server.downUntil = Date.now() + retryAfterMs;
          lastError = error;
        } finally {
          await queue;
          if (!broken) await client.query('RESET statement_timeout').catch(() => (broken = true));
          client.release(broken || undefined);
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

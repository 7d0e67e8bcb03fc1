import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { deploymentByKey, deployments } from '../../../deployments/registry';
import type { Deployment, DeploymentKey } from '../../../deployments/schema';
import type { RecordWriter, StoredRecord } from '../types';
import { pgHarvestLedger } from './pg-harvest-ledger';
import { openPools, parseStoreUrl } from './pg-pool';
import { changesChannel, createTableSql, pgSchemaVersion, pgTable, setupSql, writeLock } from './pg-schema';

/** Rows per INSERT: one statement carries a batch as arrays, so a bulk load is not one round trip per record. */
const batchSize = 1000;

/**
 * PostgreSQL text cannot hold NUL. The key column maps it alike in stored and asked-for
 * values; the record itself is JSON text, where a NUL is written escaped.
 */
export const nulFree = (text: string) => text.replace(/\u0000/g, '\uFFFD');

/** What the store keeps beside the record (`extra`, pg-schema.ts). */
export interface ExtraColumns {
  readonly fulltext?: string;
  readonly site?: string;
  readonly generated?: boolean;
}

/** A stored row (the record and what is kept beside it, as JSON text) as the record the importer gave. */
export function storedOf({ doc, extra }: { readonly doc: string; readonly extra: string }): StoredRecord {
  const { fulltext, site, generated } = JSON.parse(extra) as ExtraColumns;
  return {
    record: JSON.parse(doc) as StoredRecord['record'],
    ...(fulltext !== undefined ? { fulltext } : {}),
    ...(site !== undefined ? { site } : {}),
    ...(generated ? { generated } : {}),
  };
}

function upsertSql(deployment: Deployment): string {
  return `
    INSERT INTO ${pgTable(deployment)} (repo_id, doc, extra, seq)
    SELECT r.repo_id, r.doc, r.extra, nextval('record_changes')
    FROM unnest($1::text[], $2::text[], $3::text[]) AS r(repo_id, doc, extra)
    ON CONFLICT (repo_id) DO UPDATE SET doc = excluded.doc, extra = excluded.extra, seq = excluded.seq`;
}

/** One batch as the upsert's column arrays; a repo_id repeated within the batch keeps its last record. */
function batchColumns(batch: readonly StoredRecord[]): string[][] {
  const last = new Map(batch.map((stored) => [nulFree(stored.record.repo_id), stored]));
  const columns: string[][] = [[], [], []];
  for (const [key, { record, fulltext, site, generated }] of last) {
    columns[0]!.push(key);
    columns[1]!.push(JSON.stringify(record));
    columns[2]!.push(JSON.stringify({ fulltext, site, generated } satisfies ExtraColumns));
  }
  return columns;
}

/** Opens the primary for writing, creating the schema when it is missing. */
async function openPrimary(client: pg.PoolClient, primary: string): Promise<void> {
  const version = await client
    .query<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema'`)
    .catch(() => ({ rows: [] as { value: string }[] }));
  if (version.rows[0] && version.rows[0].value !== pgSchemaVersion()) {
    throw new Error(
      `${primary} has store schema ${version.rows[0].value}; this version needs ${pgSchemaVersion()}. Create a new database.`,
    );
  }
  await client.query(setupSql);
  for (const deployment of deployments) await client.query(createTableSql(deployment));
  await client.query(`INSERT INTO meta (key, value) VALUES ('schema', $1), ('store', $2) ON CONFLICT (key) DO NOTHING`, [
    pgSchemaVersion(),
    randomUUID(),
  ]);
}

/** The primary's URL without its credentials, for messages. */
export const primaryName = (storeUrl: string) => parseStoreUrl(storeUrl).primary.replace(/\/\/[^@/]*@/, '//');

/**
 * A run of writes to the PostgreSQL store's primary (types.ts, RecordWriter). Each put() is
 * one transaction that numbers its records in the change sequence under the write lock
 * (pg-schema.ts), so the servers' local indexes apply it whole and in order.
 */
export async function openPgRecordWriter(storeUrl: string): Promise<RecordWriter> {
  const { primary } = parseStoreUrl(storeUrl);
  const pools = openPools({ primary, replicas: [] }, { size: 1 });
  let client: pg.PoolClient;
  try {
    client = await pools.primary.connect();
  } catch (error) {
    await pools.close();
    throw error;
  }
  // A primary lost mid-write fails the statement under way; the client's own report of it
  // would otherwise be an unhandled error that ends the process with a stack.
  client.on('error', () => undefined);
  try {
    await openPrimary(client, primary);
  } catch (error) {
    client.release(true);
    await pools.close();
    throw error;
  }
  const upserts = new Map(deployments.map((deployment) => [deployment.key, upsertSql(deployment)]));
  const table = (key: DeploymentKey) => pgTable(deploymentByKey(key)!);

  async function put(key: DeploymentKey, records: Iterable<StoredRecord>): Promise<number> {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [writeLock]);
      let written = 0;
      let batch: StoredRecord[] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        await client.query({ name: `upsert_${key}`, text: upserts.get(key)!, values: batchColumns(batch) });
        written += batch.length;
        batch = [];
      };
      for (const stored of records) {
        batch.push(stored);
        if (batch.length >= batchSize) await flush();
      }
      await flush();
      if (written > 0) await client.query('SELECT pg_notify($1, $2)', [changesChannel, key]);
      await client.query('COMMIT');
      return written;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    client.release(true);
    await pools.close();
  };
  return {
    name: primaryName(storeUrl),
    put,
    async count(key) {
      const result = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table(key)}`);
      return result.rows[0]!.n;
    },
    async changed(key, records) {
      const { rows } = await client.query<{ repo_id: string; doc: string }>(
        `SELECT repo_id, doc FROM ${table(key)} WHERE repo_id = ANY($1::text[])`,
        [records.map(({ record }) => nulFree(record.repo_id))],
      );
      const stored = new Map(rows.map((row) => [row.repo_id, row.doc]));
      return records.filter(({ record }) => stored.get(nulFree(record.repo_id)) !== JSON.stringify(record));
    },
    harvests: pgHarvestLedger(client),
    close,
    discard: close,
  };
}

import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { deploymentByKey, deployments } from '../../../deployments/registry';
import { searchColumns, type Deployment, type DeploymentKey, type SearchColumn } from '../../../deployments/schema';
import { searchModel } from '../../../deployments/search-model';
import { textColumns } from '../../../formats/index-text';
import { keysOf } from '../../../formats/keys';
import { sortKeysOf } from '../../../formats/sort-keys';
import { facetRowsOf } from '../facets/facet-values';
import { buildPostings, dropPostings, hasPostings } from './indexer/postings';
import { postingsUpdater, type TextChange } from './indexer/postings-update';
import { modelChanges, modelParts } from '../model-digest';
import { createSchemaSql, dropSecondaryIndexesSql, secondaryIndexesSql, storeSchemaVersion, tablesOf } from './schema';
import { claimLog, stampOf } from './store-log';
import type { StoreWriter, StoredRecord } from '../types';

function prepareDeployment(db: Database.Database, deployment: Deployment) {
  const t = tablesOf(deployment);
  const columns = searchColumns.join(', ');
  const placeholders = searchColumns.map(() => '?').join(', ');
  // The row after its id: repo_id, the sort and date columns of the search model, the record, what its keys are drawn from.
  const ordered = searchModel(deployment).ordered.map(({ column }) => column);
  const rowColumns = ['repo_id', ...ordered, 'doc', 'site', 'generated'];
  const rowPlaceholders = rowColumns.map(() => '?').join(', ');
  const updates = rowColumns
    .slice(1)
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  return {
    findStored: db.prepare<[string], StoredRow>(`SELECT id, doc, site, generated FROM ${t.records} WHERE repo_id = ?`),
    oldText: db.prepare<[number], Record<SearchColumn, string>>(`SELECT ${columns} FROM ${t.text} WHERE id = ?`),
    deleteKey: db.prepare(`DELETE FROM ${t.keys} WHERE name = ? AND value = ? AND rec = ?`),
    upsertRecord: db.prepare(
      `INSERT INTO ${t.records} (id, ${rowColumns.join(', ')}) VALUES (?, ${rowPlaceholders}) ON CONFLICT(id) DO UPDATE SET ${updates}`,
    ),
    insertRecord: db.prepare(`INSERT INTO ${t.records} (${rowColumns.join(', ')}) VALUES (${rowPlaceholders})`),
    upsertText: db.prepare(`INSERT OR REPLACE INTO ${t.text} (id, ${columns}) VALUES (?, ${placeholders})`),
    insertKey: db.prepare(`INSERT OR IGNORE INTO ${t.keys} (name, value, rec) VALUES (?, ?, ?)`),
    count: db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${t.records}`),
  };
}

/** A stored record's row, as a replacement finds it. */
interface StoredRow {
  readonly id: number;
  readonly doc: string;
  readonly site: string | null;
  readonly generated: number;
}

/** The record and what its keys are drawn from, as its row keeps them. */
const storedOfRow = ({ doc, site, generated }: StoredRow): StoredRecord => ({
  record: JSON.parse(doc) as StoredRecord['record'],
  ...(site !== null ? { site } : {}),
  ...(generated ? { generated: true } : {}),
});

/**
 * A record's rows in the keys table: its exact-match keys and facet values. A replaced
 * record's are drawn again from its stored row to delete them, which is why keys may depend
 * only on what the row keeps, and why the keys table needs no index by record.
 */
const keyRowsOf = (deployment: Deployment, stored: StoredRecord): [string, string][] => [
  ...keysOf(deployment, stored),
  ...facetRowsOf(deployment, stored),
];

export interface WriterOptions {
  /**
   * A bulk load into a file no one reads yet (the CLI's new database): a rollback journal,
   * and postings dropped by each write and built once on close. Otherwise every put() is
   * one durable transaction in WAL mode that keeps the postings up to date, so readers on
   * other connections see each committed write whole, and nothing is left to do on close.
   */
  readonly bulk?: boolean;
}

/** Opens (creating if needed) a store file for writing. */
export function openStoreWriter(path: string, { bulk: bulkLoad = false }: WriterOptions = {}): StoreWriter {
  const setAside = claimLog(path);
  if (setAside) console.error(`records: ${setAside}`);
  const db = new Database(path);
  // A reader's snapshot may briefly hold the lock the switch to WAL needs.
  db.pragma('busy_timeout = 5000');
  if (bulkLoad) {
    // A bulk load writes each new page once with a rollback journal, where WAL writes it
    // to the log and again at checkpoint, and a log of gigabytes slows every page lookup.
    db.pragma('journal_mode = DELETE');
    db.pragma('synchronous = NORMAL');
  } else {
    // Readers keep reading their snapshot while a write commits; FULL makes each commit
    // durable when put() returns, not only safe from a crash of this process.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
  }
  // Every commit carries the file's stamp in page 1, so its log is known as this file's (store-log.ts).
  const stamp = stampOf(path);
  const setStamp = db.prepare(`PRAGMA user_version = ${stamp}`);
  if (db.pragma('user_version', { simple: true }) !== stamp) setStamp.run();
  // Index pages stay in memory while a million rows go in (SQLite's default is 2 MB).
  db.pragma('cache_size = -262144');
  db.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  const schemaVersion = storeSchemaVersion();
  const version = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'schema'`).get();
  if (version && version.value !== schemaVersion) {
    const changes = modelChanges(db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'model'`).get()?.value);
    db.close();
    throw new Error(
      `${path} has store schema ${version.value}; this version needs ${schemaVersion}${changes.length ? ` (changed in the deployment table: ${changes.join('; ')})` : ''}. Create a new database.`,
    );
  }
  // Opening an existing database writes nothing: only a put() changes what readers see.
  for (const deployment of deployments) db.exec(createSchemaSql(deployment));
  const setMeta = db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`);
  if (!version) {
    setMeta.run('schema', schemaVersion);
    // The table's parts, so a later version can name what changed (model-digest.ts).
    setMeta.run('model', JSON.stringify(modelParts()));
  }
  const statements = new Map(deployments.map((deployment) => [deployment.key, prepareDeployment(db, deployment)]));
  const updaters = new Map(deployments.map((deployment) => [deployment.key, postingsUpdater(db, deployment)]));

  // Deployments bulk-loaded since their postings were built: built again on close.
  const changed = new Set<Deployment>();

  const put = db.transaction((deployment: Deployment, records: Iterable<StoredRecord>) => {
    const s = statements.get(deployment.key)!;
    // Into an empty deployment, the secondary indexes (and postings) are built after the rows are in.
    const bulk = s.count.get()!.n === 0;
    const incremental = !bulkLoad && !bulk && hasPostings(db, deployment);
    if (!incremental) dropPostings(db, deployment);
    const changes = new Map<number, TextChange>();
    if (bulk) db.exec(dropSecondaryIndexesSql(deployment));
    let written = 0;
    for (const stored of records) {
      const { record } = stored;
      const text = textColumns(deployment, stored);
      const textValues = searchColumns.map((column) => text[column]);
      const row = [...sortKeysOf(searchModel(deployment), record), JSON.stringify(record), stored.site ?? null, stored.generated ? 1 : 0];
      const existing = s.findStored.get(record.repo_id);
      let id: number;
      if (existing) {
        id = existing.id;
        // The postings forget what the record held before this write.
        const before = incremental && !changes.has(id) ? s.oldText.get(id) : undefined;
        if (before) changes.set(id, { before, after: text });
        for (const [name, value] of keyRowsOf(deployment, storedOfRow(existing))) s.deleteKey.run(name, value, id);
        s.upsertRecord.run(id, record.repo_id, ...row);
      } else {
        id = Number(s.insertRecord.run(record.repo_id, ...row).lastInsertRowid);
      }
      if (incremental) changes.set(id, { ...changes.get(id), after: text });
      s.upsertText.run(id, ...textValues);
      for (const [name, value] of keyRowsOf(deployment, stored)) s.insertKey.run(name, value, id);
      written++;
    }
    if (bulk) db.exec(secondaryIndexesSql(deployment));
    if (incremental) updaters.get(deployment.key)!(changes);
    else if (bulkLoad) changed.add(deployment);
    else buildPostings(db, deployment);
    setMeta.run('revision', randomUUID());
    setStamp.run();
    return written;
  });
  const indexPostings = db.transaction((deployment: Deployment) => buildPostings(db, deployment));

  /**
   * Copies the log into the file and empties it, without waiting: a reader still on an older
   * snapshot keeps the frames it needs, as it should, and so does a disk too full to take
   * them. Done after every write, so a writer killed between writes leaves no log behind.
   */
  function checkpoint() {
    if (bulkLoad) return;
    db.pragma('busy_timeout = 0');
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Kept for the reasons above; the committed state is whole either way.
    } finally {
      db.pragma('busy_timeout = 5000');
    }
  }

  return {
    put(key: DeploymentKey, records: Iterable<StoredRecord>) {
      // Takes the write lock before its first read: a transaction that read first and then found
      // the lock held for an instant (a served generation moving its snapshot off the log,
      // snapshot-move.ts) or the log restarted would fail at once rather than wait its turn.
      const written = put.immediate(deploymentByKey(key)!, records);
      checkpoint();
      return written;
    },
    count(key: DeploymentKey) {
      return statements.get(key)!.count.get()!.n;
    },
    close() {
      try {
        for (const deployment of changed) indexPostings(deployment);
      } finally {
        // After a failed write (a full disk) SQLite can keep the log on close; emptied
        // here, it goes with the last connection, so nothing is left beside the database.
        checkpoint();
        db.close();
      }
    },
  };
}

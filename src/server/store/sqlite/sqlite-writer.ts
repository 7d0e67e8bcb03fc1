import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { deploymentByKey, deployments } from '../../../deployments/registry';
import type { Deployment, DeploymentKey } from '../../../deployments/schema';
import { searchModel } from '../../../deployments/search-model';
import { textColumns } from '../../../formats/index-text';
import { keysOf } from '../../../formats/keys';
import { recordFacetValues, type RecordFacetValues } from '../../../formats/value-folding';
import { sortKeysOf } from '../../../formats/sort-keys';
import { facetRowsOf } from '../facets/facet-values';
import { FacetColumnsWriter } from '../facets/facet-columns';
import { KeyListsWriter } from './key-lists';
import { buildPostings, dropPostings, hasPostings } from './indexer/postings';
import { PendingBuilds, startGathering, writeGathering } from './indexer/pending-builds';
import { postingsUpdater, type ColumnTexts, type TextChange } from './indexer/postings-update';
import { writeCodec, type BodyCodec } from './record-bodies';
import { dropSecondaryIndexesSql, secondaryIndexesSql, tablesOf } from './schema';
import { claimLog } from './store-log';
import { checkSchema, finishBulkLoad, openDatabase } from './store-file';
import type { StoreWriter, StoredRecord } from '../types';

function prepareDeployment(db: Database.Database, deployment: Deployment) {
  const t = tablesOf(deployment);
  // The row after its id: repo_id, the sort and date columns of the search model, the record, what its keys are drawn from, its full text.
  const ordered = searchModel(deployment).ordered.map(({ column }) => column);
  const rowColumns = ['repo_id', ...ordered, 'doc', 'site', 'generated', 'fulltext'];
  const rowPlaceholders = rowColumns.map(() => '?').join(', ');
  const updates = rowColumns
    .slice(1)
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  return {
    findStored: db.prepare<[string], StoredRow>(`SELECT id, doc, site, generated, fulltext FROM ${t.records} WHERE repo_id = ?`),
    upsertRecord: db.prepare(
      `INSERT INTO ${t.records} (id, ${rowColumns.join(', ')}) VALUES (?, ${rowPlaceholders}) ON CONFLICT(id) DO UPDATE SET ${updates}`,
    ),
    insertRecord: db.prepare(`INSERT INTO ${t.records} (${rowColumns.join(', ')}) VALUES (${rowPlaceholders})`),
    count: db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${t.records}`),
  };
}

/** A stored record's row, as a replacement finds it. */
interface StoredRow {
  readonly id: number;
  readonly doc: Buffer;
  readonly site: string | null;
  readonly generated: number;
  readonly fulltext: Buffer | null;
}

/** The record, what its keys are drawn from and its full text, as its row keeps them. */
const storedOfRow = (codec: BodyCodec, { doc, site, generated, fulltext }: StoredRow): StoredRecord => ({
  record: JSON.parse(codec.decode(doc)) as StoredRecord['record'],
  ...(site !== null ? { site } : {}),
  ...(generated ? { generated: true } : {}),
  ...(fulltext !== null ? { fulltext: codec.decode(fulltext) } : {}),
});

/**
 * A record's exact-match keys, as the key lists hold it. A replaced record's are drawn again
 * from its stored row to take it off their lists, which is why keys may depend only on what
 * the row keeps, and why the keys need no index by record.
 */
const keyRowsOf = (deployment: Deployment, stored: StoredRecord, facetValues?: RecordFacetValues): [string, string][] =>
  keysOf(deployment, stored, facetValues);

export interface WriterOptions {
  /**
   * A bulk load into a file no one reads yet (the CLI's new database): a rollback journal,
   * and postings dropped by each write and built once on close. Otherwise every put() is
   * one durable transaction in WAL mode that keeps the postings up to date, so readers on
   * other connections see each committed write whole, and nothing is left to do on close.
   */
  readonly bulk?: boolean;
  /**
   * gather-worker.ts as a thread loads it (gatherScript()): a write into an empty deployment
   * then gathers its records' text on a thread of its own, beside the one writing their rows.
   */
  readonly gatherScript?: URL;
}

/** What a put() keeps of one deployment: its statements, its postings' updater, its key lists and its facet columns. */
interface DeploymentWrite {
  readonly deployment: Deployment;
  readonly statements: ReturnType<typeof prepareDeployment>;
  readonly updatePostings: (changes: ReadonlyMap<number, TextChange>) => void;
  readonly keys: KeyListsWriter;
  readonly columns: FacetColumnsWriter;
}

function deploymentWrites(db: Database.Database): Map<DeploymentKey, DeploymentWrite> {
  return new Map(
    deployments.map((deployment): [DeploymentKey, DeploymentWrite] => [
      deployment.key,
      {
        deployment,
        statements: prepareDeployment(db, deployment),
        updatePostings: postingsUpdater(db, deployment),
        keys: new KeyListsWriter(db, tablesOf(deployment).keys),
        columns: new FacetColumnsWriter(db, deployment),
      },
    ]),
  );
}

/**
 * Writes one record's rows (inserted, or replacing the record of its repo_id) and its
 * facet columns; with `changes`, notes its text before and after for the postings.
 * Returns its id, whether it replaced a stored record, and the JSON its row keeps.
 */
function writeRecord(
  { deployment, statements: s, keys, columns }: DeploymentWrite,
  codec: BodyCodec,
  stored: StoredRecord,
  changes?: Map<number, TextChange>,
): { id: number; replaced: boolean; json: string } {
  const { record } = stored;
  const json = JSON.stringify(record);
  const body = codec.encode(json);
  const row = [
    ...sortKeysOf(searchModel(deployment), record),
    body,
    stored.site ?? null,
    stored.generated ? 1 : 0,
    stored.fulltext ? codec.encode(stored.fulltext) : null,
  ];
  const existing = s.findStored.get(record.repo_id);
  let id: number;
  // What the postings hold of a replaced record, drawn again from its row, unless an earlier record of this write replaced it.
  let before: ColumnTexts | undefined;
  if (existing) {
    id = existing.id;
    const old = storedOfRow(codec, existing);
    if (changes && !changes.has(id)) before = textColumns(deployment, old);
    keys.remove(id, keyRowsOf(deployment, old));
    s.upsertRecord.run(id, record.repo_id, ...row);
  } else {
    id = Number(s.insertRecord.run(record.repo_id, ...row).lastInsertRowid);
  }
  if (changes) {
    const after = textColumns(deployment, stored);
    const earlier = changes.get(id);
    changes.set(id, earlier ? { ...earlier, after } : before ? { before, after } : { after });
  }
  // Its keys and its facet rows draw on the same facet values.
  const facetValues = recordFacetValues(record);
  const keyRows = keyRowsOf(deployment, stored, facetValues);
  keys.add(id, keyRows);
  // The facet columns are the one copy of its facet values.
  columns.set(id, stored, [...keyRows, ...facetRowsOf(deployment, stored, facetValues)]);
  return { id, replaced: existing !== undefined, json };
}

/** Empties the log into the file without waiting (see openStoreWriter's `checkpoint`). */
function checkpointOf(db: Database.Database, bulkLoad: boolean): () => void {
  return () => {
    if (bulkLoad) return;
    db.pragma('busy_timeout = 0');
    try {
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // Kept for the reasons above; the committed state is whole either way.
    } finally {
      db.pragma('busy_timeout = 5000');
    }
  };
}

/** Runs a write; if it fails, what the key lists and columns kept in memory of it (new values' codes) goes with it. */
function forgettingOnFailure<T>(write: DeploymentWrite, run: () => T): T {
  try {
    return run();
  } catch (error) {
    write.keys.forget();
    write.columns.forget();
    throw error;
  }
}

/** Opens (creating if needed) a store file for writing. */
export function openStoreWriter(path: string, { bulk: bulkLoad = false, gatherScript }: WriterOptions = {}): StoreWriter {
  const setAside = claimLog(path);
  if (setAside) console.error(`records: ${setAside}`);
  const { db, setStamp } = openDatabase(path, bulkLoad);
  const setMeta = checkSchema(db, path);
  const writes = deploymentWrites(db);
  // Deployments bulk-loaded since their postings were built: built again on close.
  const pending = new PendingBuilds(db);

  const put = db.transaction((write: DeploymentWrite, records: Iterable<StoredRecord>) => {
    const { deployment, statements: s } = write;
    // Into an empty deployment, the secondary indexes (and postings) are built after the rows are in.
    const bulk = s.count.get()!.n === 0;
    write.keys.begin(bulk);
    const incremental = !bulkLoad && !bulk && hasPostings(db, deployment);
    if (!incremental) dropPostings(db, deployment);
    const changes = incremental ? new Map<number, TextChange>() : undefined;
    pending.writing(deployment);
    // Into an empty deployment every record is new: its text is gathered as it is written.
    const start = bulk && !incremental ? startGathering(db, deployment, gatherScript) : undefined;
    if (bulk) db.exec(dropSecondaryIndexesSql(deployment));
    const { codec, records: writing } = writeCodec(db, deployment, records);
    const { written, gather } = writeGathering(start, writing, (stored) => writeRecord(write, codec, stored, changes));
    write.keys.flush();
    write.columns.flush();
    if (bulk) db.exec(secondaryIndexesSql(deployment));
    if (changes) write.updatePostings(changes);
    else if (bulkLoad) pending.written(deployment, gather);
    else buildPostings(db, deployment, { gathered: gather });
    setMeta.run('revision', randomUUID());
    setStamp.run();
    return written;
  });

  /**
   * Copies the log into the file and empties it, without waiting: a reader still on an older
   * snapshot keeps the frames it needs, as it should, and so does a disk too full to take
   * them. Done after every write, so a writer killed between writes leaves no log behind.
   */
  const checkpoint = checkpointOf(db, bulkLoad);

  return {
    put(key: DeploymentKey, records: Iterable<StoredRecord>) {
      const write = writes.get(deploymentByKey(key)!.key)!;
      // Takes the write lock before its first read: a transaction that read first and then found
      // the lock held for an instant (a served generation moving its snapshot off the log,
      // snapshot-move.ts) or the log restarted would fail at once rather than wait its turn.
      const written = forgettingOnFailure(write, () => put.immediate(write, records));
      checkpoint();
      return written;
    },
    count(key: DeploymentKey) {
      return writes.get(key)!.statements.count.get()!.n;
    },
    warm() {
      for (const write of writes.values()) write.columns.warm();
    },
    close() {
      try {
        pending.buildAll();
        if (bulkLoad) finishBulkLoad(db);
      } finally {
        // After a failed write (a full disk) SQLite can keep the log on close; emptied
        // here, it goes with the last connection, so nothing is left beside the database.
        checkpoint();
        db.close();
      }
    },
  };
}

import Database from 'better-sqlite3';
import { deployments } from '../../../deployments/registry';
import { modelChanges, modelParts } from '../model-digest';
import { createSchemaSql, storeSchemaVersion } from './schema';
import { stampOf } from './store-log';

/** The store file as its writer opens it: the journal and pragmas, and the store schema it must have (or is given). */

/** Opens the file with the journal a bulk load or a served store's writes want; `setStamp` marks a commit as this file's. */
export function openDatabase(path: string, bulkLoad: boolean): { db: Database.Database; setStamp: Database.Statement } {
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
  return { db, setStamp };
}

/**
 * Leaves a bulk-loaded file in WAL mode, as its first write in place would: a served worker
 * then holds one snapshot for its life (read-connection.ts), where on a rollback-journal file
 * every search took the file's lock and read its change counter. Nothing is rewritten (the
 * mode is two bytes of the header); on media that cannot be written later, readers open the
 * file as immutable (open-for-reading.ts). If the switch fails the file is whole as it is.
 */
export function finishBulkLoad(db: Database.Database): void {
  try {
    db.pragma('journal_mode = WAL');
  } catch {
    // Served with its rollback journal, as before.
  }
}

/** Refuses (closing it) a database of another store schema; creates the tables of a new one. Returns the meta setter. */
export function checkSchema(db: Database.Database, path: string): Database.Statement {
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
  // Opening an existing database writes nothing: only a put() changes what readers see. A new
  // one's tables go in as one transaction, not one each with its own journal and sync.
  db.transaction(() => {
    for (const deployment of deployments) db.exec(createSchemaSql(deployment));
  })();
  const setMeta = db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`);
  if (!version) {
    setMeta.run('schema', schemaVersion);
    // The table's parts, so a later version can name what changed (model-digest.ts).
    setMeta.run('model', JSON.stringify(modelParts()));
  }
  return setMeta;
}

import type Database from 'better-sqlite3';
import type { IdSet } from '../../engine/id-set';
import { modelChanges } from '../model-digest';
import { openForReading } from './open-for-reading';
import { storeSchemaVersion } from './schema';
import { fileIdentity, moveSnapshotOffLog, type FileIdentity, type SnapshotMove } from './snapshot-move';

/**
 * One read-only connection of the query engine: the file's checks on opening, the
 * statements cached by their text, and `keep(id)`, the SQL function that filters rows by
 * an id set held in memory.
 *
 * Every statement is prepared with placeholders; SQL text is assembled only from the
 * deployment table's table and column names, so caching by text is bounded by the table.
 */
export class ReadConnection {
  private readonly statements = new Map<string, Database.Statement>();
  // Queries run one at a time on this connection, so the set `keep` reads is a plain field set around each one.
  private keepSet: IdSet | undefined;

  private constructor(
    readonly db: Database.Database,
    private readonly path: string,
    readonly revision: string,
    /** The file whose snapshot this connection holds, if it holds one. */
    private readonly opened: FileIdentity | undefined,
  ) {
    db.function('keep', { deterministic: false, directOnly: true }, (id) => (this.keepSet && !this.keepSet.has(Number(id)) ? 0 : 1));
  }

  /**
   * Opens `path`, refusing a file that is not a store of this version. With `snapshot`, the
   * file is read as it was when opened for the connection's life (one read transaction),
   * so what is built from the data always matches what is read while a writer commits.
   */
  static open(path: string, snapshot: boolean): ReadConnection {
    const { db, immutable } = openForReading(path);
    let opened: FileIdentity | undefined;
    let meta: Map<string, string>;
    try {
      // The transaction's snapshot is taken by its first read, the meta's. Only in WAL mode:
      // with a rollback journal, a reader's open transaction would keep every writer out. An
      // immutable file needs none.
      if (snapshot && !immutable && db.pragma('journal_mode', { simple: true }) === 'wal') {
        opened = fileIdentity(path);
        db.exec('BEGIN');
      }
      const rows = db
        .prepare<[], { key: string; value: string }>(`SELECT key, value FROM meta WHERE key IN ('schema', 'model', 'revision')`)
        .all();
      meta = new Map(rows.map(({ key, value }) => [key, value]));
    } catch (error) {
      db.close();
      throw new Error(`${path} is not a Records Explorer database (${(error as Error).message}).`, { cause: error });
    }
    const schema = meta.get('schema');
    const schemaVersion = storeSchemaVersion();
    if (schema !== schemaVersion) {
      db.close();
      // Another schema lacks sort or date columns or keys the deployment table now asks for.
      const changes = modelChanges(meta.get('model'));
      throw new Error(
        `${path} was built for another version of the deployment table or store (store schema ${schema ?? 'missing'}, this version needs ${schemaVersion}${changes.length ? `; changed: ${changes.join('; ')}` : ''}): rebuild it (remove the file, then 'npm start' or 'records import'/'records generate').`,
      );
    }
    // Somewhat more page cache than SQLite's 2 MB default, for index interiors and hot
    // doclists. Not much more: the OS caches the file anyway, and at 1M records 64 MB per
    // connection measured no faster than 8 MB while adding to every worker's memory.
    db.pragma('cache_size = -16384');
    return new ReadConnection(db, path, meta.get('revision') ?? 'empty', opened);
  }

  /** The statement of `sql`, prepared once per connection. */
  prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `read` in one read transaction, unless the connection holds its snapshot's. Outside
   * one, each statement takes and gives back the file's lock and checks it for a change: with
   * a rollback journal that cost many times the row's lookup itself, and a phrase reads three
   * rows a token.
   */
  reading<T>(read: () => T): T {
    if (this.db.inTransaction) return read();
    this.db.exec('BEGIN');
    try {
      return read();
    } finally {
      this.db.exec('COMMIT');
    }
  }

  /** Runs `read` with `keep(id)` true of the ids in `set` only (of every id when it is undefined). */
  keeping<T>(set: IdSet | undefined, read: () => T): T {
    this.keepSet = set;
    try {
      return read();
    } finally {
      this.keepSet = undefined;
    }
  }

  /** Moves a pinned snapshot off the write-ahead log, reading the same data (snapshot-move.ts). */
  moveSnapshot(): SnapshotMove {
    return this.opened ? moveSnapshotOffLog(this.db, this.path, this.opened, this.revision) : 'unpinned';
  }

  close(): void {
    this.db.close();
  }
}

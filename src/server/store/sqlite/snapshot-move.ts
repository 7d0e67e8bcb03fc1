import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { codeOf } from './open-for-reading';

/**
 * A served worker holds one read transaction for its life (engine.ts, `snapshot`), and
 * SQLite can restart its write-ahead log only when no reader's snapshot lies in it: a
 * snapshot taken while the log held frames not yet copied into the file pins the log,
 * and every later write is appended after it. A new generation always opens while the
 * old one still pins the log, so without more the log only ever grew while served.
 *
 * So once a generation serves alone, each of its workers in turn moves its snapshot off
 * the log without changing what it reads: the frames its snapshot covers are copied into
 * the file (a passive checkpoint), writers are held off for an instant (`BEGIN
 * IMMEDIATE` on a connection of its own), and if the file's revision is still the one the
 * worker opened (no write since: every write sets a new one), its read transaction is
 * ended and begun again. The new snapshot is the same data, read from the file alone, so
 * it pins no frame; once every worker has moved, the log is emptied (a truncating
 * checkpoint), and the next write starts it again from its beginning.
 */

/**
 * `moved`: this reader no longer pins the log. `busy`: a writer held the file (ask again
 * later). `changed`: the file was written, or replaced, since the reader opened it (the next
 * generation's readers will move instead). `unpinned`: nothing to move (no snapshot is
 * held, as with a rollback journal, or the file cannot be written by this process).
 */
export type SnapshotMove = 'moved' | 'busy' | 'changed' | 'unpinned';

/** Which file a path names, to tell the file a reader opened from one moved over its path. */
export interface FileIdentity {
  readonly device: number;
  readonly inode: number;
}

export function fileIdentity(path: string): FileIdentity {
  const { dev, ino } = statSync(path);
  return { device: dev, inode: ino };
}

/** Writers wait at most this long for the lock a move holds; the move waits as long for a writer's. */
const lockWaitMs = 200;

/**
 * Moves `reader`'s snapshot (a read transaction open on `path` since the file had
 * `revision`) off the log, as described above. Never changes what the reader reads.
 */
export function moveSnapshotOffLog(reader: Database.Database, path: string, opened: FileIdentity, revision: string): SnapshotMove {
  let now: FileIdentity;
  try {
    now = fileIdentity(path);
  } catch {
    return 'changed';
  }
  // Another file at the path: its log is not this reader's to checkpoint (store-log.ts).
  if (now.inode !== opened.inode || now.device !== opened.device) return 'changed';
  let guard: Database.Database;
  try {
    guard = new Database(path, { fileMustExist: true });
  } catch {
    return 'unpinned';
  }
  try {
    guard.pragma(`busy_timeout = ${lockWaitMs}`);
    // Copies what every reader's snapshot allows; a reader on an older one keeps its frames.
    guard.pragma('wal_checkpoint(PASSIVE)');
    guard.exec('BEGIN IMMEDIATE');
    try {
      const current = guard.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'revision'`).get()?.value ?? 'empty';
      if (current !== revision) return 'changed';
      reader.exec('COMMIT');
      reader.exec('BEGIN');
      // The snapshot is taken by the first read, while no writer can commit.
      reader.prepare(`SELECT value FROM meta WHERE key = 'revision'`).get();
    } finally {
      guard.exec('COMMIT');
    }
    // Empties the log once no reader's snapshot is in it (after the last reader has moved).
    guard.pragma('busy_timeout = 0');
    guard.pragma('wal_checkpoint(TRUNCATE)');
    return 'moved';
  } catch (error) {
    const code = codeOf(error);
    if (code.startsWith('SQLITE_BUSY')) return 'busy';
    // A file this process may read but not write: nor can it checkpoint.
    if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM')) return 'unpinned';
    throw error;
  } finally {
    guard.close();
  }
}

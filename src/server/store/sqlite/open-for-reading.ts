import Database from 'better-sqlite3';
import { accessSync, constants } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Store files are in WAL mode (store-file.ts), and SQLite reads a WAL file on media where its
// shared-memory index cannot be made only as `file:…?immutable=1`, a URI name. better-sqlite3
// turns URI names on for the whole process only if this is in the environment when its addon
// loads, at the process's first connection: every module that reads a store imports this one,
// so a process that serves sets it before it opens anything.
process.env.SQLITE_USE_URI ??= '1';

/** An error's `code` (SQLite's extended code, or an errno name), '' where it has none. */
export const codeOf = (error: unknown) => String((error as { code?: unknown }).code ?? '');

/** Why this process cannot write the folder of `path`: `EROFS` (read-only media), `EACCES`, or undefined where it can. */
function folderRefusal(path: string): string | undefined {
  try {
    accessSync(dirname(path), constants.W_OK);
    return undefined;
  } catch (error) {
    return codeOf(error);
  }
}

/**
 * A read-only connection to the store file at `path`. A WAL file on read-only media, where
 * SQLite cannot make the log's index beside it, is opened as immutable: SQLite then takes no
 * locks and reads no log, which is right only because nothing can write the file there either.
 * In a folder that only permissions keep this process from writing, someone else may write
 * the file, so that is refused with a sentence saying what SQLite needs.
 */
export function openForReading(path: string): { readonly db: Database.Database; readonly immutable: boolean } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    // The first read opens a WAL file's log and its index beside it.
    db.pragma('schema_version');
  } catch (error) {
    // Any other failure is the caller's to report, from its own first read.
    // SQLite's codes for a log or index it could not make: CANTOPEN on read-only media, READONLY_DIRECTORY where permissions refuse.
    const refusal = ['SQLITE_CANTOPEN', 'SQLITE_READONLY_DIRECTORY'].includes(codeOf(error)) ? folderRefusal(path) : undefined;
    if (refusal === 'EROFS') {
      db.close();
      return { db: openImmutable(path), immutable: true };
    }
    if (refusal) {
      db.close();
      throw new Error(
        `${path} is in WAL mode, and SQLite reads it only with ${basename(path)}-wal and ${basename(path)}-shm beside it, which this process may not make in ${dirname(path)} (${refusal}): let it write there, or serve a copy from a folder it can write.`,
        { cause: error },
      );
    }
  }
  return { db, immutable: false };
}

function openImmutable(path: string): Database.Database {
  try {
    return new Database(`${pathToFileURL(resolve(path)).href}?immutable=1`, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new Error(
      `${path} is in WAL mode on read-only media, and SQLite reads it there only by a URI name, which this process opened its first database without (SQLITE_USE_URI=${process.env.SQLITE_USE_URI ?? ''}): copy it to a writable directory.`,
      { cause: error },
    );
  }
}

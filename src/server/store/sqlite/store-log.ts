import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';

/**
 * A store is its file and its write-ahead log together. SQLite replays whatever `X.db-wal`
 * holds into whatever file is at `X.db`, yet nothing in SQLite's log says which file it was
 * written for: after a writer killed with `kill -9` and another file moved over `X.db`, the
 * old log would be read through (a "malformed" schema, or a backup's changes silently
 * undone) and the next write would copy it into the new file.
 *
 * So every writer stamps the file it writes, in the database header's user_version, with a
 * number drawn from the file's identity on disk (device and inode, which a move keeps and a
 * copy does not), and sets it again in every transaction: each commit in the log then
 * carries a copy of page 1 with the stamp. Before anyone opens a file, the log's committed
 * part is read by SQLite's own rules (header and frame checksums, salts, commit frames):
 * a log whose last committed page 1 bears another file's stamp, or none, is set aside
 * (renamed, never replayed) together with its shared-memory index.
 */

const walMagic = 0x377f0682;
const walHeaderBytes = 32;
const frameHeaderBytes = 24;
/** Offset of user_version in the database header (page 1). */
const userVersionOffset = 60;

/** The stamp of the file now at `path`: a non-zero signed 32-bit number from its device and inode. */
export function stampOf(path: string): number {
  const { dev, ino } = statSync(path);
  // FNV-1a over the identity's decimal text: stable, and distinct for distinct files in practice.
  let hash = 0x811c9dc5;
  for (const char of `${dev}:${ino}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash | 0 || 1;
}

/** SQLite's WAL checksum over `data` (a multiple of 8 bytes), continuing from `s`. */
function checksum(data: Buffer, bigEndian: boolean, s: [number, number]): [number, number] {
  let [s0, s1] = s;
  for (let i = 0; i < data.length; i += 8) {
    const x0 = bigEndian ? data.readUInt32BE(i) : data.readUInt32LE(i);
    const x1 = bigEndian ? data.readUInt32BE(i + 4) : data.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** What the committed part of a log says about the file it was written for. */
export type LogOwner = { readonly committed: false } | { readonly committed: true; readonly stamp: number | undefined };

/**
 * Reads `walPath` as SQLite would on recovery: frames count while their salts match the
 * header and their checksums chain; the log ends at the last commit frame among them.
 * Returns the user_version of the last page 1 committed, if any.
 */
export function logOwner(walPath: string): LogOwner {
  let fd: number;
  try {
    fd = openSync(walPath, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { committed: false };
    throw error;
  }
  try {
    const header = Buffer.alloc(walHeaderBytes);
    if (readSync(fd, header, 0, walHeaderBytes, 0) < walHeaderBytes) return { committed: false };
    const magic = header.readUInt32BE(0);
    if ((magic & ~1) >>> 0 !== walMagic) return { committed: false };
    const bigEndian = (magic & 1) === 1;
    const pageSize = header.readUInt32BE(8) === 1 ? 65536 : header.readUInt32BE(8);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return { committed: false };
    let sum = checksum(header.subarray(0, 24), bigEndian, [0, 0]);
    if (sum[0] !== header.readUInt32BE(24) || sum[1] !== header.readUInt32BE(28)) return { committed: false };
    const salt1 = header.readUInt32BE(16);
    const salt2 = header.readUInt32BE(20);

    const frame = Buffer.alloc(frameHeaderBytes + pageSize);
    let committed = false;
    let stamp: number | undefined;
    let pending: number | undefined;
    for (let offset = walHeaderBytes; ; offset += frame.length) {
      if (readSync(fd, frame, 0, frame.length, offset) < frame.length) break;
      const page = frame.readUInt32BE(0);
      const commitSize = frame.readUInt32BE(4);
      if (page === 0 || frame.readUInt32BE(8) !== salt1 || frame.readUInt32BE(12) !== salt2) break;
      sum = checksum(frame.subarray(0, 8), bigEndian, sum);
      sum = checksum(frame.subarray(frameHeaderBytes), bigEndian, sum);
      if (sum[0] !== frame.readUInt32BE(16) || sum[1] !== frame.readUInt32BE(20)) break;
      if (page === 1) pending = frame.readInt32BE(frameHeaderBytes + userVersionOffset);
      if (commitSize !== 0) {
        committed = true;
        stamp = pending ?? stamp;
      }
    }
    return committed ? { committed, stamp } : { committed: false };
  } finally {
    closeSync(fd);
  }
}

/**
 * Makes sure the log beside `path` belongs to the file at `path` before it is opened.
 * A log with committed writes for another file (or for no stamped file) is renamed aside
 * and its shared-memory index removed; returns the sentence to tell the operator, if so.
 */
export function claimLog(path: string): string | undefined {
  const wal = `${path}-wal`;
  const owner = logOwner(wal);
  if (!owner.committed || (existsSync(path) && owner.stamp === stampOf(path))) return undefined;
  const aside = `${wal}.set-aside-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(wal, aside);
  } catch (error) {
    // Another process opening the same file set it aside first.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  rmSync(`${path}-shm`, { force: true });
  return `${wal} held writes made to another file (one since moved over ${path}); set aside as ${aside}, not applied`;
}

/**
 * Lets the log and its index beside `path` go once nothing holds the file, as they would had
 * the last connection on it been able to write: a served file is read on read-only
 * connections, which leave both behind (SQLite removes them only on closing a connection that
 * can write, after copying what the log holds). Nothing goes while another connection is open
 * on the file, or where it cannot be written. Returns what `claimLog` had to say.
 */
export function releaseLog(path: string): string | undefined {
  if (!existsSync(`${path}-wal`) && !existsSync(`${path}-shm`)) return undefined;
  const setAside = claimLog(path);
  try {
    const db = new Database(path, { fileMustExist: true });
    try {
      // SQLite opens the log at a connection's first read, and only then closes it with the connection.
      db.pragma('schema_version');
    } finally {
      db.close();
    }
  } catch {
    // Left as a reader leaves it; the next writer or server claims it as before.
  }
  return setAside;
}

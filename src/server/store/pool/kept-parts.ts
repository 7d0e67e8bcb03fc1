import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import type { DeploymentKey } from '../../../deployments/schema';
import type { VocabularyData } from '../../suggest/vocabulary';
import { sharedPart, unpackPart, type PackedPart } from './packed-strings';
import { readAt } from './read-at';
import { decodePart, encodePart, partKinds } from './part-chunks';

/**
 * What a generation's reader worked out (facet-reader.ts: the facet values with their orders,
 * then each deployment's type-ahead tables and vocabulary), kept in a file for the next
 * generation of the same data: a restarted server hands them over as they are read, instead
 * of reading every facet column and sampling the records' text again (seconds of a thread
 * at a hundred thousand records, more at a million). The parts depend only on the data,
 * which a revision names (every commit draws a new one, and a copy of a file is the same
 * data), and on the code that made them, which the worker bundle's name names (its content's
 * hash); a file of another revision or code is not read, and is written over by the next
 * reader. One file per served path, in the project's cache beside the bundles, not beside
 * the store (whose folder holds only the file and its log). A part the file cannot give (it
 * is cut short or unreadable) is made as before.
 */

const keptFolder = fileURLToPath(new URL('../../../../node_modules/.cache/records-explorer-parts/', import.meta.url));
/** Files of paths no longer served are removed after a week; what a reader stopped while writing left, after an hour. */
const [keepMs, partialMs] = [7 * 24 * 3600 * 1000, 3600 * 1000];

export interface KeptPlace {
  /** The file kept for one served path. */
  readonly file: string;
  /** The code that made the parts: the worker bundle's name. */
  readonly version: string;
}

/** Where the parts of the store at `path` are kept, made by the worker at `script`. */
export function keptPlaceOf(path: string, script: URL): KeptPlace {
  const name = createHash('sha256').update(resolve(path)).digest('hex').slice(0, 24);
  return { file: join(keptFolder, `${name}.parts`), version: script.pathname.split('/').pop()! };
}

interface Header {
  readonly version: string;
  readonly revision: string;
  /** The file's device and inode: a write in place keeps them, a file moved over the path does not. */
  readonly file?: string;
}

/**
 * The parts kept for `revision` by the same code, in the order they were handed over, read
 * one at a time; undefined where no such file is kept. A part that cannot be read ends the
 * parts early (the reader makes the rest).
 */
export function keptParts(place: KeptPlace, revision: string): Iterator<PackedPart> | undefined {
  const opened = openKept(place);
  if (!opened) return undefined;
  if (opened.header.revision !== revision) {
    opened.close();
    return undefined;
  }
  return opened.parts;
}

/** Whether parts are kept for `revision` by the same code (a search worker then takes the ranks of repo_ids from them). */
export function isKept(place: KeptPlace, revision: string): boolean {
  const opened = openKept(place);
  opened?.close();
  return opened?.header.revision === revision;
}

/**
 * The vocabularies kept for an earlier revision of the same file (written in place since),
 * by deployment, for the reader to sample only what was written since (suggest/vocabulary.ts).
 * The file is opened now and read when first asked for: the reader keeping this generation's
 * parts puts another in its place meanwhile.
 */
export function earlierWords(place: KeptPlace, file: string): () => Map<DeploymentKey, VocabularyData> {
  const words = new Map<DeploymentKey, VocabularyData>();
  const opened = openKept(place);
  if (opened?.header.file !== file) {
    opened?.close();
    return () => words;
  }
  let read = false;
  return () => {
    if (read) return words;
    read = true;
    for (let chunk = opened.chunk(true, partKinds.words); chunk; chunk = opened.chunk(true, partKinds.words)) {
      const unpacked = unpackPart(decodePart(chunk));
      if ('words' in unpacked) for (const [key, data] of unpacked.words) words.set(key, data);
    }
    opened.close();
    return words;
  };
}

export interface OpenedKept {
  readonly header: Header;
  /** The next part's chunk (part-chunks.ts: its kind first), in shared memory; undefined at the end or where one cannot be read. */
  readonly chunk: (shared?: boolean, only?: number) => Buffer | undefined;
  readonly parts: Iterator<PackedPart>;
  readonly close: () => void;
}

/** A kept file of the same code: its header, and its parts read one at a time (ending early where one cannot be read). */
export function openKept(place: KeptPlace): OpenedKept | undefined {
  let fd: number;
  try {
    fd = openSync(place.file, 'r');
  } catch {
    return undefined;
  }
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  let position = 0;
  const chunk = (shared = true, only?: number): Buffer | undefined => {
    if (!open) return undefined;
    try {
      let size = readAt(fd, 9, position);
      // Parts of other kinds are stepped over unread.
      // The facet columns' state is for the next generation's reader only (earlier-facets.ts): a restart steps over it.
      while (size.length === 9 && (only === undefined ? size[8] === partKinds.columns : size[8] !== only)) {
        position += 8 + Number(size.readBigUInt64LE());
        size = readAt(fd, 9, position);
      }
      if (size.length < 8) return undefined;
      const length = Number(size.readBigUInt64LE());
      const data = readAt(fd, length, position + 8, shared);
      if (data.length < length) return undefined;
      position += 8 + length;
      return data;
    } catch {
      return undefined;
    }
  };
  let header: Header | undefined;
  try {
    const data = chunk(false);
    header = data && (JSON.parse(data.toString('utf8')) as Header);
  } catch {
    header = undefined;
  }
  if (header?.version !== place.version) return void close();
  const end = (): IteratorResult<PackedPart> => {
    close();
    return { done: true, value: undefined };
  };
  const parts: Iterator<PackedPart> = {
    next() {
      try {
        const data = chunk();
        return data ? { done: false, value: sharedPart(decodePart(data)) } : end();
      } catch {
        return end();
      }
    },
  };
  return { header, chunk, parts, close };
}

/**
 * Keeps a reader's parts as it hands them over. The file is put in place once it holds its
 * first part (the facets), and the others are added to it as they come, so a server stopped
 * before its reader made the last has kept what was made. Nothing it fails to write stops the
 * reader.
 */
export interface PartsKeeper {
  add(part: PackedPart): void;
  done(): void;
}

export function keepParts(place: KeptPlace, revision: string, file?: string): PartsKeeper {
  const partial = `${place.file}.${process.pid}-${threadId}.partial`;
  let fd: number | undefined;
  const fail = () => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
    // Once in place, a file cut short gives the parts before the cut.
    rmSync(partial, { force: true });
  };
  const write = (pieces: readonly Uint8Array[]) => {
    if (fd === undefined) return;
    try {
      const size = Buffer.alloc(8);
      size.writeBigUInt64LE(BigInt(pieces.reduce((sum, piece) => sum + piece.length, 0)));
      for (const data of [size, ...pieces]) for (let at = 0; at < data.length;) at += writeSync(fd, data, at);
    } catch {
      // A full disk or a folder that cannot be written: the next start reads the columns again.
      fail();
    }
  };
  try {
    mkdirSync(keptFolder, { recursive: true });
    fd = openSync(partial, 'w');
  } catch {
    fd = undefined;
  }
  write([Buffer.from(JSON.stringify({ version: place.version, revision, ...(file && { file }) } satisfies Header))]);
  let placed = false;
  return {
    add(part) {
      write(encodePart(part));
      if (placed || fd === undefined) return;
      try {
        renameSync(partial, place.file);
        placed = true;
        removeStale(place.file);
      } catch {
        fail();
      }
    },
    done() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}

/** Files of paths not served for a while, and what a reader stopped midway left. */
function removeStale(current: string): void {
  for (const name of readdirSync(keptFolder)) {
    const path = join(keptFolder, name);
    try {
      if (path !== current && Date.now() - statSync(path).mtimeMs > (name.endsWith('.partial') ? partialMs : keepMs))
        rmSync(path, { force: true });
    } catch {
      // Removed by another server meanwhile.
    }
  }
}

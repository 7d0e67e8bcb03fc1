import type Database from 'better-sqlite3';
import { compressSync, uncompressSync } from 'lz4-napi';
import type { Deployment } from '../../../deployments/schema';
import type { StoredRecord } from '../types';
import { tablesOf } from './schema';

/**
 * A record's body (its JSON), and its full text, as the store keeps them: LZ4-compressed
 * against a dictionary of the deployment's own first records, which the store keeps beside
 * them. A record shares most of its bytes with others of its deployment (field names, URL
 * prefixes, affiliations, licences), and a record compressed alone cannot refer to them;
 * against the dictionary it can, so a body takes about a third of its JSON. The dictionary is
 * chosen once, by the deployment's first write, and never changes while the store lives:
 * every body written is read with the same one.
 *
 * LZ4, not deflate: every page of records decodes each of its bodies, and inflating a body of
 * a kilobyte or two costs a stream, a window and Huffman tables of its own per call, several
 * times what the page's row reads cost; LZ4 has no entropy stage, so a body decodes in a
 * fraction of that, for a body a little larger than deflate's. bench/body-reads.ts measures it.
 */
export interface BodyCodec {
  encode(json: string): Buffer;
  decode(body: Uint8Array): string;
}

/** LZ4 refers back at most 64 KB; half of it leaves the record its own window. */
const dictionaryBytes = 32 * 1024;

/** The dictionary of a deployment's first records: their JSON, whole records up to `dictionaryBytes` (the first alone may be cut). */
export function dictionaryOf(jsons: Iterable<string>): Buffer {
  const parts: Buffer[] = [];
  let size = 0;
  for (const json of jsons) {
    const bytes = Buffer.from(json);
    if (size + bytes.length > dictionaryBytes) {
      if (size === 0) parts.push(bytes.subarray(0, dictionaryBytes));
      break;
    }
    parts.push(bytes);
    size += bytes.length;
  }
  return Buffer.concat(parts);
}

export function bodyCodec(dictionary: Buffer): BodyCodec {
  // A test's first records may be empty: no dictionary then.
  const dict = dictionary.length > 0 ? dictionary : undefined;
  return {
    encode: (json) => compressSync(json, dict),
    decode: (body) => uncompressSync(body, dict).toString(),
  };
}

/** The deployment's dictionary as the store keeps it; undefined before its first write. */
export function storedDictionary(db: Database.Database, deployment: Deployment): Buffer | undefined {
  return db
    .prepare(`SELECT data FROM ${tablesOf(deployment).bodyDictionary}`)
    .pluck()
    .get() as Buffer | undefined;
}

/** The deployment's body codec, or undefined while it holds no record. */
export function storedBodyCodec(db: Database.Database, deployment: Deployment): BodyCodec | undefined {
  const dictionary = storedDictionary(db, deployment);
  return dictionary && bodyCodec(dictionary);
}

function* chain<T>(first: readonly T[], rest: Iterator<T>): Generator<T> {
  yield* first;
  for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
}

/**
 * The codec a write of `records` encodes with. The deployment's first write (in its
 * transaction, so a failed one keeps none) chooses the dictionary from the records it
 * writes first and keeps it; the records are given back whole to be written.
 */
export function writeCodec(
  db: Database.Database,
  deployment: Deployment,
  records: Iterable<StoredRecord>,
): { codec: BodyCodec; records: Iterable<StoredRecord> } {
  const stored = storedDictionary(db, deployment);
  if (stored) return { codec: bodyCodec(stored), records };
  const rest = records[Symbol.iterator]();
  const first: StoredRecord[] = [];
  const jsons: string[] = [];
  let size = 0;
  for (let next = size < dictionaryBytes && rest.next(); next && !next.done; next = size < dictionaryBytes && rest.next()) {
    first.push(next.value);
    jsons.push(JSON.stringify(next.value.record));
    size += jsons[jsons.length - 1]!.length;
  }
  const dictionary = dictionaryOf(jsons);
  if (dictionary.length > 0) db.prepare(`INSERT INTO ${tablesOf(deployment).bodyDictionary} (data) VALUES (?)`).run(dictionary);
  return { codec: bodyCodec(dictionary), records: chain(first, rest) };
}

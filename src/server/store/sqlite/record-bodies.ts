import type Database from 'better-sqlite3';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Deployment } from '../../../deployments/schema';
import type { StoredRecord } from '../types';
import { tablesOf } from './schema';

/**
 * A record's body (its JSON), and its full text, as the store keeps them: deflated against a dictionary of the
 * deployment's own first records, which the store keeps beside them. A record shares most of
 * its bytes with others of its deployment (field names, URL prefixes, affiliations, licences),
 * and a deflated record alone cannot refer to them; against the dictionary it can, so a body
 * takes about a third of its JSON where deflate alone leaves half. The dictionary is chosen
 * once, by the deployment's first write, and never changes while the store lives: every body
 * written is read with the same one.
 */
export interface BodyCodec {
  encode(json: string): Buffer;
  decode(body: Uint8Array): string;
}

/** Deflate refers back at most 32 KB; half of it leaves the record its own window. */
const dictionaryBytes = 16 * 1024;

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
  // zlib refuses an empty dictionary; a deployment's first record is never empty, but a test's may be small.
  const options = dictionary.length > 0 ? { dictionary } : {};
  return {
    encode: (json) => deflateRawSync(json, options),
    decode: (body) => inflateRawSync(body, options).toString(),
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

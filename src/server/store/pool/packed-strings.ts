import type { DeploymentKey } from '../../../deployments/schema';
import type { SharedPart } from '../engine';
import { sharedBytes, sharedCopy } from '../part-memory';
import { PackedLists, type PackedMap } from './packed-lists';

/**
 * A generation's parts (facet values, type-ahead keys, vocabularies) are mostly arrays of
 * short strings, hundreds of thousands of them, and typed arrays of megabytes, and a message
 * copies each of them: the main thread, handing every part to every worker as a server
 * starts, spent more time copying them than the first search and facets took. Packed, an
 * array of strings is its text in UTF-8 and its lengths, a map from codes to arrays of
 * strings (a value's spellings) its text and each string's length in bytes, and every typed
 * array is on shared memory, so a message carries them to every thread without a copy.
 * `unpack` gives back what was packed (each thread decodes the text once, its strings slices
 * of it; a map is read where it lies, packed-lists.ts).
 */

/** An array of strings packed for another thread: its text in UTF-8 and each string's length in UTF-16 code units. */
interface PackedArray {
  readonly packedText: Uint8Array;
  readonly lengths: Int32Array;
}

/** Text written into shared memory (`sharedText`), read back. */
const decoded = (bytes: Uint8Array, encoding: BufferEncoding = 'utf8'): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(encoding);

/** Arrays shorter than this are copied as they are. */
const packFrom = 16;
/** Strings shorter than this are copied as they are; a date column's distinct values, one after the other, are megabytes. */
const packStringFrom = 1 << 16;

/** A long string on shared memory: one byte a character where each is below U+0100 (dates are), else two, so it reads back exactly. */
interface PackedString {
  readonly packedString: Uint8Array;
  readonly encoding: 'latin1' | 'utf16le';
}

type TypedArray = Int32Array | Float64Array | Uint8Array | Uint32Array | Float32Array | Int16Array | Uint16Array | Int8Array;

/** A typed array on shared memory (itself where it is already). */
function shared<T extends TypedArray>(array: T): T {
  if (array.buffer instanceof SharedArrayBuffer) return array;
  return sharedCopy(array);
}

const isStrings = (value: unknown): value is readonly string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** `text` written straight into shared memory: a copy made first would be freed into this thread's arena, which keeps its pages (part-memory.ts). */
function sharedText(text: string, encoding: BufferEncoding): Uint8Array {
  const bytes = sharedBytes(Buffer.byteLength(text, encoding));
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).write(text, encoding);
  return bytes;
}

/** Each string's `lengthOf`, written straight into shared memory as `sharedText` is. */
function sharedLengths(strings: readonly string[], lengthOf: (string: string) => number): Int32Array {
  const lengths = new Int32Array(sharedBytes(strings.length * 4).buffer, 0, strings.length);
  for (let i = 0; i < strings.length; i++) lengths[i] = lengthOf(strings[i]!);
  return lengths;
}

function packArray(strings: readonly string[]): PackedArray {
  return { packedText: sharedText(strings.join(''), 'utf8'), lengths: sharedLengths(strings, (string) => string.length) };
}

function packString(text: string): PackedString {
  const encoding = /^[\0-\xff]*$/.test(text) ? 'latin1' : 'utf16le';
  return { packedString: sharedText(text, encoding), encoding };
}

const unpackString = ({ packedString, encoding }: PackedString): string => decoded(packedString, encoding);

function unpackArray(packed: PackedArray): string[] {
  const { lengths } = packed;
  const text = decoded(packed.packedText);
  const strings = new Array<string>(lengths.length);
  for (let i = 0, at = 0; i < lengths.length; i++) strings[i] = text.slice(at, (at += lengths[i]!));
  return strings;
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** `value` with its long strings and arrays of strings, and its maps from numbers to arrays of strings, packed, and its typed arrays shared. */
export function pack(value: unknown): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) return shared(value as TypedArray);
  if (typeof value === 'string') return value.length >= packStringFrom ? packString(value) : value;
  if (Array.isArray(value)) return value.length >= packFrom && isStrings(value) ? packArray(value) : value.map(pack);
  if (value instanceof PackedLists && value.packedAsRead) return value.packedAsRead;
  if (value instanceof Map) {
    const entries = [...value];
    if (entries.length >= packFrom && entries.every(([key, item]) => typeof key === 'number' && isStrings(item))) {
      const lists = entries.map(([, item]) => item as readonly string[]);
      const strings = lists.flat();
      return {
        packedMap: sharedText(strings.join(''), 'utf8'),
        byteLengths: sharedLengths(strings, (string) => Buffer.byteLength(string, 'utf8')),
        keys: shared(Float64Array.from(entries, ([key]) => key as number)),
        counts: shared(Int32Array.from(lists, (list) => list.length)),
      } satisfies PackedMap;
    }
    return new Map(entries.map(([key, item]) => [key, pack(item)]));
  }
  if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, pack(item)]));
  return value;
}

const isPacked = (value: unknown) => isPlain(value) && ('packedText' in value || 'packedMap' in value || 'packedString' in value);

/**
 * `object` with `key` unpacked when first read: a worker that never lists a facet's values, or
 * never suggests, never makes their strings, which at a million records is a noticeable part
 * of a worker's start.
 */
function unpackedOnUse(object: Record<string, unknown>, key: string, packed: unknown): void {
  Object.defineProperty(object, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = unpack(packed);
      Object.defineProperty(object, key, { value, enumerable: true, configurable: true, writable: true });
      return value;
    },
  });
}

/** What `pack` was given (its typed arrays on shared memory), its packed strings made when first read. */
export function unpack(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unpack);
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, unpack(item)]));
  if (!isPlain(value)) return value;
  if ('packedText' in value) return unpackArray(value as unknown as PackedArray);
  if ('packedString' in value) return unpackString(value as unknown as PackedString);
  if ('packedMap' in value) return new PackedLists(value as unknown as PackedMap);
  const unpacked: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (isPacked(item)) unpackedOnUse(unpacked, key, item);
    else unpacked[key] = unpack(item);
  }
  return unpacked;
}

type PartKind = 'facets' | 'ranks' | 'dates' | 'completions' | 'words' | 'columns';

/** A part (engine.ts SharedPart) as it travels between threads and is kept (kept-parts.ts): its kind and deployments as they are, what each holds packed. */
export type PackedPart = { [K in PartKind]: { readonly [P in K]: ReadonlyMap<DeploymentKey, unknown> } }[PartKind];

export const packPart = (part: SharedPart): PackedPart => pack(part) as PackedPart;

/** A packed part as read back from a file (kept-parts.ts): its typed arrays on shared memory again. */
export const sharedPart = (part: PackedPart): PackedPart => pack(part) as PackedPart;

export const unpackPart = (part: PackedPart): SharedPart => unpack(part) as SharedPart;

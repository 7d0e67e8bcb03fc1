import { deserialize, serialize } from 'node:v8';
import type { PackedPart } from './packed-strings';

/**
 * A kept part as a chunk of the file (kept-parts.ts): its kind, then its structure serialized
 * with each typed array left out, then the typed arrays' bytes, each at a multiple of eight
 * bytes from the chunk's start. Read into shared memory, the chunk's typed arrays are views of
 * it where they lie: a million records' facet codes are read from the file once, not read,
 * deserialized and copied to shared memory again (half a second of the reader's time).
 */

export const partKinds = { facets: 0, completions: 1, words: 2, ranks: 3, columns: 4, dates: 5 } as const;

const kindOf = (part: PackedPart) =>
  'facets' in part
    ? partKinds.facets
    : 'ranks' in part
      ? partKinds.ranks
      : 'dates' in part
        ? partKinds.dates
        : 'completions' in part
          ? partKinds.completions
          : 'columns' in part
            ? partKinds.columns
            : partKinds.words;

type TypedArray = Int32Array | Float64Array | Uint8Array | Uint32Array | Float32Array | Int16Array | Uint16Array | Int8Array;

const arrayTypes = { Int32Array, Float64Array, Uint8Array, Uint32Array, Float32Array, Int16Array, Uint16Array, Int8Array };

/** Where a typed array stood in the structure: its place among the arrays after it, its type and its length. */
interface Placeholder {
  readonly rawArray: number;
  readonly type: keyof typeof arrayTypes;
  readonly length: number;
}

const isPlain = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

const padded = (bytes: number) => Math.ceil(bytes / 8) * 8;

function leaveOut(value: unknown, arrays: TypedArray[]): unknown {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const type = value.constructor.name as keyof typeof arrayTypes;
    if (!(type in arrayTypes)) return value;
    arrays.push(value as TypedArray);
    return { rawArray: arrays.length - 1, type, length: (value as TypedArray).length } satisfies Placeholder;
  }
  if (Array.isArray(value)) return value.map((item) => leaveOut(item, arrays));
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, leaveOut(item, arrays)]));
  if (isPlain(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, leaveOut(item, arrays)]));
  return value;
}

/** The pieces of a part's chunk, to be written one after another. */
export function encodePart(part: PackedPart): Uint8Array[] {
  const arrays: TypedArray[] = [];
  const structure = serialize(leaveOut(part, arrays));
  const head = Buffer.alloc(padded(8 + structure.length));
  head[0] = kindOf(part);
  head.writeUInt32LE(structure.length, 4);
  structure.copy(head, 8);
  return [
    head,
    ...arrays.flatMap((array) => {
      const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
      const gap = padded(array.byteLength) - array.byteLength;
      return gap ? [bytes, new Uint8Array(gap)] : [bytes];
    }),
  ];
}

/** A chunk's part, its typed arrays views of `chunk` (read into shared memory, aligned to eight bytes). */
export function decodePart(chunk: Uint8Array): PackedPart {
  const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  const length = view.readUInt32LE(4);
  let next = 0;
  let at = padded(8 + length);
  const restore = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(restore);
    if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, restore(item)]));
    if (!isPlain(value)) return value;
    if (typeof value.rawArray === 'number') {
      const { rawArray, type, length: count } = value as unknown as Placeholder;
      const Type = arrayTypes[type] as unknown as (new (buffer: ArrayBufferLike, offset: number, length: number) => TypedArray) & {
        readonly BYTES_PER_ELEMENT: number;
      };
      if (rawArray !== next++ || at + count * Type.BYTES_PER_ELEMENT > chunk.byteLength)
        throw new Error('a kept part does not hold what its structure says');
      const array = new Type(chunk.buffer, chunk.byteOffset + at, count);
      at += padded(array.byteLength);
      return array;
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, restore(item)]));
  };
  return restore(deserialize(view.subarray(8, 8 + length))) as PackedPart;
}

/**
 * Shared memory for a generation's parts (facet values, ranks, type-ahead tables,
 * vocabularies: tens of megabytes at 100,000 records). A `SharedArrayBuffer` comes from the C
 * library's malloc, in the arena of the thread that made it (the reader's,
 * pool/facet-reader.ts). The reader makes a generation's parts while the retiring generation's
 * are still in use, and once those are freed the arena keeps their pages (glibc gives back only
 * the top of a thread's arena): the server came to hold two generations' parts for good. A
 * shared WebAssembly memory is mapped by V8 itself and unmapped once no thread holds it, so its
 * pages go back to the system with its generation. Small buffers stay on malloc (a mapping is
 * 64 KiB at least, and each reserves address space of its own, not memory).
 */

/** Buffers from this size on are mapped of their own. */
const mappedFrom = 1 << 20;
const wasmPage = 1 << 16;

interface WasmMemory {
  new (descriptor: { initial: number; maximum: number; shared: boolean }): { readonly buffer: SharedArrayBuffer };
}

const Memory = (globalThis as unknown as { WebAssembly?: { Memory: WasmMemory } }).WebAssembly?.Memory;

/** `length` zeroed bytes on shared memory, on their own mapping from `mappedFrom` bytes on. */
export function sharedBytes(length: number): Uint8Array {
  if (Memory && length >= mappedFrom) {
    const pages = Math.ceil(length / wasmPage);
    try {
      return new Uint8Array(new Memory({ initial: pages, maximum: pages, shared: true }).buffer, 0, length);
    } catch {
      // Address space spent (each mapping reserves some): malloc serves.
    }
  }
  return new Uint8Array(new SharedArrayBuffer(length));
}

type TypedArray = Int32Array | Float64Array | Uint8Array | Uint32Array | Float32Array | Int16Array | Uint16Array | Int8Array;

/** A copy of `array` on shared memory. */
export function sharedCopy<T extends TypedArray>(array: T): T {
  const bytes = sharedBytes(array.byteLength);
  bytes.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  const Kind = array.constructor as new (buffer: ArrayBufferLike, offset: number, length: number) => T;
  return new Kind(bytes.buffer, 0, array.length);
}

/** `length` zeroed 32-bit integers on shared memory (their own mapping where large). */
export function sharedInts(length: number): Int32Array {
  return new Int32Array(sharedBytes(length * 4).buffer, 0, length);
}

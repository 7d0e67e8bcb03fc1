import { VarintCursor, VarintWriter } from '../../engine/postings/varint';

/**
 * The per-record codes of one facet column (facet-columns.ts), in blocks of records, as
 * tantivy keeps a multivalued fast field: block `b` holds records `b × recordsPerBlock` up to
 * the next block's first, each record's codes sorted and written as gaps (LEB128), after
 * their number. A write rewrites only the blocks of the records it changed; new records go
 * to the last block and the ones after it, the column's tail.
 */

export const recordsPerBlock = 1024;

/** The block holding a record, and the record's place in it. */
export const blockOf = (id: number) => Math.floor(id / recordsPerBlock);

/** One block decoded: record `i` of the block holds `codes[offsets[i]]` up to `codes[offsets[i + 1]]`, ascending. */
export interface DecodedBlock {
  readonly offsets: Int32Array;
  readonly codes: Int32Array;
}

/** A block of records' codes (each list sorted, codes distinct), record by record from the block's first. */
export function encodeBlock(lists: readonly (ArrayLike<number> | undefined)[]): Buffer {
  const out = new VarintWriter();
  for (let i = 0; i < recordsPerBlock; i++) {
    const codes = lists[i];
    const n = codes?.length ?? 0;
    out.write(n);
    let previous = 0;
    for (let k = 0; k < n; k++) {
      out.write(codes![k]! - previous);
      previous = codes![k]!;
    }
  }
  return Buffer.from(out.toBuffer());
}

/** A stored block's codes, every record of the block (those never written hold none). */
export function decodeBlock(data: Uint8Array): DecodedBlock {
  return decodeInto(data, new Int32Array(recordsPerBlock + 1), new Int32Array(Math.max(16, data.length)));
}

/**
 * Decodes block after block into the same two arrays, each block's codes good until the next
 * is decoded: a reader's passes over a column then hold no block decoded (every block of a
 * column decoded at once took several times its stored bytes, garbage the reader's thread
 * held until its heap was next collected).
 */
export function blockDecoder(): (data: Uint8Array) => DecodedBlock {
  const offsets = new Int32Array(recordsPerBlock + 1);
  let codes = new Int32Array(1024);
  return (data) => {
    // A block holds fewer codes than bytes (each code and each record's count takes one at least).
    if (codes.length < data.length) codes = new Int32Array(Math.max(data.length, codes.length * 2));
    return decodeInto(data, offsets, codes);
  };
}

function decodeInto(data: Uint8Array, offsets: Int32Array, into: Int32Array): DecodedBlock {
  const cursor = new VarintCursor(data, 0);
  let codes = into;
  let n = 0;
  for (let i = 0; i < recordsPerBlock; i++) {
    const count = cursor.at < data.length ? cursor.read() : 0;
    if (n + count > codes.length) {
      const grown = new Int32Array(Math.max(codes.length * 2, n + count));
      grown.set(codes);
      codes = grown;
    }
    if (count) {
      // readGaps adds each gap plus one (the postings' distinct ids) from -1, so the k-th code
      // comes out k too high: these gaps are written as they are.
      cursor.readGaps(codes.subarray(n, n + count), count, -1);
      for (let k = 1; k < count; k++) codes[n + k]! -= k;
    }
    n += count;
    offsets[i + 1] = n;
  }
  return { offsets, codes: codes.subarray(0, n) };
}

/** A decoded block as one list per record, to change some and encode it again. */
export function blockLists({ offsets, codes }: DecodedBlock): number[][] {
  return Array.from({ length: recordsPerBlock }, (_, i) => Array.from(codes.subarray(offsets[i], offsets[i + 1])));
}

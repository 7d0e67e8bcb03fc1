import { doubled } from '../typed-arrays';

/**
 * Variable-length integers, in one place. Our own blobs (block-postings.ts, positions) use LEB128: seven bits a byte,
 * least significant group first. FTS5's shadow tables (`%_docsize`, the averages record
 * in `%_data`) use SQLite's varint: most significant group first, and a ninth byte that
 * carries eight bits.
 */

/** Appends non-negative integers (below 2^53) as LEB128 to a growable byte buffer. */
export class VarintWriter {
  private bytes = new Uint8Array(1024);
  private written = 0;

  write(value: number): void {
    if (this.written + 8 > this.bytes.length) this.bytes = doubled(this.bytes);
    while (value >= 0x80) {
      this.bytes[this.written++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.bytes[this.written++] = value;
  }

  /** Appends bytes as they are (a bit-packed run, bit-packing.ts). */
  writeBytes(bytes: Uint8Array): void {
    while (this.written + bytes.length > this.bytes.length) this.bytes = doubled(this.bytes);
    this.bytes.set(bytes, this.written);
    this.written += bytes.length;
  }

  get length(): number {
    return this.written;
  }

  /** Empties the writer for reuse (a writer per list allocated more than it wrote, over millions of small lists). */
  clear(): void {
    this.written = 0;
  }

  /** The bytes written, in the writer's own memory: copy them before the writer is written again. */
  toBuffer(): Buffer {
    return Buffer.from(this.bytes.buffer, 0, this.written);
  }
}

/** Every SQLite varint in `bytes`, in order. */
export function sqliteVarints(bytes: Uint8Array): number[] {
  const values: number[] = [];
  let position = 0;
  while (position < bytes.length) {
    let value = 0;
    let i = 0;
    for (; i < 8; i++) {
      const byte = bytes[position + i]!;
      value = value * 0x80 + (byte & 0x7f);
      if (byte < 0x80) break;
    }
    if (i === 8) value = value * 0x100 + bytes[position + 8]!;
    position += Math.min(i, 8) + 1;
    values.push(value);
  }
  return values;
}

const noBytes = new Uint8Array(0);

/**
 * Reads LEB128 integers in sequence from a byte offset that can be read and moved. The
 * one reader of our blobs: the hot loops (a block's ids and counts, a document's
 * positions) keep one cursor and move it with `seek`, since a reader made per document
 * cost more than the decoding itself.
 */
export class VarintCursor {
  constructor(
    private bytes: Uint8Array = noBytes,
    public at = 0,
  ) {}

  /** Points the cursor at byte `at` of `bytes`. */
  seek(bytes: Uint8Array, at: number): void {
    this.bytes = bytes;
    this.at = at;
  }

  read(): number {
    const bytes = this.bytes;
    let at = this.at;
    let byte = bytes[at++]!;
    // Most gaps, counts and positions are one byte.
    if (byte < 0x80) {
      this.at = at;
      return byte;
    }
    let value = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
    }
    this.at = at;
    return value;
  }

  /**
   * Reads `n` integers into `out` (from its start), each a gap less one added to the one
   * before, from `previous` on: a block's ids. This and readCounts hold the offset in a
   * local, for the hottest decoding there is.
   */
  readGaps(out: Int32Array, n: number, previous: number): void {
    const bytes = this.bytes;
    let at = this.at;
    let sum = previous;
    for (let i = 0; i < n; i++) {
      let byte = bytes[at++]!;
      let value = byte & 0x7f;
      for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
        byte = bytes[at++]!;
        value += (byte & 0x7f) * scale;
      }
      out[i] = sum += value + 1;
    }
    this.at = at;
  }

  /** Reads `n` integers into `out` (from its start), as they are: a block's counts. */
  readCounts(out: Uint32Array, n: number): void {
    const bytes = this.bytes;
    let at = this.at;
    for (let i = 0; i < n; i++) {
      let byte = bytes[at++]!;
      let value = byte & 0x7f;
      for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
        byte = bytes[at++]!;
        value += (byte & 0x7f) * scale;
      }
      out[i] = value;
    }
    this.at = at;
  }

  /** Passes over `n` integers without decoding them: each ends at its first byte below 0x80. */
  skip(n: number): void {
    const bytes = this.bytes;
    let at = this.at;
    for (let k = 0; k < n; k++) while (bytes[at++]! >= 0x80);
    this.at = at;
  }
}

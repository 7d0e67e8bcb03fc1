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

/**
 * Reads LEB128 integers from `bytes` in sequence, one per call, with a fast path for the
 * one-byte values most gaps, counts and positions are.
 */
export function varintReader(bytes: Uint8Array): () => number {
  let at = 0;
  const long = () => {
    let byte = bytes[at++]!;
    let value = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = bytes[at++]!;
      value += (byte & 0x7f) * scale;
    }
    return value;
  };
  return () => {
    const byte = bytes[at]!;
    if (byte < 0x80) {
      at++;
      return byte;
    }
    return long();
  };
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

/** Reads LEB128 integers in sequence from a byte offset that can be read and moved. */
export class VarintCursor {
  constructor(
    private readonly bytes: Uint8Array,
    public at = 0,
  ) {}

  read(): number {
    const bytes = this.bytes;
    let byte = bytes[this.at++]!;
    let value = byte & 0x7f;
    for (let scale = 0x80; byte >= 0x80; scale *= 0x80) {
      byte = bytes[this.at++]!;
      value += (byte & 0x7f) * scale;
    }
    return value;
  }
}

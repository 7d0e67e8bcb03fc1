/**
 * Variable-length integers. Our own blobs (postings.ts) use LEB128: seven bits a byte,
 * least significant group first. FTS5's shadow tables (`%_docsize`, the averages record
 * in `%_data`) use SQLite's varint: most significant group first, and a ninth byte that
 * carries eight bits.
 */

/** Appends non-negative integers (below 2^53) as LEB128 to a growable byte buffer. */
export class VarintWriter {
  private bytes = new Uint8Array(1024);
  private length = 0;

  write(value: number): void {
    if (this.length + 8 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    while (value >= 0x80) {
      this.bytes[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.bytes[this.length++] = value;
  }

  toBuffer(): Buffer {
    return Buffer.from(this.bytes.buffer, 0, this.length);
  }
}

/** Reads LEB128 integers in sequence. */
export class VarintReader {
  private position = 0;

  constructor(private readonly bytes: Uint8Array) {}

  read(): number {
    const bytes = this.bytes;
    let byte = bytes[this.position++]!;
    if (byte < 0x80) return byte;
    let value = byte & 0x7f;
    let scale = 0x80;
    do {
      byte = bytes[this.position++]!;
      value += (byte & 0x7f) * scale;
      scale *= 0x80;
    } while (byte >= 0x80);
    return value;
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

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sqliteVarints, VarintCursor, VarintWriter } from './varint';

/** Every safe integer size, the edges of each byte count included (127, 128, 16383, 16384, …, 2^53 − 1). */
const sizes = fc.oneof(
  fc.maxSafeNat(),
  fc.integer({ min: 0, max: 127 }),
  fc.integer({ min: 1, max: 7 }).map((bytes) => 2 ** (7 * bytes) - 1),
  fc.integer({ min: 1, max: 7 }).map((bytes) => 2 ** (7 * bytes)),
  fc.constant(Number.MAX_SAFE_INTEGER),
);

const written = (values: readonly number[]) => {
  const writer = new VarintWriter();
  for (const value of values) writer.write(value);
  return Uint8Array.from(writer.toBuffer());
};

/** Seven bits a byte: how many bytes a value takes. */
const bytesOf = (value: number): number => (value < 0x80 ? 1 : 1 + bytesOf(Math.floor(value / 0x80)));

describe('LEB128 varints', () => {
  it('round-trip every safe integer size, a byte a seven bits', () => {
    fc.assert(
      fc.property(fc.array(sizes, { maxLength: 60 }), (values) => {
        const bytes = written(values);
        const read = new VarintCursor(bytes);
        expect(values.map(() => read.read())).toEqual(values);
        expect(read.at).toBe(bytes.length);
        expect(bytes.length).toBe(values.reduce((sum, value) => sum + bytesOf(value), 0));
      }),
    );
  });

  it('skip over values to the same place reading them reaches, and read on from any place they are sought', () => {
    fc.assert(
      fc.property(fc.array(sizes, { minLength: 1, maxLength: 40 }), fc.nat(), (values, cut) => {
        const k = cut % (values.length + 1);
        const bytes = written(values);
        const skipping = new VarintCursor(bytes);
        skipping.skip(k);
        const reading = new VarintCursor(bytes);
        for (let i = 0; i < k; i++) reading.read();
        expect(skipping.at).toBe(reading.at);
        const sought = new VarintCursor();
        sought.seek(bytes, reading.at);
        expect(values.slice(k).map(() => sought.read())).toEqual(values.slice(k));
      }),
    );
  });

  it('are written the same by a writer emptied for reuse', () => {
    fc.assert(
      fc.property(fc.array(sizes, { maxLength: 300 }), fc.array(sizes, { maxLength: 30 }), (first, second) => {
        const writer = new VarintWriter();
        for (const value of first) writer.write(value);
        writer.clear();
        for (const value of second) writer.write(value);
        expect(Uint8Array.from(writer.toBuffer())).toEqual(written(second));
      }),
    );
  });
});

describe("SQLite's varints", () => {
  it('read the one-byte, two-byte and nine-byte forms', () => {
    expect(sqliteVarints(Uint8Array.from([0x07, 0x81, 0x37, 0x00]))).toEqual([7, 183, 0]);
    expect(sqliteVarints(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))).toEqual([2 ** 64 - 1]);
  });
});

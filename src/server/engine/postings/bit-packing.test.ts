import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bitsAt, bitsBytes, bitWidth, packBits, pack, packedBytes, unpack, unpackGaps } from './bit-packing';

/** A run's values at every width from 0 to 32, the widest value of each width among them. */
const runs = fc
  .integer({ min: 0, max: 32 })
  .chain((width) =>
    fc.tuple(
      fc.constant(width),
      fc.array(fc.nat({ max: width === 32 ? 2 ** 32 - 1 : Math.max(0, 2 ** width - 1) }), { minLength: 128, maxLength: 128 }),
      fc.nat({ max: 127 }),
    ),
  );

const packed = (values: Uint32Array, width: number, offset: number) => {
  const out = new Uint8Array(offset + packedBytes(values.length, width) + 3);
  const end = pack(values, values.length, width, out, offset);
  return { out, end };
};

describe('bit packing', () => {
  it('reads back 128 values at any width from 0 to 32, from any byte, in width × 16 bytes', () => {
    fc.assert(
      fc.property(runs, fc.nat({ max: 7 }), fc.nat({ max: 2 ** 32 - 1 }), ([width, raw, widest], offset, base) => {
        const values = Uint32Array.from(raw);
        if (width > 0) values[widest] = width === 32 ? 2 ** 32 - 1 : 2 ** width - 1;
        expect(bitWidth(values, values.length)).toBe(width);
        const { out, end } = packed(values, width, offset);
        expect(end - offset).toBe(width * 16);
        const read = new Uint32Array(128);
        unpack(out, offset, 128, width, 0, read);
        expect(read).toEqual(values);
        // A base is added to each, where the sum stays a count.
        unpack(out, offset, 128, width, base % 2 ** (32 - Math.max(width, 1)), read);
        expect(Array.from(read)).toEqual(Array.from(values, (value) => value + (base % 2 ** (32 - Math.max(width, 1)))));
      }),
    );
  });

  it('reads gaps less one back as ids, up to the largest id', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { minLength: 128, maxLength: 128 }), (raw) => {
        const ids = Int32Array.from(raw.sort((a, b) => a - b));
        const gaps = Uint32Array.from(ids, (id, i) => id - (i === 0 ? -1 : ids[i - 1]!) - 1);
        const width = bitWidth(gaps, 128);
        const { out } = packed(gaps, width, 1);
        const read = new Int32Array(128);
        unpackGaps(out, 1, 128, width, -1, read);
        expect(read).toEqual(ids);
      }),
    );
  });

  it('reads back values and gaps at every width, each its own unpacker, from any byte', () => {
    for (let width = 1; width <= 32; width++) {
      const widest = width === 32 ? 2 ** 32 - 1 : 2 ** width - 1;
      // Every value below the widest, the widest among them, at places that spill across words.
      const values = Uint32Array.from({ length: 128 }, (_, i) => (i % 7 === 3 ? widest : Math.floor((widest * ((i * 37) % 101)) / 101)));
      const offset = width % 5;
      const { out } = packed(values, width, offset);
      const read = new Uint32Array(128);
      unpack(out, offset, 128, width, 2, read);
      expect(Array.from(read)).toEqual(Array.from(values, (value) => (value + 2) % 2 ** 32));
      if (width > 30) continue;
      // Gaps at this width: one the widest, the others small enough that the ids stay below 2^31.
      const gaps = Uint32Array.from(values, (value, i) => (i === 40 ? widest : value % 2 ** Math.min(width, 16)));
      const ids = new Int32Array(128);
      for (let i = 0, id = -1; i < 128; i++) ids[i] = id += gaps[i]! + 1;
      const gapsPacked = packed(gaps, width, offset).out;
      const readIds = new Int32Array(128);
      unpackGaps(gapsPacked, offset, 128, width, -1, readIds);
      expect(readIds).toEqual(ids);
    }
  });

  it('packs consecutive values less one at width 0, into no bytes', () => {
    const gaps = new Uint32Array(128);
    expect(bitWidth(gaps, 128)).toBe(0);
    expect(packed(gaps, 0, 0).end).toBe(0);
    const read = new Int32Array(128);
    unpackGaps(new Uint8Array(0), 0, 128, 0, 41, read);
    expect(read).toEqual(Int32Array.from({ length: 128 }, (_, i) => 42 + i));
  });

  it('packs a run of any length to the byte, and reads back each value where it stands, at any width from 0 to 32', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 32 })
          .chain((width) =>
            fc.tuple(fc.constant(width), fc.array(fc.nat({ max: width === 32 ? 2 ** 32 - 1 : 2 ** width - 1 }), { maxLength: 70 })),
          ),
        fc.nat({ max: 9 }),
        ([width, raw], offset) => {
          const values = Uint32Array.from(raw);
          // Bytes before and after the run, all ones, which its reads must not take in.
          const out = new Uint8Array(offset + bitsBytes(values.length, width) + 5).fill(0xff);
          const end = packBits(values, values.length, width, out, offset);
          expect(end - offset).toBe(Math.ceil((values.length * width) / 8));
          expect(out.subarray(end).every((byte) => byte === 0xff)).toBe(true);
          expect(Array.from(values, (_, i) => bitsAt(out, offset, i, width))).toEqual(Array.from(values));
          // At the end of the data, where a word cannot be read whole.
          const tight = out.subarray(0, end);
          expect(Array.from(values, (_, i) => bitsAt(tight, offset, i, width))).toEqual(Array.from(values));
        },
      ),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bitsBytes, bitWidth } from './bit-packing';
import { bestPatch, maxExceptions, packPatched, patchCode, patchedBytes, PatchedReader, type Patch } from './patched-runs';

/** Runs of mostly narrow values, a few of them wide (a title's counts among a full text's), or of any values. */
const runs = fc.oneof(
  fc.array(fc.oneof({ weight: 12, arbitrary: fc.nat({ max: 7 }) }, { weight: 1, arbitrary: fc.nat({ max: 2 ** 26 - 1 }) }), {
    minLength: 1,
    maxLength: 300,
  }),
  fc.array(fc.nat({ max: 2 ** 32 - 1 }), { minLength: 1, maxLength: 70 }),
);

/** A patch that packs `values` at `width`, every wider value an exception. */
const patchAt = (values: Uint32Array, width: number): Patch => {
  const widest = bitWidth(values, values.length);
  const exceptions = values.filter((value) => value >= 2 ** width).length;
  return { width, exceptions, highWidth: exceptions ? widest - width : 0 };
};

/** Packs `values` by `patch` at byte `offset` of a buffer with a few bytes of garbage around them. */
const packed = (values: Uint32Array, patch: Patch, offset: number) => {
  const bytes = patchedBytes(values.length, patch);
  const out = new Uint8Array(offset + bytes + 5).fill(0xa5);
  const end = packPatched(values, values.length, patch, out, offset);
  return { out, end, bytes };
};

describe('patched runs', () => {
  it('read back every value as written, at any width, from any byte, passing over any places', () => {
    fc.assert(
      fc.property(
        runs,
        fc.nat({ max: 32 }),
        fc.nat({ max: 7 }),
        fc.array(fc.nat({ max: 5 }), { maxLength: 300 }),
        (raw, w, offset, steps) => {
          const values = Uint32Array.from(raw);
          const patch = patchAt(values, Math.min(w, bitWidth(values, values.length)));
          const { out, end, bytes } = packed(values, patch, offset);
          expect(end - offset).toBe(bytes);
          const reader = new PatchedReader();
          reader.enter(out, offset, values.length, patch.width, patchCode(patch));
          expect(Array.from(values, (_, i) => reader.get(i))).toEqual(Array.from(values));
          // Passing over places, as a walk that skips documents does.
          reader.enter(out, offset, values.length, patch.width, patchCode(patch));
          for (let i = 0, s = 0; i < values.length; i += 1 + (steps[s++] ?? 0)) expect(reader.get(i)).toBe(values[i]);
        },
      ),
    );
  });

  it('are never longer than the run packed at its widest value, and read back as written at the width chosen', () => {
    fc.assert(
      fc.property(runs, fc.nat({ max: 3 }), (raw, headerBytes) => {
        const values = Uint32Array.from(raw);
        const patch = bestPatch(values, values.length, (p) => (p.exceptions ? headerBytes : 0));
        expect(patch).toEqual(patchAt(values, patch.width));
        expect(patch.exceptions).toBeLessThanOrEqual(maxExceptions);
        const plain = bitsBytes(values.length, bitWidth(values, values.length));
        expect(patchedBytes(values.length, patch) + (patch.exceptions ? headerBytes : 0)).toBeLessThanOrEqual(plain);
        const { out } = packed(values, patch, 0);
        const reader = new PatchedReader();
        reader.enter(out, 0, values.length, patch.width, patchCode(patch));
        expect(Array.from(values, (_, i) => reader.get(i))).toEqual(Array.from(values));
      }),
    );
  });

  it("set apart a block's one wide value: 127 two-bit values and one of 13 bits take 35 bytes, not 208", () => {
    const values = Uint32Array.from({ length: 128 }, (_, i) => (i === 77 ? 5000 : i % 4));
    const patch = bestPatch(values, values.length, () => 2);
    expect(patch).toEqual({ width: 2, exceptions: 1, highWidth: 11 });
    // 128 × 2 bits, the exception's place in 7 bits, its 11 high bits.
    expect(patchedBytes(values.length, patch)).toBe(32 + 1 + 2);
    expect(bitsBytes(128, 13)).toBe(208);
  });
});

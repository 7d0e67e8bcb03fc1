import { bitsAt, bitsBytes, packBits } from './bit-packing';

/**
 * Patched frame of reference, after Lucene's PForUtil: a run of values packed at a width
 * that covers most of them, the few wider ones (exceptions) keeping their low bits there and
 * their high bits apart:
 *
 *   the run's values' low `width` bits (bit-packing.ts: a full block's in 32-bit words, a
 *   shorter run's to the byte)
 *   the exceptions' places in the run, ascending, at the width of the run's last place
 *   the exceptions' high bits, at the width of the widest value less `width`
 *
 * A block of postings packed its counts at the width of the largest (block-postings.ts):
 * one record holding a word in its title (weight 10) among records holding it once in their
 * full text made every count of the block four bits wide. The width is the one that makes
 * the run shortest, so a run without a wide value few enough to set apart is packed as
 * before, with no exceptions.
 *
 * A full run is unpacked whole and its exceptions added after; a shorter one is read value
 * by value (PatchedReader), the next exception's place kept, in ascending order of place.
 */

/** How a run is packed: the low width, the exceptions, and the width of their high bits. */
export interface Patch {
  readonly width: number;
  readonly exceptions: number;
  readonly highWidth: number;
}

/**
 * A patch's exceptions and their high bits' width as one number for a header (0: none),
 * which readers take as it is: a phrase opens thousands of blocks, and an object each cost more than reading them.
 */
export const patchCode = ({ exceptions, highWidth }: Patch): number => exceptions * 33 + highWidth;
const exceptionsOf = (code: number): number => Math.floor(code / 33);
const highWidthOf = (code: number): number => code % 33;

/** The bytes of a patch's header number, the cost of its exceptions beside their bits. */
export const patchCost = (patch: Patch): number => {
  const code = patchCode(patch);
  return code < 2 ** 7 ? 1 : code < 2 ** 14 ? 2 : code < 2 ** 21 ? 3 : 4;
};

/** The width of the exceptions' places in a run of `n` values. */
const placeWidth = (n: number): number => (n <= 1 ? 0 : 32 - Math.clz32(n - 1));

/** The bytes of the exceptions of a run of `n` values patched by `code`: their places and high bits. */
export const exceptionBytes = (n: number, code: number): number =>
  code === 0 ? 0 : bitsBytes(exceptionsOf(code), placeWidth(n)) + bitsBytes(exceptionsOf(code), highWidthOf(code));

/** The bytes a run of `n` values packed by `patch` takes. */
export const patchedBytes = (n: number, patch: Patch): number => bitsBytes(n, patch.width) + exceptionBytes(n, patchCode(patch));

/**
 * The most exceptions a run sets apart, as Lucene's PForUtil: a block's are added after it is
 * unpacked, one at a time, and a run of many wide values packs nearly as short at their width.
 */
export const maxExceptions = 7;

/** How many values of a run need each width (runs are packed one at a time). */
const byWidth = new Uint32Array(33);

/**
 * The patch that packs `values[0..n)` shortest, counting `costOfPatch(patch)` bytes for what
 * says where the exceptions are (the caller's header), and no exceptions on a tie.
 */
export function bestPatch(values: ArrayLike<number>, n: number, costOfPatch: (patch: Patch) => number): Patch {
  byWidth.fill(0);
  for (let i = 0; i < n; i++) byWidth[32 - Math.clz32(values[i]!)]!++;
  let widest = 32;
  while (widest > 0 && byWidth[widest] === 0) widest--;
  let best: Patch = { width: widest, exceptions: 0, highWidth: 0 };
  let bestBytes = bitsBytes(n, widest);
  for (let width = widest - 1, exceptions = 0; width >= 0; width--) {
    exceptions += byWidth[width + 1]!;
    if (exceptions > maxExceptions) break;
    const patch = { width, exceptions, highWidth: widest - width };
    const bytes = patchedBytes(n, patch) + costOfPatch(patch);
    if (bytes < bestBytes) {
      best = patch;
      bestBytes = bytes;
    }
  }
  return best;
}

let scratch = new Uint32Array(256);

/** `values[0..n)`'s low `width` bits, in an array of the module's valid until the next call. */
export function lowBits(values: ArrayLike<number>, n: number, width: number): Uint32Array {
  if (scratch.length < n) scratch = new Uint32Array(n);
  const low = width === 32 ? 0xffffffff : 2 ** width - 1;
  for (let i = 0; i < n; i++) scratch[i] = (values[i]! & low) >>> 0;
  return scratch;
}

/** Packs the exceptions of `values[0..n)` under `patch` (their places, then their high bits) into `out` at byte `at`; returns the byte after. */
export function packExceptions(values: ArrayLike<number>, n: number, patch: Patch, out: Uint8Array, at: number): number {
  const { width, exceptions, highWidth } = patch;
  if (exceptions === 0) return at;
  const places = new Uint32Array(exceptions);
  const highs = new Uint32Array(exceptions);
  for (let i = 0, e = 0; i < n; i++) {
    const high = Math.floor(values[i]! / 2 ** width);
    if (high === 0) continue;
    places[e] = i;
    highs[e++] = high;
  }
  return packBits(highs, exceptions, highWidth, out, packBits(places, exceptions, placeWidth(n), out, at));
}

/** Packs `values[0..n)` by `patch` into `out` at byte `at`, its low bits to the byte; returns the byte after. */
export function packPatched(values: ArrayLike<number>, n: number, patch: Patch, out: Uint8Array, at: number): number {
  return packExceptions(values, n, patch, out, packBits(lowBits(values, n, patch.width), n, patch.width, out, at));
}

/** Adds the high bits of the exceptions packed at byte `at` of `data` (packExceptions, patch `code`) to the run's low `width` bits, unpacked into `out`. */
export function patchUnpacked(data: Uint8Array, at: number, n: number, width: number, code: number, out: Uint32Array): void {
  const exceptions = exceptionsOf(code);
  const highWidth = highWidthOf(code);
  const places = placeWidth(n);
  const highsAt = at + bitsBytes(exceptions, places);
  for (let e = 0; e < exceptions; e++) out[bitsAt(data, at, e, places)]! += bitsAt(data, highsAt, e, highWidth) * 2 ** width;
}

/** What the exceptions packed at byte `at` of `data` (patch `code`, a run of `n` values at `width`) add to value `i`: its high bits, or 0 when it has none. */
export function exceptionAt(data: Uint8Array, at: number, n: number, width: number, code: number, i: number): number {
  const exceptions = exceptionsOf(code);
  const places = placeWidth(n);
  // Places ascend (packExceptions): one past `i` ends the search.
  for (let e = 0; e < exceptions; e++) {
    const place = bitsAt(data, at, e, places);
    if (place > i) return 0;
    if (place === i) return bitsAt(data, at + bitsBytes(exceptions, places), e, highWidthOf(code)) * 2 ** width;
  }
  return 0;
}

/** Reads a patched run's values where they stand, in ascending order of place between `enter`s. */
export class PatchedReader {
  private data: Uint8Array = new Uint8Array(0);
  private at = 0;
  private width = 0;
  private exceptions = 0;
  private highWidth = 0;
  private placesAt = 0;
  private placeWidth = 0;
  private highsAt = 0;
  /** The next exception not yet passed, and its place (Infinity when none is left). */
  private exception = 0;
  private place = Infinity;

  /** Starts reading the run of `n` values packed at `width` and patched by `code` from byte `at` of `data`. */
  enter(data: Uint8Array, at: number, n: number, width: number, code: number): void {
    this.data = data;
    this.at = at;
    this.width = width;
    this.exceptions = exceptionsOf(code);
    this.highWidth = highWidthOf(code);
    this.placeWidth = placeWidth(n);
    this.placesAt = at + bitsBytes(n, width);
    this.highsAt = this.placesAt + bitsBytes(this.exceptions, this.placeWidth);
    this.exception = 0;
    this.place = code !== 0 ? bitsAt(data, this.placesAt, 0, this.placeWidth) : Infinity;
  }

  /** Value `i`: at or after the place read last. */
  get(i: number): number {
    const low = bitsAt(this.data, this.at, i, this.width);
    if (i < this.place) return low;
    while (this.place < i) this.pass();
    if (this.place !== i) return low;
    return low + bitsAt(this.data, this.highsAt, this.exception, this.highWidth) * 2 ** this.width;
  }

  private pass(): void {
    const next = ++this.exception;
    this.place = next < this.exceptions ? bitsAt(this.data, this.placesAt, next, this.placeWidth) : Infinity;
  }
}

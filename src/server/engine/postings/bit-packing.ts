/**
 * Frame-of-reference bit packing, after Lucene's ForUtil and tantivy's bitpacker: a run of
 * values (a multiple of 32 of them: a full postings block) all written at the width of the
 * largest, least significant bits first, in 32-bit little-endian words. A run of width w
 * takes n × w / 8 bytes, so a reader finds the next run from the width alone, and a run of
 * values all 0 (a block of consecutive ids, stored as gaps less one) takes none.
 *
 * Words are assembled from bytes on reading, so a run may start at any byte of any buffer
 * and reads the same on any machine.
 */

/** Bits the largest of these values needs (0 when all are 0). */
export function bitWidth(values: ArrayLike<number>, n: number): number {
  let any = 0;
  for (let i = 0; i < n; i++) any |= values[i]!;
  return 32 - Math.clz32(any);
}

/** The bytes a run of `n` values packed at `width` bits takes. */
export const packedBytes = (n: number, width: number): number => (n / 8) * width;

/** Words of the run being written; a run is at most 32 bits × its values long. */
let words = new Uint32Array(128);

const wordsFor = (n: number): Uint32Array => (words.length >= n ? words : (words = new Uint32Array(n)));

/** Packs `values[0..n)`, each below 2^width, into `out` at byte `at`; returns the byte after. `n` is a multiple of 32. */
export function pack(values: ArrayLike<number>, n: number, width: number, out: Uint8Array, at: number): number {
  const count = (n / 32) * width;
  const packed = wordsFor(count);
  packed.fill(0, 0, count);
  for (let i = 0, bit = 0; i < n; i++, bit += width) {
    const value = values[i]!;
    const word = bit >>> 5;
    const shift = bit & 31;
    packed[word]! |= value << shift;
    // The value's high bits spill into the next word.
    if (shift + width > 32) packed[word + 1]! |= value >>> (32 - shift);
  }
  for (let k = 0; k < count; k++) {
    const word = packed[k]!;
    out[at++] = word;
    out[at++] = word >>> 8;
    out[at++] = word >>> 16;
    out[at++] = word >>> 24;
  }
  return at;
}

/** Reads `n` values packed at `width` bits from byte `at` of `data` into `out` (from its start), each plus `base`. */
export function unpack(data: Uint8Array, at: number, n: number, width: number, base: number, out: Uint32Array): void {
  if (width === 0) {
    out.fill(base, 0, n);
    return;
  }
  unpackers(width)(data, at, n >>> 5, base, out);
}

/**
 * Reads `n` id gaps less one, packed at `width` bits from byte `at` of `data`, into `out`
 * as ids after `previous`: a block's ids, decoded and summed in one pass (the hottest
 * decoding there is).
 */
export function unpackGaps(data: Uint8Array, at: number, n: number, width: number, previous: number, out: Int32Array): void {
  if (width === 0) {
    for (let i = 0; i < n; i++) out[i] = ++previous;
    return;
  }
  gapUnpackers(width)(data, at, n >>> 5, previous, out);
}

/** Reads `groups` × 32 values at one width from byte `at` into `out`: each plus `start`, or (gaps) each as the running sum after it. */
type Unpacker<Out> = (data: Uint8Array, at: number, groups: number, start: number, out: Out) => void;

/*
 * One unpacker per width, its shifts and masks written out: 32 values at w bits are w whole
 * words, so each value's word and shift are constants, the words are read once into locals,
 * and no value branches or shifts by a variable. Decoding a common word's list took a fifth
 * to a quarter of the time of one loop for every width (a loop's shift, word and mask
 * are worked out per value, and its words went through an array). The source is made here
 * from integers alone, as Lucene generates its ForUtil, rather than 64 functions written out.
 */
function unpackerSource(width: number, gaps: boolean): string {
  const lines = [gaps ? 'let id = start;' : '', `for (let g = 0, o = 0; g < groups; g++, at += ${4 * width}, o += 32) {`];
  for (let k = 0; k < width; k++)
    lines.push(
      `const w${k} = data[at + ${4 * k}] | (data[at + ${4 * k + 1}] << 8) | (data[at + ${4 * k + 2}] << 16) | (data[at + ${4 * k + 3}] << 24);`,
    );
  const mask = width === 32 ? -1 : ~(-1 << width);
  for (let i = 0; i < 32; i++) {
    const word = (i * width) >>> 5;
    const shift = (i * width) & 31;
    // The value's high bits from the next word where it spills.
    const bits = shift + width > 32 ? `((w${word} >>> ${shift}) | (w${word + 1} << ${32 - shift}))` : `(w${word} >>> ${shift})`;
    lines.push(gaps ? `out[o + ${i}] = id += (${bits} & ${mask}) + 1;` : `out[o + ${i}] = start + ((${bits} & ${mask}) >>> 0);`);
  }
  lines.push('}');
  return lines.join('\n');
}

/** Each width's unpacker, made when a block of that width is first read (making all 64 took every thread's start a noticeable time). */
function madeOnUse<Out>(gaps: boolean): (width: number) => Unpacker<Out> {
  const made: (Unpacker<Out> | undefined)[] = [];
  return (width) =>
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is made from the width alone (unpackerSource), never from data
    (made[width] ??= new Function('data', 'at', 'groups', 'start', 'out', unpackerSource(width, gaps)) as Unpacker<Out>);
}

const unpackers = madeOnUse<Uint32Array>(false);
/** Ids are below 2^31, so their gaps are never 32 bits wide. */
const gapUnpackers = madeOnUse<Int32Array>(true);

/*
 * Runs of any length, packed to the byte: positions (positions.ts) read one document's
 * instances out of the middle of a block, so each value is read where it stands rather than
 * a whole run unpacked, and a run of a few values takes no padding to words.
 */

/** The bytes a run of `n` values packed at `width` bits by packBits takes: whole bytes, no padding to words. */
export const bitsBytes = (n: number, width: number): number => Math.ceil((n * width) / 8);

/** Packs `values[0..n)`, each below 2^width, into `out` at byte `at`, least significant bits first; returns the byte after. */
export function packBits(values: ArrayLike<number>, n: number, width: number, out: Uint8Array, at: number): number {
  const end = at + bitsBytes(n, width);
  out.fill(0, at, end);
  if (width === 0) return end;
  for (let i = 0, bit = 0; i < n; i++, bit += width) {
    let byte = at + (bit >>> 3);
    const shift = bit & 7;
    const value = values[i]!;
    out[byte]! |= (value << shift) & 0xff;
    // The bits left over after the first byte, a byte at a time.
    for (let rest = value >>> (8 - shift), left = width + shift - 8; left > 0; left -= 8, rest >>>= 8) out[++byte]! |= rest & 0xff;
  }
  return end;
}

/** Value `index` of the run packed at `width` bits from byte `at` of `data` by packBits. */
export function bitsAt(data: Uint8Array, at: number, index: number, width: number): number {
  if (width === 0) return 0;
  const bit = index * width;
  const byte = at + (bit >>> 3);
  const shift = bit & 7;
  // A word read from four bytes, fewer at the end of the data (the run's last bits may be there).
  const word =
    byte + 3 < data.length
      ? data[byte]! | (data[byte + 1]! << 8) | (data[byte + 2]! << 16) | (data[byte + 3]! << 24)
      : (data[byte] ?? 0) | ((data[byte + 1] ?? 0) << 8) | ((data[byte + 2] ?? 0) << 16);
  let value = word >>> shift;
  // Wider than 25 bits, a value may reach a fifth byte.
  if (shift + width > 32) value |= data[byte + 4]! << (32 - shift);
  return width === 32 ? value >>> 0 : value & ~(-1 << width);
}

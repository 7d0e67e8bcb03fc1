/**
 * Seeded randomness for the corpus generator: sfc32 (fast, 128-bit state, passes
 * PractRand) reseeded per record, so record N is the same whatever the corpus size,
 * and weighted pickers whose weights follow Zipf's law.
 */

/** Murmur3's finaliser: spreads every input bit over the whole word. */
function mix32(value: number): number {
  let h = value | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of a string (FNV-1a, then mixed), for salting streams by name. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return mix32(h);
}

export class Random {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  constructor(seed: number, stream = 0, index = 0) {
    this.reseed(seed, stream, index);
  }

  /**
   * Restarts the stream from a seed, a stream number (which deployment) and an index
   * (which record). Any finite numbers work; fractions are truncated.
   */
  reseed(seed: number, stream: number, index: number): void {
    let h = 0x9e3779b9;
    h = mix32(h ^ mix32(seed >>> 0) ^ Math.floor(seed / 0x1_0000_0000));
    h = mix32(h ^ mix32(stream >>> 0));
    h = mix32(h ^ mix32(index >>> 0) ^ Math.floor(index / 0x1_0000_0000));
    this.a = h;
    this.b = mix32(h ^ 0x6a09e667);
    this.c = mix32(h ^ 0xbb67ae85);
    this.d = 1;
    // The first outputs of sfc32 still correlate with the seed words.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.uint32() / 4_294_967_296;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** A string of random decimal digits (leading zeros kept). */
  digits(length: number): string {
    let text = '';
    for (let i = 0; i < length; i++) text += String.fromCharCode(48 + Math.floor(this.float() * 10));
    return text;
  }
}

/**
 * Draws items by fixed weights in constant time (Vose's alias method): the generator
 * draws hundreds of words per record, so this is its innermost loop.
 */
export class Picker<T> {
  private readonly items: readonly T[];
  private readonly threshold: Float64Array;
  private readonly alias: Uint32Array;

  constructor(items: readonly T[], weights: readonly number[]) {
    if (items.length === 0 || items.length !== weights.length) throw new Error('Picker needs one weight per item');
    const n = items.length;
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const scaled = weights.map((weight) => (weight * n) / total);
    this.items = items;
    this.threshold = new Float64Array(n).fill(1);
    this.alias = new Uint32Array(n).map((_, index) => index);
    const small: number[] = [];
    const large: number[] = [];
    scaled.forEach((value, index) => (value < 1 ? small : large).push(index));
    while (small.length && large.length) {
      const less = small.pop()!;
      const more = large.pop()!;
      this.threshold[less] = scaled[less]!;
      this.alias[less] = more;
      scaled[more] = scaled[more]! + scaled[less]! - 1;
      (scaled[more] < 1 ? small : large).push(more);
    }
  }

  draw(random: Random): T {
    const u = random.float() * this.items.length;
    const column = Math.floor(u);
    return this.items[u - column < this.threshold[column]! ? column : this.alias[column]!]!;
  }
}

/**
 * Zipf's law over list order: the item at rank r has weight 1 / (r + 1)^exponent, so the
 * first entries of a vocabulary list are common and its tail is rare, as in real text.
 */
export function zipfPicker<T>(items: readonly T[], exponent = 1): Picker<T> {
  return new Picker(
    items,
    items.map((_, rank) => 1 / Math.pow(rank + 1, exponent)),
  );
}

/** Items with explicit weights: `[[item, weight], ...]`. */
export function weightedPicker<T>(entries: readonly (readonly [T, number])[]): Picker<T> {
  return new Picker(
    entries.map(([item]) => item),
    entries.map(([, weight]) => weight),
  );
}

/** A small deterministic random source (mulberry32): the benchmark's and the known-item queries' draws. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

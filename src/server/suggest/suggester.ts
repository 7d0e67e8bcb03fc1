import { firstNotBefore } from '../engine/sorted-strings';

/**
 * Words of a vocabulary near a given word: at most `maxEdits` insertions, deletions,
 * substitutions or transpositions of two adjacent letters (optimal string alignment, the
 * Damerau distance as spell checkers count it). The vocabulary is one sorted array, walked
 * as the trie it implies: the edit-distance rows of a prefix are shared by every word that
 * starts with it, and a prefix already too far from the word (its row and the one before
 * all past the bound) skips, by one binary search, every word that starts with it. A lookup
 * then visits only the prefixes within reach of the word, not the vocabulary.
 */

export interface Near {
  readonly word: string;
  readonly distance: number;
  /** The records that hold the word (its document frequency). */
  readonly weight: number;
}

export class Suggester {
  private readonly words: readonly string[];
  private readonly weights: Float64Array;
  private readonly longest: number;

  /** `entries`: each word once, with the records that hold it; any order. */
  constructor(entries: Iterable<readonly [string, number]>);
  /** Words already sorted, each once, with their weights at the same places (as another thread sorted them). */
  constructor(words: readonly string[], weights: Float64Array);
  constructor(entries: Iterable<readonly [string, number]> | readonly string[], weights?: Float64Array) {
    if (weights) {
      this.words = entries as readonly string[];
      this.weights = weights;
    } else {
      const sorted = [...(entries as Iterable<readonly [string, number]>)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      this.words = sorted.map(([word]) => word);
      this.weights = Float64Array.from(sorted, ([, weight]) => weight);
    }
    this.longest = this.words.reduce((max, word) => Math.max(max, word.length), 0);
  }

  get size(): number {
    return this.words.length;
  }

  /** The records holding `word`, or 0 when it is not in the vocabulary. */
  weightOf(word: string): number {
    const at = firstNotBefore(this.words, word);
    return this.words[at] === word ? this.weights[at]! : 0;
  }

  /** Every vocabulary word within `maxEdits` of `word`, nearest first, then held by the most records. */
  nearest(word: string, maxEdits: number): Near[] {
    const m = word.length;
    const rows: Int32Array[] = [Int32Array.from({ length: m + 1 }, (_, j) => j)];
    const minima: number[] = [0];
    const found: Near[] = [];
    const { words } = this;
    let previous = '';
    /** Rows are computed for `previous` up to this depth. */
    let depth = 0;
    let i = 0;
    while (i < words.length) {
      const candidate = words[i]!;
      let shared = 0;
      const limit = Math.min(depth, candidate.length, previous.length);
      while (shared < limit && candidate.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      let pruned = 0;
      for (let k = shared + 1; k <= candidate.length; k++) {
        const row = (rows[k] ??= new Int32Array(m + 1));
        const above = rows[k - 1]!;
        const twoAbove = k > 1 ? rows[k - 2]! : undefined;
        const c = candidate.charCodeAt(k - 1);
        const cBefore = k > 1 ? candidate.charCodeAt(k - 2) : -1;
        row[0] = k;
        // Only the band |j - k| <= maxEdits can hold a distance within bounds; the cells
        // beside it hold maxEdits + 1, no more than their true values, which are past it too.
        const low = Math.max(1, k - maxEdits);
        const high = Math.min(m, k + maxEdits);
        if (low > 1) row[low - 1] = maxEdits + 1;
        if (high < m) row[high + 1] = maxEdits + 1;
        let least = low === 1 ? k : maxEdits + 1;
        for (let j = low; j <= high; j++) {
          const q = word.charCodeAt(j - 1);
          let value = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (c === q ? 0 : 1));
          if (twoAbove && j > 1 && c === word.charCodeAt(j - 2) && cBefore === q) value = Math.min(value, twoAbove[j - 2]! + 1);
          row[j] = value;
          if (value < least) least = value;
        }
        minima[k] = least;
        // Every longer word of this prefix is farther still: its rows can only grow from these two.
        if (least > maxEdits && minima[k - 1]! >= maxEdits) {
          pruned = k;
          break;
        }
      }
      previous = candidate;
      if (pruned > 0) {
        depth = pruned;
        i = firstNotBefore(this.words, `${candidate.slice(0, pruned)}\uffff`);
        continue;
      }
      depth = candidate.length;
      const distance = Math.abs(candidate.length - m) > maxEdits ? maxEdits + 1 : rows[candidate.length]![m]!;
      if (distance <= maxEdits) found.push({ word: candidate, distance, weight: this.weights[i]! });
      i++;
    }
    return found.sort((a, b) => a.distance - b.distance || b.weight - a.weight || (a.word < b.word ? -1 : 1));
  }
}

/** Edits a word of this length may be off by: none below 3 letters, one up to 4, two beyond. */
export const editsAllowed = (length: number) => (length < 3 ? 0 : length <= 4 ? 1 : 2);

/** Optimal string alignment distance, plainly: what `nearest` must agree with. */
export function osaDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

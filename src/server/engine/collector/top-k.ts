/**
 * Collectors of a ranking: the first `need` records by score, through a bounded heap
 * (BestOf) or, for deep pages, by bucketing every match by its score. Order: best first
 * (or worst first when not `descending`), ties by `ties[id]` (the repo_id rank) or by id
 * ascending — FTS5's `ORDER BY bm25(…), tie-break`.
 */

/** Records and their bm25 scores, ascending by id. */
export interface Matches {
  readonly ids: Int32Array;
  readonly scores: Float64Array;
}

/**
 * The first `need` matches in relevance order: best first (or worst first when
 * `descending` is false), ties by `ties[id]` (or by id) ascending — FTS5's
 * `ORDER BY bm25(…), tie-break`.
 */
export function topOrder(matches: Matches, descending: boolean, need: number, ties?: Int32Array): Int32Array {
  return need > deepOrder ? orderByScore(matches, descending, need, ties) : heapOrder(matches, descending, need, ties);
}

/** Beyond this many rows, sorting every match beats keeping a heap of the best. */
export const deepOrder = 2000;

/**
 * A bounded heap keeps the best `need` seen so far: for a first page of a million
 * matches, about one comparison per match.
 */
function heapOrder(matches: Matches, descending: boolean, need: number, ties?: Int32Array): Int32Array {
  const { ids, scores } = matches;
  const best = new BestOf(Math.min(need, ids.length), ties);
  const sign = descending ? 1 : -1;
  for (let i = 0; i < ids.length; i++) best.offer(ids[i]!, sign * scores[i]!);
  return best.order();
}

/** The `size` best (id, score) pairs offered: higher scores first, ties by `ties[id]` (or the id) ascending. */
export class BestOf {
  private readonly ids: Int32Array;
  private readonly scores: Float64Array;
  private length = 0;

  constructor(
    private readonly size: number,
    private readonly ties: Int32Array | undefined,
  ) {
    this.ids = new Int32Array(size);
    this.scores = new Float64Array(size);
  }

  /** The lowest score a record needs to enter, once full (before, every record enters). */
  get threshold(): number {
    if (this.length < this.size) return -Infinity;
    return this.size === 0 ? Infinity : this.scores[0]!;
  }

  /** The heap's root is the last of the best so far. */
  offer(id: number, score: number): void {
    const { ids, scores } = this;
    if (this.length < this.size) {
      let at = this.length++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (!this.after(score, id, scores[parent]!, ids[parent]!)) break;
        ids[at] = ids[parent]!;
        scores[at] = scores[parent]!;
        at = parent;
      }
      ids[at] = id;
      scores[at] = score;
    } else if (this.size > 0 && score >= scores[0]! && this.after(scores[0]!, ids[0]!, score, id)) {
      ids[0] = id;
      scores[0] = score;
      this.siftDown();
    }
  }

  /** The pairs offered, best first; empties the heap. */
  order(): Int32Array {
    const { ids, scores } = this;
    const order = new Int32Array(this.length);
    while (this.length > 0) {
      order[this.length - 1] = ids[0]!;
      const last = --this.length;
      ids[0] = ids[last]!;
      scores[0] = scores[last]!;
      this.siftDown();
    }
    return order;
  }

  /** (score, id) comes after (otherScore, otherId) in the order. */
  private after(score: number, id: number, otherScore: number, otherId: number): boolean {
    if (score !== otherScore) return score < otherScore;
    const { ties } = this;
    return ties ? ties[id]! > ties[otherId]! : id > otherId;
  }

  private siftDown(): void {
    const { ids, scores, length } = this;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= length) return;
      const right = left + 1;
      const child = right < length && this.after(scores[right]!, ids[right]!, scores[left]!, ids[left]!) ? right : left;
      if (!this.after(scores[child]!, ids[child]!, scores[at]!, ids[at]!)) return;
      const childId = ids[child]!;
      const childScore = scores[child]!;
      ids[child] = ids[at]!;
      scores[child] = scores[at]!;
      ids[at] = childId;
      scores[at] = childScore;
      at = child;
    }
  }
}

/**
 * The rank of each score among the distinct scores, ascending. Matches share few scores
 * (a word in 30% of a million records: 457), so the distinct ones are found with a small
 * hash table on the scores' bits — a tenth of the time of sorting all of them.
 */
function scoreRanks(scores: Float64Array): { ranks: Int32Array; kinds: number } {
  const count = scores.length;
  const bits = new Uint32Array(scores.buffer, scores.byteOffset, count * 2);
  let mask = 1023;
  let slots = new Int32Array(mask + 1).fill(-1);
  let kinds = 0;
  // Slot of a score's bits: a match, or an empty slot where it belongs.
  const find = (table: Int32Array, at: number) => {
    const low = bits[2 * at]!;
    const high = bits[2 * at + 1]!;
    let slot = (Math.imul(high, 0x9e3779b1) ^ Math.imul(low, 0x85ebca6b)) & mask;
    for (;;) {
      const other = table[slot]!;
      if (other < 0 || (bits[2 * other] === low && bits[2 * other + 1] === high)) return slot;
      slot = (slot + 1) & mask;
    }
  };
  for (let i = 0; i < count; i++) {
    const slot = find(slots, i);
    if (slots[slot]! >= 0) continue;
    slots[slot] = i;
    if (++kinds * 2 > mask) {
      const old = slots;
      mask = mask * 2 + 1;
      slots = new Int32Array(mask + 1).fill(-1);
      for (const first of old) if (first >= 0) slots[find(slots, first)] = first;
    }
  }
  // Each distinct score's rank, kept where its first match sits in the table.
  const firsts = Int32Array.from(slots.filter((first) => first >= 0)).sort((a, b) => scores[a]! - scores[b]!);
  const rankAt = new Int32Array(mask + 1);
  firsts.forEach((first, rank) => (rankAt[find(slots, first)] = rank));
  const ranks = new Int32Array(count);
  for (let i = 0; i < count; i++) ranks[i] = rankAt[find(slots, i)]!;
  return { ranks, kinds };
}

/**
 * Every match in order, for deep pages: each match goes to its score's bucket in id
 * order, and only ties broken by another key than the id are sorted within their bucket.
 * Page 5,000 of a word in 30% of a million records took 80–120 ms through the heap.
 */
function orderByScore(matches: Matches, descending: boolean, need: number, ties?: Int32Array): Int32Array {
  const { ids, scores } = matches;
  const count = ids.length;
  const { ranks, kinds } = scoreRanks(scores);
  const bucket = descending ? ranks.map((rank) => kinds - 1 - rank) : ranks;
  const starts = new Int32Array(kinds + 1);
  for (let i = 0; i < count; i++) starts[bucket[i]! + 1]!++;
  for (let b = 0; b < kinds; b++) starts[b + 1]! += starts[b]!;
  const next = starts.slice();
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[next[bucket[i]!]!++] = ids[i]!;
  if (ties) {
    for (let b = 0; b < kinds && starts[b]! < need; b++) {
      if (starts[b + 1]! - starts[b]! > 1) order.subarray(starts[b], starts[b + 1]).sort((x, y) => ties[x]! - ties[y]!);
    }
  }
  return order.slice(0, Math.min(need, count));
}

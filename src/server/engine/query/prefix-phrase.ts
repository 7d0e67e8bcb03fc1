import { searchColumns, type SearchColumn } from '../../../deployments/schema';
import { decodeIds, type TokenPostings } from '../postings/block-postings';
import { tokenBlobs, type PostingsReader, type TokenBlobs } from '../postings/index-reader';
import { noInstances, PositionsWalk, weights, type Instances } from '../postings/positions';
import { scratchArray } from '../scratch-arrays';
import { doubled } from '../typed-arrays';

/**
 * A phrase whose last word is a prefix (`"molten sa"*`, or `molten-sa*`): FTS5 matches the
 * phrase with each token the prefix expands to, and counts them all. A phrase walk per
 * expansion read the fixed words' positions again for every one of them (a hundred
 * expansions is common); here the places where the fixed words end are read once, and each
 * expansion's postings and positions are walked once, in order, against them.
 */

/** Where a phrase ends in each record that holds it: per record, the (column, offset) of its last word. */
interface PhraseEnds {
  readonly ids: Int32Array;
  /** Record i's ends are `columns`/`offsets` from starts[i] to starts[i + 1]. */
  readonly starts: Uint32Array;
  readonly columns: Int32Array;
  readonly offsets: Int32Array;
}

/**
 * Visits each record of a token (of those with a slot, when `slots` is given) with its
 * instances: postings and positions walked side by side, once.
 */
function eachRecordOf(
  { postings, positions }: TokenBlobs,
  slots: Int32Array | undefined,
  visit: (id: number, slot: number, instances: Instances) => void,
): void {
  const instances = noInstances();
  const ids = decodeIds(postings);
  const walk = new PositionsWalk(positions);
  for (let d = 0; d < ids.length; d++) {
    const id = ids[d]!;
    const slot = slots ? slots[id]! : 0;
    if (slots && slot === 0) walk.skip();
    else {
      walk.read(instances);
      visit(id, slot, instances);
    }
  }
}

/** Flat lists of phrase ends, filled one record at a time in id order. */
class EndsBuilder {
  private readonly ids: Int32Array;
  private readonly starts: Uint32Array;
  private columns: Int32Array;
  private offsets: Int32Array;
  private records = 0;
  private ends = 0;

  constructor(maxRecords: number, expectedEnds: number) {
    this.ids = new Int32Array(maxRecords);
    this.starts = new Uint32Array(maxRecords + 1);
    this.columns = new Int32Array(Math.max(16, expectedEnds));
    this.offsets = new Int32Array(this.columns.length);
  }

  add(column: number, offset: number): void {
    if (this.ends === this.columns.length) {
      this.columns = doubled(this.columns);
      this.offsets = doubled(this.offsets);
    }
    this.columns[this.ends] = column;
    this.offsets[this.ends++] = offset;
  }

  /** Closes record `id`'s ends (a record with none is left out). */
  close(id: number): void {
    if (this.ends === this.starts[this.records]) return;
    this.ids[this.records++] = id;
    this.starts[this.records] = this.ends;
  }

  build(): PhraseEnds {
    return {
      ids: this.ids.subarray(0, this.records),
      starts: this.starts.subarray(0, this.records + 1),
      columns: this.columns.subarray(0, this.ends),
      offsets: this.offsets.subarray(0, this.ends),
    };
  }
}

/**
 * Runs `use` with the slot of each record of `ends` (its index + 1; 0 for a record not
 * there), an O(1) lookup by id, and clears them after, however `use` ends: the array is
 * the reader's, all zeros between searches.
 */
function withSlots<T>(reader: PostingsReader, ends: PhraseEnds, use: (slots: Int32Array) => T): T {
  const slots = scratchArray(reader, 'phrase slots', reader.lengths.length, (length) => new Int32Array(length));
  for (let i = 0; i < ends.ids.length; i++) slots[ends.ids[i]!] = i + 1;
  try {
    return use(slots);
  } finally {
    for (let i = 0; i < ends.ids.length; i++) slots[ends.ids[i]!] = 0;
  }
}

/**
 * Calls `found` for each end of `ends` in record `slot - 1` that `instances` continue (the
 * token stands right after it in the same column). Both are in (column, offset) order.
 */
function eachContinued(ends: PhraseEnds, slot: number, instances: Instances, found: (column: number, offset: number) => void): void {
  let c = 0;
  for (let e = ends.starts[slot - 1]!, last = ends.starts[slot]!; e < last; e++) {
    const column = ends.columns[e]!;
    const offset = ends.offsets[e]! + 1;
    while (c < instances.length && (instances.columns[c]! < column || (instances.columns[c] === column && instances.offsets[c]! < offset)))
      c++;
    if (c < instances.length && instances.columns[c] === column && instances.offsets[c] === offset) found(column, offset);
  }
}

/** Where the phrase `tokens` ends in each record, its first word in one of the `allowed` columns. */
function phraseEnds(reader: PostingsReader, tokens: readonly string[], allowed: readonly boolean[]): PhraseEnds {
  const first = tokenBlobs(reader, tokens[0]!);
  if (!first) return new EndsBuilder(0, 0).build();
  let builder = new EndsBuilder(first.postings.docs, first.postings.docs * 2);
  eachRecordOf(first, undefined, (id, _, instances) => {
    for (let i = 0; i < instances.length; i++)
      if (allowed[instances.columns[i]!]) builder.add(instances.columns[i]!, instances.offsets[i]!);
    builder.close(id);
  });
  let ends = builder.build();
  for (const token of tokens.slice(1)) {
    const blobs = tokenBlobs(reader, token);
    if (!blobs) return new EndsBuilder(0, 0).build();
    const previous = ends;
    builder = new EndsBuilder(previous.ids.length, previous.columns.length);
    withSlots(reader, previous, (slots) =>
      eachRecordOf(blobs, slots, (id, slot, instances) => {
        eachContinued(previous, slot, instances, (column, offset) => builder.add(column, offset));
        builder.close(id);
      }),
    );
    ends = builder.build();
  }
  return ends;
}

/**
 * Adds to `countsBySlot`, for each record of `ends` that holds the token, the weighted
 * number of its ends the token stands right after. This runs over every record of every
 * expansion, so postings and positions are walked once, in place: each instance is
 * compared with the record's ends as it is decoded (both ascend by column, then offset),
 * and the rest are skipped once the ends are passed.
 */
function addContinuations(
  { postings, positions: stored }: TokenBlobs,
  slots: Int32Array,
  ends: PhraseEnds,
  countsBySlot: Uint32Array,
): void {
  const ids = decodeIds(postings);
  const read = new PositionsWalk(stored);
  for (let d = 0; d < ids.length; d++) {
    const slot = slots[ids[d]!]!;
    if (slot === 0) {
      read.skip();
      continue;
    }
    const instances = read.document();
    let e = ends.starts[slot - 1]!;
    const last = ends.starts[slot]!;
    let count = 0;
    for (let k = 0; k < instances && e < last; k++) {
      read.instance();
      const { column, offset } = read;
      while (e < last && (ends.columns[e]! < column || (ends.columns[e] === column && ends.offsets[e]! + 1 < offset))) e++;
      if (e < last && ends.columns[e] === column && ends.offsets[e]! + 1 === offset) count += weights[column] ?? 1;
    }
    countsBySlot[slot]! += count;
  }
}

/**
 * The records where `fixed` is followed by a token starting with `prefix`, in one of
 * `columns`, with the column-weighted count of such places in each (over every expansion).
 */
export function prefixPhraseMatches(
  reader: PostingsReader,
  fixed: readonly string[],
  prefix: string,
  columns: readonly SearchColumn[],
): TokenPostings {
  const allowed = searchColumns.map((column) => columns.includes(column));
  const ends = phraseEnds(reader, fixed, allowed);
  // Every match is a record of `ends`: counted by its slot there.
  const countsBySlot = new Uint32Array(ends.ids.length + 1);
  withSlots(reader, ends, (slots) => {
    for (const token of reader.expand(prefix)) {
      const blobs = tokenBlobs(reader, token);
      if (blobs) addContinuations(blobs, slots, ends, countsBySlot);
    }
  });
  let hits = 0;
  for (let slot = 1; slot < countsBySlot.length; slot++) if (countsBySlot[slot] !== 0) hits++;
  const ids = new Int32Array(hits);
  const counts = new Uint32Array(hits);
  for (let slot = 1, n = 0; n < hits; slot++) {
    if (countsBySlot[slot] === 0) continue;
    ids[n] = ends.ids[slot - 1]!;
    counts[n++] = countsBySlot[slot]!;
  }
  return { ids, counts };
}

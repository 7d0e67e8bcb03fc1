import type { PostingsReader } from './postings-reader';

/**
 * Arrays indexed by record id that a search borrows and hands back zeroed, one of each
 * kind per reader. A fresh one per search (4–8 MB at a million records) made V8 collect
 * garbage after nearly every search, for a few milliseconds each time. Searches run one
 * at a time in a thread, so one of each kind is enough.
 */
interface Scratch {
  scores?: Float64Array;
  slots?: Int32Array;
}

const scratchByReader = new WeakMap<PostingsReader, Scratch>();

function scratchOf(reader: PostingsReader): Scratch {
  let scratch = scratchByReader.get(reader);
  if (!scratch) scratchByReader.set(reader, (scratch = {}));
  return scratch;
}

/** Scores by record id, all zero; the borrower zeroes what it wrote before it returns. */
export function scoresScratch(reader: PostingsReader): Float64Array {
  const scratch = scratchOf(reader);
  return (scratch.scores ??= new Float64Array(reader.lengths.length));
}

/** Slots by record id, all zero; the borrower zeroes what it wrote before it returns. */
export function slotsScratch(reader: PostingsReader): Int32Array {
  const scratch = scratchOf(reader);
  return (scratch.slots ??= new Int32Array(reader.lengths.length));
}

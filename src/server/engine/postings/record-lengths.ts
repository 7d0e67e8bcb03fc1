/**
 * Each record's length in tokens, by id: bm25's D. A search reads them out of order, one per
 * record it scores, far apart, so the array's bytes decide how often that read misses the
 * cache: a store whose longest record fits in 16 bits (every generated and most real
 * catalogues; a full text can be longer) holds them in half the bytes.
 */
export type RecordLengths = Uint16Array | Uint32Array;

/** The lengths as a reader holds them: in 16 bits where every one fits, else as stored. */
export function recordLengths(stored: Uint32Array): RecordLengths {
  let longest = 0;
  for (let id = 0; id < stored.length; id++) if (stored[id]! > longest) longest = stored[id]!;
  if (longest > 0xffff) return stored;
  const lengths = new Uint16Array(stored.length);
  lengths.set(stored);
  return lengths;
}

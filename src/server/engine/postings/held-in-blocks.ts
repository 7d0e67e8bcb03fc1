import type { Postings } from './block-postings';
import { seek } from './seek';

/**
 * Whether `records` to test against the list are few enough to read the blocks that may hold
 * them (keepHeldInBlocks) rather than a set of its every record: fewer than half its blocks.
 */
export const fewAgainst = (records: number, postings: Postings): boolean => records * 2 < postings.blocks;

/**
 * Keeps, in place, those of `ids[0..n)` (ascending) that the list holds; returns how many.
 * Only the blocks that may hold one are decoded: for a few records against a long list, far
 * less than the list's set of records, whose every block a first use decodes.
 */
export function keepHeldInBlocks(postings: Postings, ids: Int32Array, n: number): number {
  const { blocks, lastIds } = postings;
  let kept = 0;
  let b = 0;
  let block: Int32Array | undefined;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    if (b < blocks && lastIds[b]! < id) {
      while (b < blocks && lastIds[b]! < id) b++;
      block = undefined;
    }
    if (b === blocks) break;
    if (!block) {
      block = postings.ids(b);
      at = 0;
    }
    // Ascending ids meet a block's ids in order: a search on from where the last one stopped.
    at = seek(block, at, id);
    if (block[at] === id) ids[kept++] = id;
  }
  return kept;
}

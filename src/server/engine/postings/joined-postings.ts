import type { IdSet } from '../id-set';
import { joinFrontiers, type BlockFrontiers } from './block-frontier';
import type { Postings } from './block-postings';

/**
 * A list stored in two parts, every id of the second after every id of the first: a
 * token's list as a full build wrote it and the tail that writes of new records appended
 * since (store/sqlite/indexer/postings-tails.ts). The parts' blocks are read one after the other, so the
 * first part's last block may hold fewer than `blockSize` documents; block-max top k
 * reads blocks by their last ids and is indifferent to their sizes.
 */
export class JoinedPostings implements Postings {
  readonly docs: number;
  readonly blocks: number;
  readonly lastIds: Int32Array;
  readonly frontiers: BlockFrontiers;

  constructor(
    private readonly first: Postings,
    private readonly second: Postings,
    readonly records?: () => IdSet,
  ) {
    this.docs = first.docs + second.docs;
    this.blocks = first.blocks + second.blocks;
    this.lastIds = new Int32Array(this.blocks);
    this.lastIds.set(first.lastIds);
    this.lastIds.set(second.lastIds, first.blocks);
    this.frontiers = joinFrontiers(first.frontiers, second.frontiers);
  }

  ids(b: number): Int32Array {
    return b < this.first.blocks ? this.first.ids(b) : this.second.ids(b - this.first.blocks);
  }

  size(b: number): number {
    return b < this.first.blocks ? this.first.size(b) : this.second.size(b - this.first.blocks);
  }

  counts(b: number): Uint32Array {
    return b < this.first.blocks ? this.first.counts(b) : this.second.counts(b - this.first.blocks);
  }

  countAt(b: number, i: number): number {
    const [part, at] = b < this.first.blocks ? [this.first, b] : [this.second, b - this.first.blocks];
    return part.countAt ? part.countAt(at, i) : part.counts(at)[i]!;
  }
}

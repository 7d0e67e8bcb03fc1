import { StoredPostings, type TokenPostings } from '../../../engine/postings/block-postings';
import { eachPairIn, pairScope, type WordInstances } from '../../../engine/postings/pairs';
import { noInstances, PositionsWalk, StoredPositions } from '../../../engine/postings/positions';
import { seek } from '../../../engine/postings/seek';
import { VarintCursor, VarintWriter } from '../../../engine/postings/varint';

/**
 * Pair lists built a range of records at a time (pair-postings.ts's buildPairs): each range
 * gives a piece of each pair's lists, written here and joined once every range is built, and
 * the ranges can be shared between the writer's thread and another (gather-thread.ts).
 */

/** Where a token's instances were left: its list's block and entry there, and the document's place in the list. */
interface Walk {
  readonly block: number;
  readonly entry: number;
  readonly doc: number;
}

/** Where a token's instances in records from `low` on begin. */
function walkFrom(list: StoredPostings, low: number): Walk {
  let doc = 0;
  let block = 0;
  while (block < list.blocks && list.lastIds[block]! < low) doc += list.size(block++);
  if (block === list.blocks) return { block, entry: 0, doc };
  const entry = seek(list.ids(block), 0, low);
  return { block, entry, doc: doc + entry };
}

/** A token's instances in the records from `low` to below `high`. */
export function storedRange(list: StoredPostings, positions: StoredPositions, low: number, high: number): WordInstances {
  const from = walkFrom(list, low);
  return {
    each(visit) {
      const instances = noInstances();
      const walk = new PositionsWalk({ parts: [positions], starts: [0] });
      walk.skipTo(from.doc);
      let { block, entry } = from;
      for (; block < list.blocks; block++, entry = 0) {
        const ids = list.ids(block);
        for (; entry < ids.length; entry++) {
          if (ids[entry]! >= high) return;
          walk.read(instances);
          visit(ids[entry]!, instances);
        }
      }
    },
  };
}

/**
 * The pair lists' work of a full build of more records than one range holds: the common
 * tokens' whole-record lists and positions in one buffer that the writer's thread and a helper
 * (gather-thread.ts) both read, and ranges of records, every `stride`th from its first one to
 * each thread, each giving a piece of each pair's lists.
 */
export interface PairJob {
  readonly lists: SharedArrayBuffer;
  /** By common token: where its list starts in `lists`, where its positions start and where they end. */
  readonly bounds: Int32Array;
  /** One more than the largest record id. */
  readonly records: number;
  readonly rangeRecords: number;
  /** The number of threads sharing the ranges. */
  readonly stride: number;
}

/** Pieces of one range (`part`): per piece, its tokens' places among the job's, its scope and where its bytes end in `bytes`. */
export interface PieceBatch {
  readonly part: number;
  readonly pieces: Int32Array;
  readonly bytes: Uint8Array;
}

/** Another thread building the pieces of a job's ranges beside the writer's (gather-thread.ts). */
export interface PairHelper {
  /** Starts building the job's ranges from the second on, every `stride`th. */
  start(job: PairJob): void;
  /** Hands each batch built since the last call to `take`, waiting for the last one when `wait`; true once it has built its last. */
  drain(take: (batch: PieceBatch) => void, wait: boolean): boolean;
}

/** The job of building `records` records' pair lists in ranges of `rangeRecords` from the common tokens' `lists`, on `stride` threads. */
export function pairJob(
  lists: readonly { list: Uint8Array; positions: Uint8Array }[],
  records: number,
  rangeRecords: number,
  stride: number,
): PairJob {
  const bounds = new Int32Array(3 * lists.length);
  let size = 0;
  lists.forEach(({ list, positions }, w) => {
    bounds[3 * w] = size;
    bounds[3 * w + 1] = size += list.length;
    bounds[3 * w + 2] = size += positions.length;
  });
  const buffer = new SharedArrayBuffer(size);
  const bytes = new Uint8Array(buffer);
  lists.forEach(({ list, positions }, w) => {
    bytes.set(list, bounds[3 * w]);
    bytes.set(positions, bounds[3 * w + 1]);
  });
  return { lists: buffer, bounds, records, rangeRecords, stride };
}

/** Builds every `stride`th of `job`'s ranges from the `firstPart`th, handing each one's pieces to `take`, then calling `between`. */
export function buildRanges(job: PairJob, firstPart: number, take: (batch: PieceBatch) => void, between: () => void = () => {}): void {
  const { lists, bounds, records, rangeRecords, stride } = job;
  const words = Array.from({ length: bounds.length / 3 }, (_, w) => ({
    list: new StoredPostings(new Uint8Array(lists, bounds[3 * w], bounds[3 * w + 1]! - bounds[3 * w]!)),
    positions: new StoredPositions(new Uint8Array(lists, bounds[3 * w + 1], bounds[3 * w + 2]! - bounds[3 * w + 1]!)),
  }));
  const parts = Math.ceil(records / rangeRecords);
  for (let part = firstPart; part < parts; part += stride) {
    const low = part * rangeRecords;
    const high = Math.min(records, low + rangeRecords);
    const ranges = words.map(({ list, positions }) => storedRange(list, positions, low, high));
    const pieces: number[] = [];
    const bytes = new VarintWriter();
    eachPairIn(ranges, low, high, (first, second, lists) => {
      for (const [column, list] of lists) {
        writePiece(bytes, list);
        pieces.push(first, second, pairScope(column), bytes.length);
      }
    });
    take({ part, pieces: Int32Array.from(pieces), bytes: new Uint8Array(bytes.toBuffer()) });
    between();
  }
}

/**
 * A range's piece of a pair list, as it waits for the others: its length, then its id gaps
 * and counts as LEB128. The list is encoded once, whole, when its pieces are joined.
 */
function writePiece(into: VarintWriter, { ids, counts }: TokenPostings): void {
  into.write(ids.length);
  for (let i = 0; i < ids.length; i++) into.write(ids[i]! - (i === 0 ? 0 : ids[i - 1]!));
  for (let i = 0; i < ids.length; i++) into.write(counts[i]!);
}

/** A list from its successive ranges' pieces. */
export function joinedPieces(pieces: readonly Buffer[]): TokenPostings {
  const cursors = pieces.map((data) => new VarintCursor(data));
  const sizes = cursors.map((cursor) => cursor.read());
  const ids = new Int32Array(sizes.reduce((sum, size) => sum + size, 0));
  const counts = new Uint32Array(ids.length);
  let n = 0;
  cursors.forEach((cursor, p) => {
    const start = n;
    for (let i = 0, id = 0; i < sizes[p]!; i++) ids[n++] = id += cursor.read();
    for (let i = start; i < n; i++) counts[i] = cursor.read();
  });
  return { ids, counts };
}

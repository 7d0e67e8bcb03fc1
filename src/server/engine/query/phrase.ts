import { searchColumns, type SearchColumn } from '../../../deployments/schema';
import { decodeIds, noPostings, type TokenPostings } from '../postings/block-postings';
import { tokenBlobs, type PostingsReader } from '../postings/index-reader';
import { noInstances, PositionsWalk, weights, type Instances } from '../postings/positions';

/**
 * One token of a phrase: its documents, and its positions walked forward with them, so a
 * document's are decoded only when every token is there, and the others' only skipped.
 */
interface TokenPositions {
  readonly ids: Int32Array;
  readonly positions: PositionsWalk;
}

/** A token's documents and positions, ready to be walked. */
function tokenPositions(reader: PostingsReader, token: string): TokenPositions | undefined {
  const blobs = tokenBlobs(reader, token);
  if (!blobs) return undefined;
  return { ids: decodeIds(blobs.postings), positions: new PositionsWalk(blobs.positions) };
}

/** Reads the instances of the token's document `doc` (at or after the one its walk stands at) into `into`. */
function instancesAt({ positions }: TokenPositions, doc: number, into: Instances): void {
  positions.skipTo(doc);
  positions.read(into);
}

/** The first index at or after `from` whose id is at least `id` (ids ascend). */
function seek(ids: Int32Array, from: number, id: number): number {
  if (from >= ids.length || ids[from]! >= id) return from;
  // Galloping: lists walked together mostly advance by a few entries at a time.
  let step = 1;
  while (from + step < ids.length && ids[from + step]! < id) step *= 2;
  let low = from + (step >> 1) + 1;
  let high = Math.min(from + step + 1, ids.length);
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The records where `tokens` stand next to each other in this order, in one of `columns`,
 * with the phrase's column-weighted count in each — what FTS5 computes for a quoted
 * phrase. The rarest token's documents drive, or, where two adjacent tokens are common,
 * their pair list (postings/pairs.ts) if it is shorter: only the records that hold the
 * pair are candidates. The tokens are found by galloping search and positions decoded
 * only for candidates that hold every token.
 */
export function phraseMatches(reader: PostingsReader, tokens: readonly string[], columns: readonly SearchColumn[]): TokenPostings {
  const allowed = searchColumns.map((column) => columns.includes(column));
  const walks: TokenPositions[] = [];
  for (const token of tokens) {
    const walk = tokenPositions(reader, token);
    if (!walk) return noPostings;
    walks.push(walk);
  }
  const k = walks.length;
  let candidates = walks.reduce((best, walk) => (walk.ids.length < best.length ? walk.ids : best), walks[0]!.ids);
  for (let j = 0; j + 1 < k; j++) {
    if (!reader.hasPair(tokens[j]!, tokens[j + 1]!)) continue;
    const pair = reader.readPair(tokens[j]!, tokens[j + 1]!);
    if (!pair) return noPostings;
    if (pair.docs < candidates.length) candidates = decodeIds(pair);
  }
  const found = walks.map(noInstances);
  const ids: number[] = [];
  const counts: number[] = [];
  const cursors = new Int32Array(k);
  const at = new Int32Array(k);
  documents: for (let d = 0; d < candidates.length; d++) {
    const id = candidates[d]!;
    for (let j = 0; j < k; j++) {
      const walk = walks[j]!;
      at[j] = seek(walk.ids, at[j]!, id);
      if (walk.ids[at[j]!] !== id) continue documents;
    }
    for (let j = 0; j < k; j++) instancesAt(walks[j]!, at[j]!, found[j]!);
    // Each instance of the first token in an allowed column starts a match when token j
    // stands j places after it in the same column.
    cursors.fill(0);
    let count = 0;
    const first = found[0]!;
    for (let i = 0; i < first.length; i++) {
      const column = first.columns[i]!;
      if (!allowed[column]) continue;
      const offset = first.offsets[i]!;
      let all = true;
      for (let j = 1; j < k && all; j++) {
        const other = found[j]!;
        let c = cursors[j]!;
        while (c < other.length && (other.columns[c]! < column || (other.columns[c] === column && other.offsets[c]! < offset + j))) c++;
        cursors[j] = c;
        all = c < other.length && other.columns[c] === column && other.offsets[c] === offset + j;
      }
      if (all) count += weights[column] ?? 1;
    }
    if (count > 0) {
      ids.push(id);
      counts.push(count);
    }
  }
  return { ids: Int32Array.from(ids), counts: Uint32Array.from(counts) };
}

import { searchColumns, type SearchColumn } from '../../../deployments/schema';
import { decodeIds, noPostings, type Postings, type TokenPostings } from '../postings/block-postings';
import type { PostingsReader } from '../postings/index-reader';
import { isDense } from '../postings/dense-sets';
import { fewAgainst, keepHeldInBlocks } from '../postings/held-in-blocks';
import { seek } from '../postings/seek';
import { noInstances, PositionsWalk, weights, type Instances } from '../postings/positions';
import { phraseBlobs, type PhraseBlobs } from './kept-blobs';

/**
 * One token of a phrase: its documents, and its positions walked forward with them, so a
 * document's are decoded only when every token is there, and the others' only skipped.
 * Read within a few records, `ids` are those of them the token is in, and `places` their
 * places in the token's whole list (where their positions stand).
 */
interface TokenPositions {
  readonly ids: Int32Array;
  readonly places?: Int32Array;
  readonly positions: PositionsWalk;
}

/** Which of `within` (ascending) a list holds, and where: only the blocks that may hold one are decoded. */
function placesWithin(postings: Postings, within: Int32Array): { ids: Int32Array; places: Int32Array } {
  const ids = new Int32Array(within.length);
  const places = new Int32Array(within.length);
  let n = 0;
  let b = 0;
  let start = 0;
  let block: Int32Array | undefined;
  let at = 0;
  for (const id of within) {
    while (b < postings.blocks && postings.lastIds[b]! < id) {
      start += postings.size(b++);
      block = undefined;
    }
    if (b === postings.blocks) break;
    if (!block) {
      block = postings.ids(b);
      at = 0;
    }
    // Ascending ids meet the block's in order: a search on from where the last one stopped.
    at = seek(block, at, id);
    if (block[at] !== id) continue;
    ids[n] = id;
    places[n++] = start + at;
  }
  return { ids: ids.subarray(0, n), places: places.subarray(0, n) };
}

/** Which of `within` (ascending) a token's list holds, and where: from its kept places (list-places.ts) where it has them. */
function placesIn({ postings, places: kept }: PhraseBlobs, within: Int32Array): { ids: Int32Array; places: Int32Array } {
  const index = kept?.(within.length);
  if (!index) return placesWithin(postings, within);
  const ids = new Int32Array(within.length);
  const places = new Int32Array(within.length);
  let n = 0;
  for (const id of within) {
    const place = index.placeOf(id);
    if (place < 0) continue;
    ids[n] = id;
    places[n++] = place;
  }
  return { ids: ids.subarray(0, n), places: places.subarray(0, n) };
}

/** Which of `within` (ascending) a list holds: by its records' bitset where its reader keeps one (a dense list's), else from its blocks. */
function heldWithin(postings: Postings, within: Int32Array, rows: number): Int32Array {
  if (!postings.records || !isDense(postings.docs, rows) || fewAgainst(within.length, postings)) {
    const ids = within.slice();
    return ids.subarray(0, keepHeldInBlocks(postings, ids, ids.length));
  }
  const records = postings.records();
  const ids = new Int32Array(within.length);
  let n = 0;
  for (const id of within) if (records.has(id)) ids[n++] = id;
  return ids.subarray(0, n);
}

/** Where a token's whole-record list holds some records, found while narrowing: `places` absent where they are the list's first. */
interface Placed {
  readonly ids: Int32Array;
  readonly places?: Int32Array;
}

/** The places of `within` (ascending, each one of `placed`'s ids) in the token's list, found without decoding it again. */
function placedWithin({ ids, places }: Placed, within: Int32Array): { ids: Int32Array; places: Int32Array } {
  const kept = new Int32Array(within.length);
  for (let w = 0, at = 0; w < within.length; w++) {
    at = seek(ids, at, within[w]!);
    kept[w] = places ? places[at]! : at;
  }
  return { ids: within, places: kept };
}

/**
 * A token's documents among `within` and its positions, ready to be walked: from where
 * narrowing found them when it read the token's whole-record list, else from that list's
 * blocks that may hold one of them.
 */
function tokenPositions(blobs: PhraseBlobs, within: Int32Array, placed: Placed | undefined): TokenPositions {
  return {
    ...(placed ? placedWithin(placed, within) : placesIn(blobs, within)),
    positions: new PositionsWalk(blobs.positions),
  };
}

/**
 * The records that may hold the phrase, ascending: those in every list a match must be in —
 * each token's list in the phrase's column when it has one (an author's initials are in
 * most records, in their authors far fewer), else over whole records, and the pair list of
 * each two adjacent common tokens there (over whole records where the column keeps none). The shortest is decoded, the others only in the
 * blocks that may hold one of its records; undefined when a list is empty. Where a token's
 * whole-record list was read, where it holds the records is kept (`placed`, by token), so
 * its positions are walked without decoding its blocks a second time.
 */
function narrowCandidates(
  reader: PostingsReader,
  tokens: readonly string[],
  columns: readonly SearchColumn[],
  blobs: readonly PhraseBlobs[],
): { candidates: Int32Array; placed: (Placed | undefined)[] } | undefined {
  const column = columns.length === 1 ? columns[0] : undefined;
  const lists: { postings: Postings; token?: number }[] = [];
  // A token in a pair needs no list of its own: the pair's records all hold it. Where the pair has no list in
  // the phrase's column, its whole-record list still narrows, and the tokens' lists in the column too.
  const paired = new Uint8Array(tokens.length);
  for (let j = 1; j < tokens.length; j++) {
    if (!reader.hasPair(tokens[j - 1]!, tokens[j]!)) continue;
    const inColumn = reader.hasPair(tokens[j - 1]!, tokens[j]!, column);
    const pair = reader.readPair(tokens[j - 1]!, tokens[j]!, inColumn ? column : undefined);
    if (!pair) return undefined;
    lists.push({ postings: pair });
    if (inColumn) paired[j - 1] = paired[j] = 1;
  }
  for (let j = 0; j < tokens.length; j++) {
    if (paired[j]) continue;
    if (column) {
      const list = reader.read(tokens[j]!, column);
      if (!list) return undefined;
      lists.push({ postings: list });
    } else lists.push({ postings: blobs[j]!.postings, token: j });
  }
  lists.sort((a, c) => a.postings.docs - c.postings.docs);
  const placed: (Placed | undefined)[] = [];
  const [shortest, ...rest] = lists;
  let candidates = decodeIds(shortest!.postings);
  if (shortest!.token !== undefined) placed[shortest!.token] = { ids: candidates };
  for (const { postings, token } of rest) {
    if (candidates.length === 0) break;
    if (token === undefined) {
      candidates = heldWithin(postings, candidates, reader.rows);
      continue;
    }
    const found = placesIn(blobs[token]!, candidates);
    candidates = found.ids;
    placed[token] = found;
  }
  return { candidates, placed };
}

/** Reads the instances of the token's `at`th document (at or after the one its walk stands at) into `into`. */
function instancesAt({ positions, places }: TokenPositions, at: number, into: Instances): void {
  positions.skipTo(places ? places[at]! : at);
  positions.read(into);
}

/**
 * The records where `tokens` stand next to each other in this order, in one of `columns`,
 * with the phrase's column-weighted count in each — what FTS5 computes for a quoted
 * phrase. The rarest token's documents drive, or, where two adjacent tokens are common,
 * their pair list (postings/pairs.ts) if it is shorter: only the records that hold the
 * pair are candidates. The tokens are found by galloping search and positions decoded
 * only for candidates that hold every token. Given `within` (ascending ids), only those
 * records are candidates: the phrase in the few records a filter allows is read in those.
 */
export function phraseMatches(
  reader: PostingsReader,
  tokens: readonly string[],
  columns: readonly SearchColumn[],
  within?: Int32Array,
): TokenPostings {
  const blobs: PhraseBlobs[] = [];
  for (const token of tokens) {
    const found = phraseBlobs(reader, token);
    if (!found) return noPostings;
    blobs.push(found);
  }
  const narrowed = within ? { candidates: within, placed: [] } : narrowCandidates(reader, tokens, columns, blobs);
  if (!narrowed || narrowed.candidates.length === 0) return noPostings;
  const { candidates, placed } = narrowed;
  const allowed = searchColumns.map((column) => columns.includes(column));
  const walks = blobs.map((each, j) => tokenPositions(each, candidates, placed[j]));
  const k = walks.length;
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

import { BudgetCache } from '../../caches/budget-cache';
import { tokenBlobs, type PostingsReader, type TokenBlobs } from '../postings/index-reader';
import { ListPlaces } from '../postings/list-places';

/**
 * The whole-record lists and positions of common tokens (those with pair lists: in a
 * thirty-second of the records or more), kept per reader for the phrases that read them,
 * the last used up to `keptBytes`. A phrase reads its tokens' positions whole, and an
 * author's initials, in most records, have some of the longest: reading and decoding
 * them again for each author search cost more than the rest of the search. A reader reads
 * one snapshot of its file, so what it keeps never goes stale (as dense-sets.ts's sets).
 * A list kept is walked by one phrase at a time (a search runs alone on its reader), and
 * each walk of positions starts its own cursor.
 */

/** Bytes kept per reader: the longest lists' positions at 1,000,000 records are a few MB each. */
export const keptBytes = 32 * 2 ** 20;

/**
 * A token's list and positions, and for a common token where its records stand in its list
 * (list-places.ts), once a phrase asks for the places of `records` records, enough to reach
 * most of its blocks: then built from every block once and kept with them. Fewer are found
 * from the blocks that hold them, as the list of an uncommon token always is.
 */
export interface PhraseBlobs extends TokenBlobs {
  readonly places?: (records: number) => ListPlaces | undefined;
}

/** Records a phrase asks the places of, per block of the list, from which the list's places are built. */
const placesFrom = 1 / 2;

/** What a token's list and positions take in memory. */
const bytesOf = (blobs: TokenBlobs) =>
  blobs.positions.parts.reduce((sum, part) => sum + part.data.length + 12 * part.blocks, 0) + 2 * blobs.postings.docs;

const byReader = new WeakMap<PostingsReader, BudgetCache<PhraseBlobs>>();

/** A token's whole-record list and positions: kept for the next phrase if the token is common, read afresh if not. */
export function phraseBlobs(reader: PostingsReader, token: string): PhraseBlobs | undefined {
  if (!reader.hasPair(token, token)) return tokenBlobs(reader, token);
  let kept = byReader.get(reader);
  if (!kept) byReader.set(reader, (kept = new BudgetCache(keptBytes)));
  const found = kept.get(token);
  if (found) return found;
  const blobs = tokenBlobs(reader, token);
  if (!blobs) return undefined;
  let places: ListPlaces | undefined;
  const keep = kept;
  const phrase: PhraseBlobs = {
    ...blobs,
    places: (records) => {
      if (!places && records >= placesFrom * blobs.postings.blocks) {
        places = new ListPlaces(blobs.postings);
        // Kept again at its new size, so the budget counts the places too.
        keep.set(token, phrase, bytesOf(blobs) + places.bytes);
      }
      return places;
    },
  };
  keep.set(token, phrase, bytesOf(blobs));
  return phrase;
}

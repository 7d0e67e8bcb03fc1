import { foldText, isCjk } from '../../formats/fold-text';
import { rewriteWords } from '../../formats/query-rewrite';
import { tokenizeQuery } from '../../formats/query-tokens';
import type { Suggestion } from '../../formats/suggest-response';
import { editsAllowed, type Suggester } from './suggester';

/**
 * "Did you mean": the search's words spelt as the mirror's records spell them
 * (docs/extensions.md, `{base}/suggest`). A word no record holds becomes the nearest word
 * that records do hold (fewest edits, then most records); a word that records hold is kept,
 * unless a word one edit from it is held by far more records (`farMore` times as many),
 * which is a slip that happens to be a word somewhere. The search itself stays exact.
 */

export interface Vocabulary {
  readonly suggester: Suggester;
  /** The records holding a word as the index reads it (its stem), 0 for none. */
  recordsWith(word: string): number;
  /** The form the index keeps of a word: two spellings of one form are no correction of each other. */
  indexFormOf(word: string): string;
}

/** How many times more records the nearer spelling of a word records do hold must have. */
export const farMore = 50;
/** Words longer than this are no typing slip to correct (and bound the work). */
const longestWord = 40;
const plainWord = /^\p{L}+$/u;

export function suggestQuery(q: string, vocabulary: Vocabulary): Suggestion | undefined {
  const corrections = new Map<string, string>();
  /** Words some record holds, corrected only because a nearer spelling is far commoner. */
  const rarer = new Set<string>();
  let unknown = false;
  for (const token of tokenizeQuery(q)) {
    if (token.kind !== 'word' || token.prefix || token.negated || corrections.has(token.text)) continue;
    const folded = foldText(token.text);
    if (folded.length > longestWord || !plainWord.test(folded) || isCjk(folded)) continue;
    const held = vocabulary.recordsWith(folded);
    const form = vocabulary.indexFormOf(folded);
    const near = vocabulary.suggester
      .nearest(folded, editsAllowed(folded.length))
      .filter((candidate) => vocabulary.indexFormOf(candidate.word) !== form);
    const best = held === 0 ? near[0] : near.find((candidate) => candidate.distance === 1 && candidate.weight >= farMore * held);
    if (!best) continue;
    if (held === 0) unknown = true;
    else rarer.add(token.text);
    corrections.set(token.text, best.word);
  }
  // A search that finds nothing because of a word no record holds is corrected in that word
  // only: its other words are in records, perhaps the very one sought ("ARM Snow deepth" is
  // "ARM Snow depth", not "ARM show depth", though "show" is in fifty times as many records).
  if (unknown) for (const word of rarer) corrections.delete(word);
  if (corrections.size === 0) return undefined;
  return {
    q: rewriteWords(q, (word) => corrections.get(word)),
    words: [...corrections].map(([word, suggestion]) => ({ word, suggestion })),
    reason: unknown ? 'unknown' : 'rarer',
  };
}

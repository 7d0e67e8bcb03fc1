import { stemmer } from 'stemmer';
import { characterPairs, cjkParts, foldText, isCjk, transliterate, transliterations } from './fold-text';
import { tokenizeQuery } from './query-tokens';

/**
 * What a search matched, as the index sees words: the server's full-text index tokenizes
 * with FTS5 `porter unicode61 remove_diacritics 2` — runs of letters and digits, case and
 * diacritics folded, then Porter-stemmed. The same folding here lets the app show why a
 * result matched (highlighting) for any server speaking the query language, without an
 * API change.
 */

/** One token of text: where it stands and the form the index keeps. */
export interface IndexToken {
  readonly start: number;
  readonly end: number;
  readonly term: string;
  /** The form the index also keeps for it: a German transliteration (`müller` → `mueller`). */
  readonly alternative?: string;
}

/** A word, phrase or prefix of a query as a run of index terms; `prefix` applies to the last one. */
export interface QueryTerm {
  readonly terms: readonly string[];
  readonly prefix: boolean;
}

const tokenPattern = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** Case, diacritics and compatibility forms folded, as the indexes fold them (fold-text.ts). */
export const fold = foldText;

/** FTS5's porter tokenizer stems ASCII tokens of 3 to 64 characters and leaves the rest. */
function stem(folded: string): string {
  return folded.length >= 3 && folded.length <= 64 && /^[a-z0-9]+$/.test(folded) ? stemmer(folded) : folded;
}

/** The words of a text as the index splits it, unfolded: `molten-salt` is two words. */
export function indexWords(text: string): string[] {
  return text.match(tokenPattern) ?? [];
}

/** The tokens of text as the indexes split and fold it (fold-text.ts): a CJK run as its character pairs. */
export function indexTokens(text: string): IndexToken[] {
  const tokens: IndexToken[] = [];
  const push = (word: string, start: number) => {
    const folded = foldText(word);
    if (!folded) return;
    const [transliterated] = transliterations(word);
    const alternative = transliterated === undefined ? undefined : stem(foldText(transliterated));
    tokens.push({ start, end: start + word.length, term: stem(folded), ...(alternative ? { alternative } : {}) });
  };
  for (const match of text.matchAll(tokenPattern)) {
    if (!isCjk(match[0])) {
      push(match[0], match.index);
      continue;
    }
    for (const part of cjkParts(match[0])) {
      if (!part.cjk) push(part.text, match.index + part.start);
      else {
        let at = match.index + part.start;
        for (const pair of characterPairs(part.text)) {
          push(pair, at);
          at += [...pair][0]!.length;
        }
      }
    }
  }
  return tokens;
}

/**
 * The words, phrases and prefixes a query asks for — not those it excludes (`-word`,
 * `NOT word`, `-( … )`): a result never matched because of those.
 */
export function queryTerms(queries: readonly string[]): QueryTerm[] {
  const terms: QueryTerm[] = [];
  const seen = new Set<string>();
  for (const query of queries) {
    const tokens = tokenizeQuery(query);
    for (let index = 0; index < tokens.length; index++) {
      const token = tokens[index]!;
      const excluded =
        token.kind === 'not' || ((token.kind === 'word' || token.kind === 'phrase' || token.kind === 'open') && token.negated);
      if (excluded) {
        // Skip what is excluded: one word or phrase, or a whole group.
        let at = token.kind === 'not' ? index + 1 : index;
        while (tokens[at]?.kind === 'not') at++;
        if (tokens[at]?.kind === 'open') {
          let depth = 0;
          for (; at < tokens.length; at++) {
            const kind = tokens[at]!.kind;
            if (kind === 'open') depth++;
            else if (kind === 'close' && --depth === 0) break;
          }
        }
        index = at;
        continue;
      }
      if (token.kind !== 'word' && token.kind !== 'phrase') continue;
      // A word with an umlaut also asks for its transliteration, as the server reads it.
      for (const text of [token.text, transliterate(token.text)]) {
        const words = text === undefined ? [] : indexTokens(text).map((item) => item.term);
        if (words.length === 0) continue;
        const term = { terms: words, prefix: token.kind === 'word' && token.prefix };
        const key = JSON.stringify(term);
        if (!seen.has(key)) {
          seen.add(key);
          terms.push(term);
        }
      }
    }
  }
  return terms;
}

/**
 * Character ranges of `text` the terms match: a word where a token has its stem, a phrase
 * where its words follow one another, a prefix where a token's stem begins with it.
 * Sorted and non-overlapping.
 */
export function matchRanges(text: string, terms: readonly QueryTerm[]): [number, number][] {
  if (terms.length === 0) return [];
  const tokens = indexTokens(text);
  const ranges: [number, number][] = [];
  for (let at = 0; at < tokens.length; at++) {
    let longest = 0;
    for (const { terms: words, prefix } of terms) {
      if (words.length <= longest || at + words.length > tokens.length) continue;
      const matches = words.every((word, offset) => {
        const { term, alternative } = tokens[at + offset]!;
        const last = prefix && offset === words.length - 1;
        return [term, alternative].some((form) => form !== undefined && (last ? form.startsWith(word) : form === word));
      });
      if (matches) longest = words.length;
    }
    if (longest === 0) continue;
    const start = tokens[at]!.start;
    const end = tokens[at + longest - 1]!.end;
    const previous = ranges[ranges.length - 1];
    if (previous && previous[1] >= start) previous[1] = Math.max(previous[1], end);
    else ranges.push([start, end]);
    at += longest - 1;
  }
  return ranges;
}

import type { StyleEntry } from '../../formats/csl-style-index';

/**
 * Finding a style among the CSL repository's by what a person types: words of its title or
 * short title ("physical review", "ACS"), its id, or its field ("physics", "chemistry").
 * Every word typed must begin a word of the style; titles that match best come first.
 */

export interface StyleMatch {
  readonly entry: StyleEntry;
  readonly score: number;
}

const fold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

const wordsOf = (text: string) =>
  fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

interface Searchable {
  readonly entry: StyleEntry;
  readonly title: string;
  readonly titleWords: readonly string[];
  readonly otherWords: readonly string[];
}

export interface StyleSearch {
  /** At most `limit` styles for the query, best first, and how many matched in all. */
  find(query: string, limit: number): { readonly matches: readonly StyleEntry[]; readonly total: number };
}

/** Folds every style's words once, so each keystroke only compares. */
export function styleSearch(entries: readonly StyleEntry[]): StyleSearch {
  const searchable: Searchable[] = entries.map((entry) => ({
    entry,
    title: fold(entry.title),
    titleWords: wordsOf(`${entry.title} ${entry.shortTitle ?? ''}`),
    otherWords: [...wordsOf(entry.id), ...entry.fields.flatMap(wordsOf)],
  }));
  return {
    find(query, limit) {
      const words = wordsOf(query);
      if (words.length === 0) return { matches: [], total: 0 };
      const phrase = words.join(' ');
      const scored: StyleMatch[] = [];
      for (const item of searchable) {
        let inTitle = 0;
        let matched = true;
        for (const word of words) {
          if (item.titleWords.some((candidate) => candidate.startsWith(word))) inTitle += 1;
          else if (!item.otherWords.some((candidate) => candidate.startsWith(word))) {
            matched = false;
            break;
          }
        }
        if (!matched) continue;
        const title = item.titleWords.join(' ');
        // Lower is better: the whole title, then a title that begins with the words, then
        // titles holding them all, then matches through the id or the field.
        const score =
          (title === phrase || item.title === fold(query.trim()) ? 0 : title.startsWith(phrase) ? 1 : inTitle === words.length ? 2 : 3) *
            2 +
          (item.entry.dependent ? 1 : 0);
        scored.push({ entry: item.entry, score });
      }
      scored.sort(
        (a, b) => a.score - b.score || a.entry.title.length - b.entry.title.length || a.entry.title.localeCompare(b.entry.title, 'en'),
      );
      return { matches: scored.slice(0, limit).map((match) => match.entry), total: scored.length };
    },
  };
}

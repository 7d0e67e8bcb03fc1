import type { Deployment } from '../../deployments/schema';
import { criteriaChips, type Chip } from '../../formats/search-description';
import { rewriteWords } from '../../formats/query-rewrite';
import { tokenizeQuery } from '../../formats/query-tokens';
import { yearRangeOf } from '../../formats/query-years';
import { mainParam } from './form-params';
import type { Entries } from '../navigation/query-params';

/** The search's criteria as removable chips: what each says, and which parameters removing it drops. */

export type { Chip } from '../../formats/search-description';

export const activeCriteria = (deployment: Deployment, entries: Entries): Chip[] =>
  criteriaChips(deployment, entries, mainParam(deployment)?.name);

/** `text` with each bare `word` in it quoted: a word only, never a year. */
export const quoteWord = (text: string, word: string) => rewriteWords(text, (found) => (found === word ? `"${word}"` : undefined));

/**
 * The years the main box names (`2016`, `2010-2015`), which the local server reads as a word
 * or a year of publication (formats/query-years.ts): each a chip saying so, whose button
 * quotes the year, searching for it as a word only.
 */
export function yearChips(deployment: Deployment, entries: Entries): Chip[] {
  const main = mainParam(deployment);
  if (main?.kind !== 'text' || !main.years) return [];
  const value = entries.find(([name]) => name === main.name)?.[1] ?? '';
  const seen = new Set<string>();
  const chips: Chip[] = [];
  for (const token of tokenizeQuery(value)) {
    if (token.kind !== 'word' || token.prefix || token.negated || seen.has(token.text)) continue;
    const years = yearRangeOf(token.text);
    if (!years) continue;
    seen.add(token.text);
    const shown = years.from === years.to ? String(years.from) : `${years.from}–${years.to}`;
    chips.push({
      label: `Published ${shown}, or the word ${token.text}`,
      params: [main.name],
      rewrite: { word: token.text, value: quoteWord(value, token.text) },
    });
  }
  return chips;
}

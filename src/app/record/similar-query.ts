import { toPlainLine, toSearchText } from '../../formats/rich-text';
import { storedText } from '../../formats/record-text';
import { valuesOf } from '../../formats/text';
import type { ApiRecord } from '../../deployments/registry';
import { firstText } from '../ui/format';

/**
 * The search for records like one record: its title's words and its subjects (as phrases),
 * any of them (OR), so relevance ranks first the records that share the most. Words that
 * every title has add nothing but cost, so they are left out; the query stays well inside
 * the API's limits on words and length, whatever the title (12 words of at most 64
 * characters, 5 subjects of at most 80).
 */

const stopWords = new Set(
  'a an and are as at be by for from has have in into is it its of on or that the their this to was were with without within using via based study new'.split(
    ' ',
  ),
);
const maxWords = 12;
/** The search index's own limit on a word (formats/query-words.ts): a longer one finds nothing and only lengthens the URL. */
const maxWordLength = 64;
const maxSubjects = 5;

export function similarQuery(record: ApiRecord): string | undefined {
  const words = new Set<string>();
  for (const [word] of toSearchText(storedText(firstText(record.title) ?? '')).matchAll(/[\p{L}\p{N}]+/gu)) {
    const lower = word.toLowerCase();
    if (lower.length >= 3 && lower.length <= maxWordLength && !stopWords.has(lower) && !/^\d+$/.test(lower)) words.add(lower);
    if (words.size === maxWords) break;
  }
  const subjects = new Set(
    valuesOf(record.subjects)
      .map((subject) => toPlainLine(subject).replace(/"/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase())
      .filter((subject) => /[\p{L}\p{N}]/u.test(subject) && subject.length <= 80),
  );
  const parts = [...words, ...[...subjects].slice(0, maxSubjects).map((subject) => `"${subject}"`)];
  return parts.length > 0 ? parts.join(' OR ') : undefined;
}

import { dayOfTimestamp } from '../../formats/dates';
import { parseAuthor } from '../../formats/authors';
import { valuesOf } from '../../formats/text';

/** Text formatting shared by the result list and the record page. */

const numberFormat = new Intl.NumberFormat('en');
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** "No results", "1 result", "1,234 results". */
export function formatCount(total: number): string {
  if (total === 0) return 'No results';
  return `${formatNumber(total)} ${total === 1 ? 'result' : 'results'}`;
}

/** An ISO timestamp as a day people read ("Apr 20, 2024"); the raw text if it is not a date. */
export function formatDate(timestamp: string): { text: string; iso?: string } {
  const day = dayOfTimestamp(timestamp);
  if (!day) return { text: timestamp };
  const iso = `${String(day.year).padStart(4, '0')}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
  return { text: dateFormat.format(new Date(Date.UTC(day.year, day.month - 1, day.day))), iso };
}

/** The start of a long text, cut at a word boundary. */
export function excerpt(text: string, maxLength = 280): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= maxLength) return clean;
  const cut = clean.slice(0, maxLength);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxLength * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** Author names for a result line, without affiliations or ORCID suffixes. */
export function authorNames(value: unknown, limit = 5): { names: string[]; more: number } {
  const names = valuesOf(value)
    .map((raw) => {
      const { family, given } = parseAuthor(raw);
      return given ? `${family}, ${given}` : family;
    })
    .filter(Boolean);
  return { names: names.slice(0, limit), more: Math.max(0, names.length - limit) };
}

/** The first non-empty string of a field. */
export function firstText(value: unknown): string | undefined {
  return valuesOf(value).find((item) => item.trim() !== '');
}

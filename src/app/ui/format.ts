import { dayOfTimestamp } from '../../formats/dates';
import { parseAuthor } from '../../formats/authors';
import { isIssuableOrcid } from '../../formats/generated-mark';
import { firstRecordText, plainLine, recordTexts, storedText, type RecordText } from '../../formats/record-text';

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
export function formatDate(value: string | RecordText): { text: string; iso?: string } {
  const timestamp = storedText(value);
  const day = dayOfTimestamp(timestamp);
  // A date the server wrote in some other way is still record text.
  if (!day) return { text: plainLine(value) };
  const iso = `${String(day.year).padStart(4, '0')}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
  return { text: dateFormat.format(new Date(Date.UTC(day.year, day.month - 1, day.day))), iso };
}

/** "Surname, Given" as the records write it, without affiliation or ORCID suffix. */
function nameOf({ family, given }: { family: string; given: string }): string {
  return given ? `${family}, ${given}` : family;
}

/** Author names for a result line, without affiliations or ORCID suffixes; parseAuthor reads them through the text model. */
export function authorNames(value: unknown, limit = 5): { names: string[]; more: number } {
  const names = recordTexts(value)
    .map((raw) => nameOf(parseAuthor(storedText(raw))))
    .filter(Boolean);
  return { names: names.slice(0, limit), more: Math.max(0, names.length - limit) };
}

export interface Person {
  /** "Surname, Given", the same form the result list shows. */
  readonly name: string;
  readonly affiliation?: string;
  /** The ORCID iD (0000-0002-1825-0097) and its page, when the record's iD is well formed and one ORCID could have issued. */
  readonly orcid?: { readonly id: string; readonly url?: string };
}

const orcidId = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/;

/**
 * An author entry for the record page (read through the text model by parseAuthor): the name first, the affiliation and ORCID as
 * details. An entry that is only an affiliation (`[Org]`) is shown as that organisation.
 */
export function personOf(text: RecordText): Person {
  const raw = storedText(text);
  const parsed = parseAuthor(raw);
  const name = nameOf(parsed);
  const orcid = parsed.orcid
    ? {
        id: parsed.orcid,
        ...(orcidId.test(parsed.orcid) && isIssuableOrcid(parsed.orcid) ? { url: `https://orcid.org/${parsed.orcid}` } : {}),
      }
    : undefined;
  if (!name) return { name: parsed.affiliation ?? raw.trim(), ...(orcid ? { orcid } : {}) };
  return { name, ...(parsed.affiliation ? { affiliation: parsed.affiliation } : {}), ...(orcid ? { orcid } : {}) };
}

/** The first non-empty text of a field, for the text model to show (formats/record-text.ts). */
export const firstText = firstRecordText;

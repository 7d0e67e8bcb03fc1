import { searchModel } from '../deployments/search-model';
import type { Deployment, SearchColumn } from '../deployments/schema';
import { initialsForm, parseAuthor } from './authors';
import { indexForm, transliterations } from './fold-text';
import { toSearchText } from './rich-text';
import { valuesOf } from './text';

/** The text of each full-text column of a record, as every store indexes it. */
export function textColumns(
  deployment: Deployment,
  stored: { readonly record: Readonly<Record<string, unknown>>; readonly fulltext?: string },
): Record<SearchColumn, string> {
  const text = {} as Record<SearchColumn, string>;
  for (const { name, fields } of searchModel(deployment).index.columns) {
    // Words as a reader sees them: entities decoded, no tag a word (`CO<sub>2</sub>` is CO2).
    let parts = fields.flatMap((field) => valuesOf(stored.record[field]).map(toSearchText));
    if (name === 'fulltext' && stored.fulltext) parts.push(stored.fulltext);
    // An author's ORCID iD as written and in its other form, and the name as surname and
    // initials (formats/authors.ts); concatenated, as a record may have more authors than a
    // call has room for arguments.
    if (name === 'authors') parts = parts.concat(orcidForms(stored.record.authors), initialsForms(stored.record.authors));
    // Folded as queries are (fold-text.ts); words with an umlaut are also there transliterated, after the rest.
    const alsoAs = parts.flatMap(transliterations);
    text[name] = [...parts, ...(alsoAs.length ? [alsoAs.join(' ')] : [])].map(indexForm).join('\n');
  }
  return text;
}

function initialsForms(authors: unknown): string[] {
  return valuesOf(authors).flatMap((author) => initialsForm(author) ?? []);
}

function orcidForms(authors: unknown): string[] {
  return valuesOf(authors).flatMap((author) => {
    const { orcid } = parseAuthor(author);
    return orcid ? [`${orcid} ${orcid.replace(/-/g, '')}`] : [];
  });
}

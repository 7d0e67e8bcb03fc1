import { fieldByName, type ApiRecord } from '../deployments/registry';
import type { Deployment, FieldDef, FieldRole } from '../deployments/schema';
import { searchModel } from '../deployments/search-model';
import { citedPublisher } from './csl';
import { dayOfTimestamp } from './dates';
import { hasKnownValue } from './known-values';
import { roleFields, roleValue } from './record-roles';
import { plainLine, recordTexts, storedText, type RecordText } from './record-text';

/**
 * What a record page shows where, for the app and the server-sent page alike: it leads with
 * what a reader needs (title, creators, the publication line, the abstract, the links) and
 * lists the other fields after, identifiers and codes last. Which field is which comes from
 * the deployment table's roles, compiled into the search model.
 */

/** The (first) field that has a role in this deployment, if any. */
export function roleField(deployment: Deployment, role: FieldRole): FieldDef | undefined {
  const name = roleFields(deployment, role)[0];
  return name === undefined ? undefined : fieldByName(deployment, name);
}

/** A role's known values in a record (record-roles.ts), through the text model ("None" and blanks left out). */
export function roleTexts(deployment: Deployment, record: ApiRecord, role: FieldRole): RecordText[] {
  return recordTexts(roleValue(deployment, record, role));
}

const firstOf = (deployment: Deployment, record: ApiRecord, role: FieldRole) => roleTexts(deployment, record, role)[0];

/** Where and when the work appeared: "Physical Review Letters 118(26), 2017, Publisher". */
export interface PublicationLine {
  readonly venue?: RecordText;
  /** Volume and issue as a reader writes them: "118(26)", "118", "(26)". */
  readonly numbering?: string;
  readonly year?: number;
  /** Who issued the work: the record's publisher, else the research organisation as citations name it. */
  readonly publisher?: string;
}

export function publicationLine(deployment: Deployment, record: ApiRecord): PublicationLine | undefined {
  const venue = firstOf(deployment, record, 'journal');
  const volume = firstOf(deployment, record, 'volume');
  const issue = firstOf(deployment, record, 'issue');
  const numbering = `${volume ? plainLine(volume) : ''}${issue ? `(${plainLine(issue)})` : ''}`;
  const published = firstOf(deployment, record, 'published');
  const year = published ? dayOfTimestamp(storedText(published))?.year : undefined;
  const publisher = citedPublisher(deployment, record, { orGroupAuthor: true });
  const line: PublicationLine = {
    ...(venue ? { venue } : {}),
    ...(numbering ? { numbering } : {}),
    ...(year !== undefined ? { year } : {}),
    ...(publisher ? { publisher } : {}),
  };
  return Object.keys(line).length > 0 ? line : undefined;
}

/** The details list: the fields after the lead that hold a known value, in the search model's order. */
export function detailFields(deployment: Deployment, record: ApiRecord): FieldDef[] {
  return searchModel(deployment)
    .recordPage.details.map((name) => fieldByName(deployment, name)!)
    .filter((field) => hasKnownValue(field, record[field.name]));
}

const linkNames: Readonly<Record<string, string>> = { citation: 'Citation page', fulltext: 'Full text', media: 'Media file' };

/** What a record's link of a rel is called on its page. */
export function linkName(rel: string): string {
  return linkNames[rel] ?? (rel ? rel.charAt(0).toUpperCase() + rel.slice(1) : 'Link');
}

/** Up to this many authors are all shown; a longer list shows the first `foldedAuthors` and folds the rest. */
const unfoldedAuthors = 12;
const foldedAuthors = 10;

/** How many of `count` authors a page shows before the "and N more" disclosure. */
export function authorsShownFolded(count: number): number {
  return count > unfoldedAuthors ? foldedAuthors : count;
}

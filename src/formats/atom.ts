import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { parseAuthor } from './authors';
import { toPlainLine, toPlainText } from './rich-text';
import { generatedLabel, generatedNote, noGeneratedIds, type GeneratedIds } from './generated-mark';
import { escapeXml, valuesOf } from './text';

/**
 * A search as an Atom feed (RFC 4287), newest entries first, for feed readers that follow a
 * search. Every text is plain (the text model), every value escaped; entry ids are the
 * records' API URLs, which never change.
 */

export interface FeedContext {
  /** The feed's own URL (rel="self" and its id). */
  readonly self: string;
  /** The same search in the app (rel="alternate"). */
  readonly alternate: string;
  readonly title: string;
  /** The API URL of a record, and its page in the app. */
  recordUrl(repoId: string): string;
  recordPage(repoId: string): string;
  /** The generated demo records among them (generated-mark.ts): each entry says so. */
  readonly generated?: GeneratedIds;
}

const first = (value: unknown) => valuesOf(value).find((item) => item.trim() !== '');
const epoch = '1970-01-01T00:00:00Z';
/** Atom dates are RFC 3339 date-times; the records' are ISO with a zone already. */
const atomDate = (value: unknown) => (typeof value === 'string' && /^\d{4}-\d\d-\d\dT/.test(value) ? value : undefined);

function entry(record: ApiRecord, context: FeedContext, generated: boolean): string {
  const updated = atomDate(record.entry_date) ?? atomDate(record.publication_date) ?? epoch;
  const published = atomDate(record.publication_date);
  const authors = valuesOf(record.authors)
    .map((raw) => parseAuthor(raw))
    .filter((name) => name.family)
    .map(({ family, given }) => `    <author><name>${escapeXml(given ? `${given} ${family}` : family)}</name></author>`);
  const text = first(record.description);
  // A generated demo record says so where a reader sees it (the summary) and as a category.
  const description = generated ? [generatedNote, text && toPlainText(text)].filter(Boolean).join(' ') : text && toPlainText(text);
  return [
    '  <entry>',
    `    <id>${escapeXml(context.recordUrl(record.repo_id))}</id>`,
    `    <title>${escapeXml(toPlainLine(first(record.title) ?? `Record ${record.repo_id}`))}</title>`,
    `    <updated>${escapeXml(updated)}</updated>`,
    ...(published ? [`    <published>${escapeXml(published)}</published>`] : []),
    ...authors,
    `    <link rel="alternate" type="text/html" href="${escapeXml(context.recordPage(record.repo_id))}"/>`,
    ...(generated ? [`    <category term="generated-demo-record" label="${escapeXml(generatedLabel)}"/>`] : []),
    ...(description ? [`    <summary>${escapeXml(description)}</summary>`] : []),
    '  </entry>',
  ].join('\n');
}

/** The feed in parts, a line of the head and then an entry at a time, each ending its line. */
export function* atomParts(deployment: Deployment, records: readonly ApiRecord[], context: FeedContext): Generator<string> {
  const generated = context.generated ?? noGeneratedIds;
  const updated = records.map((record) => atomDate(record.entry_date)).find(Boolean) ?? new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  yield [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(context.self)}</id>`,
    `  <title>${escapeXml(context.title)}</title>`,
    `  <updated>${escapeXml(updated)}</updated>`,
    // Feed-level author: RFC 4287 needs one wherever an entry names none.
    `  <author><name>${escapeXml(`Records Explorer (${deployment.key})`)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(context.self)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(context.alternate)}"/>`,
    '  <generator>Records Explorer</generator>',
    '',
  ].join('\n');
  for (const record of records) yield `${entry(record, context, generated.has(record.repo_id))}\n`;
  yield '</feed>\n';
}

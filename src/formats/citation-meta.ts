import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { parseAuthor } from './authors';
import { citedPublisher, organisations, recordNumber, workKind, type WorkKind } from './csl';
import { dayOfTimestamp } from './dates';
import { toPlainLine, toPlainText } from './rich-text';
import { firstKnown, knownValues } from './known-values';
import { bareDoi, escapeXml, isHttpUrl } from './text';

/**
 * The meta tags reference managers read from a record page: Highwire Press `citation_*`
 * (Google Scholar's inclusion guidelines, Zotero's Embedded Metadata translator) and Dublin
 * Core. One list for both paths: the server writes it into the HTML of a record page, and
 * the app puts it in the head after every in-app navigation.
 */

export type MetaTag = readonly [name: string, content: string];

/**
 * Dublin Core types by kind of work; everything else is Text. DCMI's own words where it has
 * one (Dataset, MovingImage, Sound, Software); for what DCMI calls Text, the ePrints type
 * words (Patent, Report, Thesis, Book, Conference Paper), which Zotero's Embedded Metadata
 * translator reads as its item types.
 */
const dcTypes: Partial<Record<WorkKind, string>> = {
  dataset: 'Dataset',
  patent: 'Patent',
  report: 'Report',
  thesis: 'Thesis',
  book: 'Book',
  'book-chapter': 'Book Item',
  'conference-paper': 'Conference Paper',
  'journal-article': 'Journal Article',
  video: 'MovingImage',
  audio: 'Sound',
  software: 'Software',
};

/**
 * Zotero's item type of each kind of work: the MODS `genre authority="local"` it reads as
 * the type, and what the tags of a record page make of it (src/formats/zotero-capture.test.ts).
 */
export const zoteroTypes: Record<WorkKind, string> = {
  'journal-article': 'journalArticle',
  'book-chapter': 'bookSection',
  book: 'book',
  thesis: 'thesis',
  'conference-paper': 'conferencePaper',
  patent: 'patent',
  report: 'report',
  dataset: 'dataset',
  software: 'computerProgram',
  video: 'videoRecording',
  audio: 'audioRecording',
  presentation: 'presentation',
  webpage: 'webpage',
  other: 'document',
};

/**
 * Open Graph types. Zotero ranks the journal article it guesses from `citation_title` above
 * a DC.type that is only a hint (MovingImage), but below og:type, so a video says so there.
 */
const ogTypes: Partial<Record<WorkKind, string>> = { video: 'video.other', book: 'book' };

/** Only a journal article names a journal: a dataset, patent or video page must not carry one. */
const hasJournal = (kind: WorkKind) => kind === 'journal-article';

const first = firstKnown;

/** Google Scholar's date form: YYYY/MM/DD. */
function scholarDate(timestamp: unknown): string | undefined {
  const day = dayOfTimestamp(first(timestamp));
  if (!day) return undefined;
  return `${String(day.year).padStart(4, '0')}/${String(day.month).padStart(2, '0')}/${String(day.day).padStart(2, '0')}`;
}

/** A full-text link that is a PDF file, not a landing page or a plain-text rendering. */
function pdfUrl(record: ApiRecord): string | undefined {
  const links = Array.isArray(record.links) ? (record.links as { rel?: unknown; href?: unknown }[]) : [];
  const href = links.find(
    (link) => link?.rel === 'fulltext' && isHttpUrl(link.href) && /\.pdf$/i.test(new URL(String(link.href)).pathname),
  )?.href;
  return typeof href === 'string' ? href : undefined;
}

export function citationMeta(deployment: Deployment, record: ApiRecord): MetaTag[] {
  const kind = workKind(deployment, record);
  const tags: [string, string | undefined][] = [];
  const title = first(record.title);
  tags.push(['citation_title', title && toPlainLine(title)]);
  for (const raw of knownValues(record.authors)) {
    const { family, given } = parseAuthor(raw);
    if (family) tags.push(['citation_author', given ? `${family}, ${given}` : family]);
  }
  tags.push(['citation_publication_date', scholarDate(record.publication_date)]);
  const doi = first(record.doi);
  tags.push(['citation_doi', doi && bareDoi(doi)]);
  if (hasJournal(kind)) {
    tags.push(
      ['citation_journal_title', first(record.journal_name)],
      ['citation_volume', first(record.journal_volume)],
      ['citation_issue', first(record.journal_issue)],
    );
  }
  if (kind === 'report') {
    tags.push(
      ['citation_technical_report_institution', organisations(deployment, record, 'research')[0]],
      ['citation_technical_report_number', recordNumber(deployment, record)],
    );
  }
  // Embedded Metadata reads a patent's number from PRISM (its issue, then patentNumber).
  if (kind === 'patent')
    tags.push(['citation_patent_number', recordNumber(deployment, record)], ['prism.number', recordNumber(deployment, record)]);
  // Who issued it: a report's institution, a dataset's repository, a video's studio.
  const publisher = citedPublisher(deployment, record, { orGroupAuthor: true });
  tags.push(['citation_publisher', publisher], ['DC.publisher', publisher]);
  tags.push(['citation_pdf_url', pdfUrl(record)]);
  const description = first(record.description);
  tags.push(['citation_abstract', description && toPlainText(description)]);
  const keywords = knownValues(record.subjects).map(toPlainLine).filter(Boolean);
  tags.push(['citation_keywords', keywords.length ? keywords.join('; ') : undefined]);
  tags.push(['citation_language', first(record.language)]);
  tags.push(
    ['DC.type', dcTypes[kind] ?? 'Text'],
    ['og:type', ogTypes[kind]],
    ['DC.title', title && toPlainLine(title)],
    ['DC.identifier', doi && `doi:${bareDoi(doi)}`],
  );
  return tags.filter((tag): tag is [string, string] => Boolean(tag[1]?.trim()));
}

/** The id a record is known by to the local server's unAPI (`LIT:1828290`), on pages as `abbr.unapi-id`. */
export const unapiId = (deployment: Deployment, repoId: string) => `${deployment.key}:${repoId}`;

/** The tags as HTML for a page's head, every value escaped; marked so the app can replace them. */
export function citationMetaHtml(tags: readonly MetaTag[]): string {
  return tags.map(([name, content]) => `<meta name="${escapeXml(name)}" content="${escapeXml(content)}" data-record-meta>`).join('\n');
}

import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { parseAuthor } from './authors';
import { citedPublisher, organisationName, organisations, recordNumber } from './csl';
import { workKind, type WorkKind } from './work-kinds';
import { dayOfTimestamp } from './dates';
import { toPlainLine, toPlainText } from './rich-text';
import { firstKnown, knownValues } from './known-values';
import { runningTime } from './running-time';
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
  webpage: 'InteractiveResource',
};

/**
 * Zotero's item type of each kind of work, as every capture path names it: the record page's
 * `z.itemType` (the Zotero export vocabulary, which Zotero's RDF translator ranks above every
 * other type statement), MODS `genre authority="local"` and Zotero RDF's `z:itemType`.
 * The capture tests (src/server/http/zotero-capture.test.ts) check what Zotero makes of each.
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

/** Open Graph types, for clients that read no Zotero vocabulary. */
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

/**
 * Who issued the work, as a reference manager stores it: the cited publisher, and for a
 * thesis (which citations name by its university in their own way) the research organisation.
 */
export function issuerOf(deployment: Deployment, record: ApiRecord, kind: WorkKind = workKind(deployment, record)): string | undefined {
  const publisher = citedPublisher(deployment, record, { orGroupAuthor: true });
  if (publisher || kind !== 'thesis') return publisher;
  return organisations(deployment, record, 'research').map(organisationName).find(Boolean);
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
      ['citation_technical_report_institution', issuerOf(deployment, record, kind)],
      ['citation_technical_report_number', recordNumber(deployment, record)],
    );
  }
  if (kind === 'patent') tags.push(['citation_patent_number', recordNumber(deployment, record)]);
  // Zotero reads PRISM's number as the issue and, for a type without one, as its number
  // (patentNumber, a dataset's identifier); a report's comes from its Highwire tag above.
  if (kind === 'patent' || kind === 'dataset') tags.push(['prism.number', recordNumber(deployment, record)]);
  // Who issued it: a report's institution, a dataset's repository, a video's studio, a thesis's university.
  const publisher = issuerOf(deployment, record, kind);
  if (kind === 'thesis') tags.push(['citation_dissertation_institution', publisher]);
  tags.push(['citation_publisher', publisher], ['DC.publisher', publisher]);
  tags.push(['citation_pdf_url', pdfUrl(record)]);
  const description = first(record.description);
  tags.push(['citation_abstract', description && toPlainText(description)]);
  const keywords = knownValues(record.subjects).map(toPlainLine).filter(Boolean);
  tags.push(['citation_keywords', keywords.length ? keywords.join('; ') : undefined]);
  tags.push(['citation_language', first(record.language)]);
  tags.push(
    ['z.itemType', zoteroTypes[kind]],
    ['DC.type', dcTypes[kind] ?? 'Text'],
    ['og:type', ogTypes[kind]],
    // Open Graph's video duration, which Zotero reads as the running time.
    ['video:duration', kind === 'video' ? runningTime(deployment, record) : undefined],
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

import type { Deployment, LinkRel } from '../../deployments/schema';
import type { Draft } from './draft';
import {
  contractNumber,
  demoDoi,
  demoReportNumber,
  demoUrl,
  doiForm,
  journalDoi,
  nsaNumber,
  otherIdentifyingNumbers,
  patentNumber,
  relatedIdentifier,
} from './identifiers';
import { mediaFiles } from './media';
import { availabilityNotes, usResearchOrgs } from './organizations';
import { type Random, zipfPicker } from './random';
import { instantBetween, isoInstant } from './timeline';
import { datasetContentTypes } from './vocabulary';

/**
 * One value builder per record field name of the deployment table. The generator calls
 * the builders in the table's field order, so a field added to the table without a
 * builder here fails loudly instead of being left out.
 */

export interface FieldContext {
  readonly deployment: Deployment;
  readonly draft: Draft;
  readonly random: Random;
  /** The journal drawn for this record, shared by journal_name and publisher. */
  journal?: readonly [string, string];
}

export type FieldBuilder = (context: FieldContext) => unknown;

const contentTypePicker = zipfPicker(datasetContentTypes, 1.1);
const sizeUnits = ['bytes', 'kB', 'MB', 'GB', 'TB'] as const;

/** Sizes as the upstream's format field writes them: `Size: 4.28 MB` (powers of 1000). */
export function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < sizeUnits.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(2)} ${sizeUnits[unit]}`;
}

function journalOf(context: FieldContext): readonly [string, string] | undefined {
  const { draft, random } = context;
  if (draft.kind !== 'article') return undefined;
  context.journal ??= random.pick(draft.topic.journals);
  return context.journal;
}

const isMedia = (draft: Draft) => draft.kind === 'video' || draft.kind === 'audio' || draft.kind === 'presentation';
const isPatent = (draft: Draft) => draft.kind === 'patent' || draft.kind === 'patent-application';

function doi({ draft, random }: FieldContext): string {
  const { kind, year, id } = draft;
  let bare = '';
  switch (kind) {
    case 'article':
      if (random.chance(year < 1990 ? 0.4 : 0.88)) bare = journalDoi(random, year);
      break;
    case 'report':
    case 'thesis':
      if (random.chance(year < 1990 ? 0.25 : 0.7)) bare = demoDoi(String(id));
      break;
    case 'dataset':
      if (random.chance(0.9)) bare = demoDoi(String(id));
      break;
    case 'software':
      if (random.chance(0.8)) bare = demoDoi(`dc.${isoInstant(draft.published).slice(0, 10).replaceAll('-', '')}.${random.int(1, 999)}`);
      break;
    case 'conference':
    case 'book':
      if (random.chance(0.35)) bare = journalDoi(random, year);
      break;
    case 'video':
    case 'audio':
    case 'presentation':
      if (random.chance(0.2)) bare = demoDoi(String(id));
      break;
    default:
      if (random.chance(0.03)) bare = demoDoi(String(id));
  }
  return bare ? doiForm(bare, random) : '';
}

/** How often each kind of record carries a report number. */
const reportNumberShare: Partial<Record<Draft['kind'], number>> = {
  report: 0.92,
  conference: 0.6,
  thesis: 0.5,
  article: 0.3,
  dataset: 0.2,
  software: 0.3,
};

function reportNumber({ draft, random }: FieldContext): string {
  if (isPatent(draft)) return patentNumber(draft.kind === 'patent-application', draft.year, random);
  const scheme = draft.org.reportNumber;
  if (!scheme || !random.chance(reportNumberShare[draft.kind] ?? 0.4)) return '';
  const first = demoReportNumber(scheme(random, draft.year));
  return random.chance(0.1) ? `${first}; ${demoReportNumber(scheme(random, draft.year))}` : first;
}

function contracts({ draft, random }: FieldContext): string {
  const { org, year } = draft;
  const pool = year < 1977 && org.legacyContracts ? org.legacyContracts : org.contracts;
  if (pool.length === 0 || random.chance(0.1)) return '';
  const numbers = [random.pick(pool)];
  const extra = random.chance(0.15) ? (random.chance(0.25) ? 2 : 1) : 0;
  for (let i = 0; i < extra; i++) {
    const other = random.chance(0.5) ? random.pick(pool) : random.pick(random.pick(usResearchOrgs).contracts);
    if (!numbers.includes(other)) numbers.push(other);
  }
  return numbers.map((number) => contractNumber(number, random)).join('; ');
}

function availability({ draft, random }: FieldContext): string {
  if (draft.repository?.availability && random.chance(0.7)) return draft.repository.availability;
  if (draft.year < 1980 && random.chance(0.6)) return random.pick(availabilityNotes.legacy);
  if (!random.chance(0.15)) return '';
  const note = random.pick(availabilityNotes.modern);
  return note.endsWith(' DE') ? `${note}${String(draft.year % 100).padStart(2, '0')}${random.digits(6)}` : note;
}

function format({ draft, random }: FieldContext): string {
  switch (draft.kind) {
    case 'dataset':
    case 'software':
      return draft.sizeBytes === null ? '' : `${random.chance(0.2) ? 'Medium: ED; ' : ''}Size: ${formatSize(draft.sizeBytes)}`;
    case 'report':
    case 'thesis':
    case 'book':
    case 'conference':
      if (!random.chance(0.65)) return '';
      return draft.year < 1990 ? `Medium: X; Size: Pages: ${random.int(4, 400)}` : `Medium: ED; Size: ${random.int(4, 400)} p.`;
    case 'article':
      return random.chance(0.3) ? `Medium: ED; Size: Article No. ${random.digits(6)}` : '';
    case 'patent':
    case 'patent-application':
      return random.chance(0.7) ? `Medium: ED; Size: ${random.int(6, 48)} p.` : '';
    default:
      return random.chance(0.6) ? `Medium: ED; Size: ${random.int(1, 95)} min ${random.int(0, 59)} s` : '';
  }
}

function publisher(context: FieldContext): string {
  const { draft, random } = context;
  const journal = journalOf(context);
  if (journal) return journal[1];
  if (draft.repository) return random.chance(0.6) ? draft.repository.name : '';
  if (isMedia(draft))
    return random.chance(0.5)
      ? random.pick(['U.S. Department of Energy', draft.org.name, 'Office of Scientific and Technical Information'])
      : '';
  if (draft.kind === 'book' || draft.kind === 'conference')
    return random.chance(0.5) ? random.pick(['Springer', 'American Nuclear Society', 'IEEE', 'AIP Publishing']) : '';
  return '';
}

function subjects({ draft, random }: FieldContext): string[] {
  if (random.chance(0.12)) return [];
  const categories = random.chance(0.9) ? [random.pick(draft.topic.categories)] : [];
  if (categories.length && random.chance(0.25)) {
    const second = random.pick(draft.topic.categories);
    if (second !== categories[0]) categories.push(second);
  }
  return [...categories, ...draft.writer.keywords(random.int(0, 8), random)];
}

function links({ deployment, draft }: FieldContext): { rel: string; href: string }[] {
  const rels = new Set<LinkRel>(deployment.linkRels);
  const result: { rel: string; href: string }[] = [];
  if (rels.has('citation')) result.push({ rel: 'citation', href: `/${deployment.slug}/records/${draft.id}` });
  if (rels.has('fulltext') && draft.fulltext !== undefined) {
    result.push({ rel: 'fulltext', href: `/files/fulltext/${deployment.slug}/${draft.id}.txt` });
  }
  // A web page is no file /media may serve (an HTML page on the app's origin could run script).
  if (rels.has('media') && draft.mimeType && draft.mimeType !== 'html')
    result.push({ rel: 'media', href: mediaFiles[draft.mimeType].href });
  return result;
}

function datasetContent({ draft, random }: FieldContext): string[] {
  if (isPatent(draft)) return random.chance(0.3) ? [] : random.chance(0.7) ? ['Text'] : ['Text', 'Image'];
  if (draft.kind !== 'dataset' && draft.kind !== 'software') return random.chance(0.8) ? [] : ['Text'];
  if (random.chance(0.08)) return [];
  const first = draft.kind === 'software' ? 'Software' : contentTypePicker.draw(random);
  const second = random.chance(0.25) ? contentTypePicker.draw(random) : first;
  return second === first ? [first] : [first, second];
}

function siteUrl(draft: Draft): string {
  return draft.repository ? draft.repository.url(draft.submission) : demoUrl(draft.org.website, `/data/${draft.submission}`);
}

function relatedResource({ draft, random }: FieldContext): string {
  const u = random.float();
  if (u < 0.2) return `Journal Article: ${draft.writer.title('literature', random)}`;
  if (u < 0.3) return `URL: ${siteUrl(draft)}/related`;
  return '';
}

const articleTypes = ['Accepted Manuscript', 'Published Article'] as const;

export const fieldBuilders: Readonly<Record<string, FieldBuilder>> = {
  repo_id: ({ draft }) => draft.id,
  title: ({ draft }) => draft.title,
  authors: ({ draft }) => draft.authors,
  subjects,
  description: ({ draft }) => draft.description,
  publisher,
  country_publication: ({ draft }) => draft.country,
  publication_date: ({ draft }) => isoInstant(draft.published),
  entry_date: ({ draft }) => isoInstant(draft.entered),
  doi,
  language: ({ draft }) => draft.language,
  availability,
  format,
  agency_contract_number: contracts,
  research_orgs: ({ draft }) => draft.researchOrgs,
  sponsor_orgs: ({ draft }) => draft.sponsors,
  contributing_orgs: ({ draft }) => draft.contributors,
  // The singular organisation fields (DC0, and the contributing field elsewhere) are
  // strings; several organisations are joined as the upstream joins multiple values.
  research_org: ({ draft }) => draft.researchOrgs.join('; '),
  sponsor_org: ({ draft }) => draft.sponsors.join('; '),
  contributing_org: ({ draft }) => draft.contributors.join('; '),
  contributor_org: ({ draft }) => draft.contributors.join('; '),
  product_type: ({ draft }) => draft.productType,
  report_number: reportNumber,
  product_number: ({ draft, random }) => (random.chance(0.8) ? draft.submission : ''),
  journal_name: (context) => journalOf(context)?.[0] ?? '',
  journal_volume: ({ draft, random }) => (draft.kind === 'article' && random.chance(0.9) ? String(random.int(1, 150)) : ''),
  journal_issue: ({ draft, random }) => (draft.kind === 'article' && random.chance(0.7) ? String(random.int(1, 24)) : ''),
  article_type: ({ draft, random }) => (draft.kind === 'article' && random.chance(0.8) ? random.pick(articleTypes) : null),
  mime_type: ({ draft }) => draft.mimeType ?? '',
  nsa_number: ({ draft, random }) => (draft.year < 1977 && random.chance(0.85) ? nsaNumber(draft.year, random) : ''),
  dataset_content_type: datasetContent,
  related_resource: relatedResource,
  related_identifiers: ({ draft, random }) =>
    random.chance(0.55) ? [] : Array.from({ length: random.int(1, 3) }, () => relatedIdentifier(random, draft.year)),
  dataset_size: ({ draft }) => draft.sizeBytes,
  site_url: ({ draft }) => siteUrl(draft),
  site_ownership_code: ({ draft }) => draft.site,
  announcement_date: ({ draft, random }) =>
    random.chance(0.85) ? isoInstant(instantBetween(draft.published, draft.entered, random)) : null,
  submitting_site: ({ draft, random }) => (random.chance(0.92) ? draft.site : ''),
  other_identifying_numbers: ({ draft, random }) => otherIdentifyingNumbers(draft.year, random),
  links,
};

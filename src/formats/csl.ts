import type { ApiRecord } from '../deployments/registry';
import type { Deployment, FieldRole } from '../deployments/schema';
import { searchModel, type OrganisationRole } from '../deployments/search-model';
import { etAlAuthor, initials, isEtAl, parseAuthor } from './authors';
import { dayOfTimestamp } from './dates';
import { toCslText, toPlainLine } from './rich-text';
import { generatedNote, noGeneratedIds, type GeneratedIds } from './generated-mark';
import { firstKnown, knownValues } from './known-values';
import { roleValue } from './record-roles';
import { bareDoi, isHttpUrl } from './text';
import type { CslItem, CslName, CslType } from './csl-item';
import { cslTypeOfKind, workKind, type WorkKind } from './work-kinds';

/**
 * Records as CSL-JSON items, the input of every citation style (citeproc) and a format
 * reference managers import. Only fields the record really has are written: an empty
 * CSL field renders as nothing, but a made-up one would be cited.
 */

export function cslTypeOf(kind: WorkKind): CslType {
  return cslTypeOfKind[kind];
}

/** The first known value of a field as source text (markup and entities as stored). */
const source = firstKnown;

/** The first non-blank value of a field as plain text: entities decoded, markup gone. */
function text(value: unknown): string | undefined {
  const found = source(value);
  return found === undefined ? undefined : toPlainLine(found) || undefined;
}

/**
 * An organisation as a publisher is cited: by name, without the city, state and country
 * the upstream appends ("Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United
 * States)"), which APA 7 leaves out and the other styles write only for places, not names.
 */
export function organisationName(raw: string): string {
  let name = toPlainLine(raw)
    .replace(/,\s*[^,()]+,\s*[A-Z]{2}\s*\([^()]*\)/g, '')
    .replace(/,\s*[^,]+,\s*[^,]+,\s*(USA|United States)$/, '');
  // "Cold Spring Harbor Laboratory Cold Spring Harbor, NY (United States)": no comma sets
  // the city apart, but it repeats the words the name starts with.
  const located = /^(.*\S)\s*,\s*[A-Z]{2}\s*\([^()]*\)$/.exec(name);
  if (located) {
    const words = located[1]!.split(' ');
    const start = words.findIndex(
      (_, index) => index > 0 && words.slice(index).join(' ') === words.slice(0, words.length - index).join(' '),
    );
    name = start > 0 ? words.slice(0, start).join(' ') : located[1]!;
  }
  return name.trim();
}

/**
 * The place an organisation's name ends with, as the upstream appends it: "Princeton Plasma
 * Physics Lab. (PPPL), Princeton, NJ (United States)" → "Princeton, NJ".
 */
export function organisationPlace(raw: string): string | undefined {
  const place = /,\s*([^,()]+),\s*([A-Z]{2})\s*\([^()]*\)\s*$/.exec(toPlainLine(raw));
  return place ? `${place[1]!.trim()}, ${place[2]}` : undefined;
}

/** Values of the deployment's organisation fields of one role (names differ per deployment: the search model knows them). */
export function organisations(deployment: Deployment, record: ApiRecord, role: OrganisationRole): string[] {
  return (searchModel(deployment).roles.organisations[role] ?? [])
    .flatMap((field) => knownValues(record[field]))
    .map((name) => name.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

/**
 * A person as CSL wants one. An entry with no comma and no given name ("ATLAS
 * Collaboration", "Argonne National Laboratory") is an organisation credited as author,
 * so it stays one literal name instead of becoming a surname.
 */
export function cslName(raw: string): CslName | undefined {
  // A list known to be cut short: the engine ends it with "et al." (cite-engine.ts drops the "and" a style puts before it).
  if (isEtAl(raw)) return { literal: etAlAuthor };
  const { family, given } = parseAuthor(raw);
  if (!family) return undefined;
  if (!given && !/,/.test(raw.replace(/\[.*\]/s, '').replace(/\(\s*ORCID[^)]*\)/i, ''))) return { literal: family };
  if (!given) return { family };
  // Initials as the upstream writes them ("E D", "R.E.") with the full stops and spaces every style expects.
  return { family, given: /^(\p{Lu}\.?[\s-]*)+$/u.test(given) ? initials(given) : given };
}

/** Persons of a record (affiliations and ORCIDs stripped), in the record's order. */
export function cslAuthors(deployment: Deployment, record: ApiRecord): CslName[] {
  return knownValues(roleValue(deployment, record, 'authors'))
    .map(cslName)
    .filter((name): name is CslName => name !== undefined);
}

/**
 * The record's citation page, else the place the resource lives (DC1 site_url). Given the
 * origin it is served from (unAPI), a root-relative citation link is made absolute, and a
 * record with no address at all is given its page on that origin.
 */
export function citationUrl(deployment: Deployment, record: ApiRecord, origin?: string): string | undefined {
  const stored = roleValue(deployment, record, 'links');
  const links = Array.isArray(stored) ? (stored as { rel?: unknown; href?: unknown }[]) : [];
  const citations = links.filter((link) => link?.rel === 'citation').map((link) => link.href);
  const citation = citations.find(isHttpUrl);
  if (typeof citation === 'string') return citation;
  const site = text(roleValue(deployment, record, 'url'));
  if (isHttpUrl(site)) return site;
  if (!origin) return undefined;
  const relative = citations.find((href): href is string => typeof href === 'string' && /^\/[^/\\]/.test(href));
  return new URL(relative ?? `/${deployment.slug}/records/${encodeURIComponent(record.repo_id)}`, origin).href;
}

/** Report, patent or product number(s) as one string, as the record writes them. */
export function recordNumber(deployment: Deployment, record: ApiRecord): string | undefined {
  return text(roleValue(deployment, record, 'reportNumber')) ?? text(roleValue(deployment, record, 'productNumber'));
}

/** What the record's number is called, as its catalogue names the field. */
export function recordNumberLabel(deployment: Deployment, record: ApiRecord): 'Report Number' | 'Product Number' | undefined {
  if (text(roleValue(deployment, record, 'reportNumber'))) return 'Report Number';
  return text(roleValue(deployment, record, 'productNumber')) ? 'Product Number' : undefined;
}

export function cslId(deployment: Deployment, record: ApiRecord): string {
  return `${deployment.slug}-${record.repo_id}`;
}

/** Kinds of work whose issuer, when the record names none, is the organisation that did the work. */
const issuedByResearchOrg = new Set<WorkKind>(['report', 'dataset', 'software', 'video', 'audio', 'presentation', 'other']);

/** APA 7's bracketed descriptors, which the other styles print as the kind of work. */
const genreOfKind: Partial<Record<WorkKind, string>> = { dataset: 'Data set', video: 'Video' };

/**
 * Who issued the work, as every format cites it. The upstream rarely fills publisher; for
 * reports and datasets the research organisation is who issues the work (unless it is
 * already the author, for want of a person). A journal's publisher is not cited, and a
 * patent's issuer is a patent office, never the assignee.
 */
export function citedPublisher(deployment: Deployment, record: ApiRecord, options: { orGroupAuthor?: boolean } = {}): string | undefined {
  const own = source(roleValue(deployment, record, 'publisher'));
  if (own) return organisationName(own) || undefined;
  // A citation names a group author once; a reference manager's record wants its publisher (repository, studio) all the same.
  if (!issuedByResearchOrg.has(workKind(deployment, record)) || (!options.orGroupAuthor && cslAuthors(deployment, record).length === 0))
    return undefined;
  return organisations(deployment, record, 'research').map(organisationName).find(Boolean);
}

export function recordToCsl(deployment: Deployment, record: ApiRecord, generated = false): CslItem {
  const kind = workKind(deployment, record);
  // Which field is the title, the journal or the date is the search model's to say (record-roles.ts).
  const role = (name: FieldRole) => roleValue(deployment, record, name);
  const persons = cslAuthors(deployment, record);
  const research = organisations(deployment, record, 'research').map(organisationName).filter(Boolean);
  // With no person credited, the organisation that did the work is the author (a group
  // author in APA's terms); else the record would be cited under its title alone.
  const author = persons.length > 0 ? persons : research.map((literal) => ({ literal }));
  const publisher = citedPublisher(deployment, record);
  // Where the publisher is: the place its name carries (the record's own publisher, else the research organisation's).
  const place = publisher
    ? [source(role('publisher')), ...organisations(deployment, record, 'research')]
        .map((raw) => raw && organisationPlace(raw))
        .find(Boolean)
    : undefined;
  const title = source(role('title'));
  const day = dayOfTimestamp(text(role('published')));
  const doi = text(role('doi'));
  const subjects = knownValues(role('subjects'));

  const item: CslItem = {
    id: cslId(deployment, record),
    type: cslTypeOf(kind),
    title: title && toCslText(title),
    genre: genreOfKind[kind],
    author: author.length > 0 ? author : undefined,
    issued: day ? { 'date-parts': [[day.year, day.month, day.day]] } : undefined,
    DOI: doi ? bareDoi(doi) : undefined,
    URL: citationUrl(deployment, record),
    publisher,
    'publisher-place': place,
    // country_publication is a country, not the city a style's "place" means.
    // A dataset's product number is the repository's submission number, not cited.
    number: kind === 'dataset' ? undefined : recordNumber(deployment, record),
    'container-title': text(role('journal')),
    volume: text(role('volume')),
    issue: text(role('issue')),
    abstract: text(role('description')),
    keyword: subjects.length > 0 ? subjects.join(', ') : undefined,
    language: text(role('language')),
    note: generated ? generatedNote : undefined,
  };
  // CSL-JSON leaves absent fields out rather than writing them as null.
  return Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined)) as CslItem;
}

export function recordsToCsl(deployment: Deployment, records: readonly ApiRecord[], generated: GeneratedIds = noGeneratedIds): CslItem[] {
  return records.map((record) => recordToCsl(deployment, record, generated.has(record.repo_id)));
}

/** Streaming CSL-JSON: one array, written as an opening, items and a closing. */
export const cslJsonOpening = '[\n';
export const cslJsonClosing = '\n]\n';
export const cslJsonSeparator = ',\n';

export function cslItemsToJson(items: readonly CslItem[]): string {
  return items.map((item) => JSON.stringify(item, null, 2).replace(/^/gm, '  ')).join(cslJsonSeparator);
}

export function recordsToCslJson(deployment: Deployment, records: readonly ApiRecord[], generated: GeneratedIds = noGeneratedIds): string {
  const body = cslItemsToJson(recordsToCsl(deployment, records, generated));
  return body ? cslJsonOpening + body + cslJsonClosing : '[]\n';
}

import { XMLParser } from 'fast-xml-parser';
import { parseDocument } from 'htmlparser2';

/**
 * What Zotero makes of what we serve, for tests only: the mappings its translators publish,
 * as tables, and the order in which each translator consults them. Read from
 * zotero/translators at commit 2814370161d05d799086825fac8d499db3a33aa3 (Embedded Metadata.js
 * lastUpdated 2026-04-27, RDF.js 2026-06-19, MODS.js 2022-10-31, RIS.js 2026-01-05, unAPI.js
 * 2019-06-10) and zotero/zotero-schema schema.json version 41 (commit 5eedf44). Zotero's
 * translation-server pins schema version 29, in which only journal articles, conference papers
 * and datasets have a DOI field; `schemaVersion: 29` reads with that rule.
 *
 * Only what our pages and formats can meet is modelled, each with the translator that holds
 * it; where a translator reads something we never write, this model does not read it either.
 * The e2e (e2e/zotero-translation-server.test.ts) runs the real translation-server where one
 * is installed.
 */

export interface ZoteroItem {
  readonly itemType: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly creators: readonly { readonly creatorType: string; readonly name: string }[];
}

export interface ReadOptions {
  /** Zotero's schema: 41 (today's client) or 29 (the translation-server's pinned schema). */
  readonly schemaVersion?: 29 | 41;
}

/**
 * schema.json v41: each type's fields (accessDate, archive, callNumber and the like left out),
 * `field<base` where the type stores a base field under its own name.
 */
const schemaFields: Readonly<Record<string, string>> = {
  journalArticle: `title abstractNote publicationTitle publisher place date volume issue section partNumber partTitle pages series seriesTitle seriesText journalAbbreviation DOI url PMID PMCID ISSN language extra`,
  report: `title abstractNote reportNumber<number reportType<type institution<publisher place date seriesTitle seriesNumber pages DOI ISBN url ISSN language extra`,
  thesis: `title abstractNote thesisType<type university<publisher place date series seriesNumber numPages DOI ISBN url ISSN language extra`,
  dataset: `title abstractNote identifier<number type versionNumber date repository<publisher repositoryLocation<place format<medium DOI url language extra`,
  videoRecording: `title abstractNote videoRecordingFormat<medium seriesTitle volume numberOfVolumes studio<publisher place date runningTime ISBN DOI url language extra`,
  audioRecording: `title abstractNote audioRecordingFormat<medium seriesTitle volume numberOfVolumes label<publisher place date runningTime ISBN DOI url language extra`,
  computerProgram: `title abstractNote seriesTitle versionNumber date system company<publisher place programmingLanguage url DOI ISBN extra`,
  presentation: `title abstractNote presentationType<type date meetingName place series sessionTitle<publicationTitle DOI url language extra`,
  patent: `title abstractNote place country assignee issuingAuthority<authority patentNumber<number filingDate pages applicationNumber priorityNumbers issueDate<date priorityDate<originalDate references legalStatus<status DOI url language extra`,
  book: `title abstractNote series seriesNumber volume numberOfVolumes edition date publisher place originalDate originalPublisher originalPlace format<medium numPages ISBN DOI url ISSN language extra`,
  bookSection: `title abstractNote bookTitle<publicationTitle series seriesNumber volume numberOfVolumes edition date publisher place originalDate originalPublisher originalPlace format<medium pages ISBN DOI url ISSN language extra`,
  conferencePaper: `title abstractNote proceedingsTitle<publicationTitle conferenceName publisher place date eventPlace volume issue numberOfVolumes pages series seriesNumber DOI ISBN url ISSN language extra`,
  webpage: `title abstractNote websiteTitle<publicationTitle websiteType<type date publisher place DOI url language extra`,
  document: `title abstractNote type date publisher place DOI url language extra`,
  film: `title abstractNote distributor<publisher place date genre<type videoRecordingFormat<medium runningTime DOI url language extra`,
};

/** Schema 29 (translation-server's pin, zotero-schema 1f5331e): the types with a DOI field. */
const doiTypesOfSchema29 = new Set(['journalArticle', 'conferencePaper', 'dataset']);

interface TypeFields {
  /** Field name → the name the type stores it under (a base field's own name, or itself). */
  readonly names: ReadonlyMap<string, string>;
}

const typeFields: ReadonlyMap<string, TypeFields> = new Map(
  Object.entries(schemaFields).map(([type, list]) => {
    const names = new Map<string, string>();
    for (const entry of list.split(' ')) {
      const [own, base] = entry.split('<') as [string, string | undefined];
      names.set(own, own);
      if (base) names.set(base, own);
    }
    return [type, { names }];
  }),
);

export const zoteroItemTypes: ReadonlySet<string> = new Set([
  ...typeFields.keys(),
  // Types the translators name that none of our records should become.
  'magazineArticle',
  'newspaperArticle',
  'artwork',
  'map',
  'letter',
  'manuscript',
  'interview',
  'blogPost',
  'forumPost',
  'email',
  'statute',
  'case',
  'bill',
  'hearing',
  'tvBroadcast',
  'radioBroadcast',
  'podcast',
  'encyclopediaArticle',
  'dictionaryEntry',
  'instantMessage',
  'standard',
]);

export const isFieldOf = (field: string, itemType: string, options: ReadOptions = {}): boolean =>
  field === 'DOI' && options.schemaVersion === 29 ? doiTypesOfSchema29.has(itemType) : typeFields.get(itemType)?.names.get(field) === field;

/**
 * Zotero keeps a field under the type's own name (a report's `number` as reportNumber), drops
 * what the type has no field for, and keeps a DOI it cannot store as an Extra line (Embedded
 * Metadata does so itself; the client does it for every translator's item).
 */
function complete(
  itemType: string,
  raw: Record<string, string | undefined>,
  creators: ZoteroItem['creators'],
  options: ReadOptions,
): ZoteroItem {
  const names = typeFields.get(itemType)?.names ?? new Map<string, string>();
  const fields: Record<string, string> = {};
  const extra: string[] = raw.extra ? [raw.extra] : [];
  for (const [name, value] of Object.entries(raw)) {
    if (!value?.trim() || name === 'extra') continue;
    const own = names.get(name);
    if (name === 'DOI' && !isFieldOf('DOI', itemType, options)) {
      if (!extra.some((line) => line.includes(`DOI: ${value}`))) extra.push(`DOI: ${value}`);
    } else if (own && (own !== 'DOI' || isFieldOf('DOI', itemType, options))) fields[own] = value.trim();
  }
  if (extra.length) fields.extra = extra.join('\n');
  return { itemType, fields, creators };
}

/** The value an Extra line gives a label ("Report Number: X"), as a person reads Extra. */
export function extraValue(item: ZoteroItem, label: string): string | undefined {
  const line = item.fields.extra?.split('\n').find((each) => each.startsWith(`${label}: `));
  return line?.slice(label.length + 2);
}

const cleanDoi = (value: string | undefined) => value?.match(/10\.\d{4,9}\/\S+/)?.[0];

/* ---------------------------------------------------------------- Embedded Metadata -- */

/** Embedded Metadata.js HIGHWIRE_MAPPINGS (the tags we can write). */
const highwireFields: Readonly<Record<string, string>> = {
  citation_title: 'title',
  citation_publication_date: 'date',
  citation_date: 'date',
  citation_journal_title: 'publicationTitle',
  citation_volume: 'volume',
  citation_issue: 'issue',
  citation_conference_title: 'conferenceName',
  citation_dissertation_institution: 'university',
  citation_technical_report_institution: 'institution',
  citation_technical_report_number: 'number',
  citation_publisher: 'publisher',
  citation_isbn: 'ISBN',
  citation_abstract: 'abstractNote',
  citation_doi: 'DOI',
  citation_public_url: 'url',
  citation_language: 'language',
};

/** Embedded Metadata.js init(): Highwire tags that decide the type outright. */
const highwireTypes: Readonly<Record<string, string>> = {
  citation_journal_title: 'journalArticle',
  citation_technical_report_institution: 'report',
  citation_conference_title: 'conferencePaper',
  citation_conference: 'conferencePaper',
  citation_book_title: 'bookSection',
  citation_inbook_title: 'bookSection',
  citation_dissertation_institution: 'thesis',
};

/** Embedded Metadata.js _prefixes: meta name prefixes handed to the RDF translator. */
const rdfPrefixes = new Set([
  'bib',
  'bibo',
  'dc',
  'dcterms',
  'prism',
  'foaf',
  'vcard',
  'link',
  'z',
  'eprint',
  'eprints',
  'og',
  'article',
  'book',
  'music',
  'video',
  'so',
  'codemeta',
  'rdf',
]);

/** RDF.js detectType: dc:type values (lower case, no spaces) that decide a type, beside Zotero's own type names. */
const dcTypeWords: Readonly<Record<string, string>> = {
  book: 'book',
  patent: 'patent',
  report: 'report',
  thesis: 'thesis',
  bookitem: 'bookSection',
  conferenceitem: 'conferencePaper',
  conferencepaper: 'conferencePaper',
  conferenceposter: 'conferencePaper',
  dataset: 'dataset',
  article: 'journalArticle',
  journalitem: 'journalArticle',
  journalarticle: 'journalArticle',
  workingpaper: 'report',
  webpage: 'webpage',
  homepage: 'webpage',
};
/** RDF.js detectType: the DCMI type words that only hint, ranked below the page's default type. */
const dcTypeHints: Readonly<Record<string, string>> = {
  event: 'presentation',
  image: 'artwork',
  movingimage: 'videoRecording',
  software: 'computerProgram',
  sound: 'audioRecording',
  stillimage: 'artwork',
  text: 'journalArticle',
};
/** RDF.js detectType: og:type. */
const ogTypes: Readonly<Record<string, string>> = {
  'video.movie': 'videoRecording',
  'video.episode': 'videoRecording',
  'video.tv_show': 'videoRecording',
  'video.other': 'videoRecording',
  book: 'book',
  'music.song': 'audioRecording',
  'music.album': 'audioRecording',
  website: 'webpage',
};
const ogHints: Readonly<Record<string, string>> = { article: 'journalArticle' };

/** The meta tags of a page, by name (or property), in document order. */
export function metaTags(html: string): [string, string][] {
  const document = parseDocument(html);
  const tags: [string, string][] = [];
  const visit = (node: { name?: string; attribs?: Record<string, string>; children?: unknown[] }) => {
    if (node.name === 'meta' && node.attribs) {
      const name = node.attribs.name ?? node.attribs.property;
      if (name && node.attribs.content) tags.push([name, node.attribs.content]);
    }
    for (const child of node.children ?? []) visit(child as typeof node);
  };
  visit(document);
  return tags;
}

/** Embedded Metadata's split of a meta name into an RDF statement: `DC.type` → dc:type, `og:video:duration` → video:duration. */
function rdfPredicate(tag: string): string | undefined {
  const parts = tag.split(/[.:_]/);
  let prefix = parts.length > 2 ? parts[1]!.toLowerCase() : undefined;
  let length = parts.length > 2 ? parts[0]!.length + parts[1]!.length + 1 : 0;
  if (!prefix || !rdfPrefixes.has(prefix)) {
    prefix = parts[0]!.toLowerCase();
    length = parts[0]!.length;
  }
  if (!rdfPrefixes.has(prefix)) return undefined;
  const property = tag.slice(length + 1);
  return `${prefix}:${property.charAt(0).toLowerCase()}${property.slice(1)}`;
}

/**
 * A record page as Embedded Metadata reads it (with the RDF translator it hands the DC, PRISM,
 * Open Graph and Zotero statements to): a Highwire type tag decides; else RDF.js's detectType
 * ranks z:itemType, then PRISM, eprints, og:type and dc:type, then the page's default (the
 * journal article Embedded Metadata guesses from citation_title), then the hints.
 */
export function embeddedMetadataItem(html: string, pageUrl: string, options: ReadOptions = {}): ZoteroItem {
  const tags = metaTags(html);
  const first = (name: string) => tags.find(([tag]) => tag === name)?.[1]?.trim() || undefined;
  const statements = new Map<string, string>();
  for (const [name, content] of tags) {
    const predicate = rdfPredicate(name);
    if (predicate && !statements.has(predicate)) statements.set(predicate, content);
  }
  const hwType = tags.map(([name]) => highwireTypes[name.slice(name.lastIndexOf('citation_'))]).findLast(Boolean);
  const guess = tags.some(([name]) => /citation_(title|series_title)$/.test(name)) ? 'journalArticle' : undefined;
  const zType = statements.get('z:itemType') ?? statements.get('z:type');
  const dcType = statements.get('dc:type') ?? statements.get('dcterms:type');
  const dcWord = dcType?.toLowerCase().replace(/\s/g, '');
  const og = statements.get('og:type');
  const rdfType =
    (zType && zoteroItemTypes.has(zType) ? zType : undefined) ??
    (og ? ogTypes[og] : undefined) ??
    (dcType && zoteroItemTypes.has(dcType) ? dcType : dcWord ? dcTypeWords[dcWord] : undefined) ??
    guess ??
    (og ? ogHints[og] : undefined) ??
    (dcWord ? dcTypeHints[dcWord] : undefined);
  const itemType = hwType ?? (statements.size ? (rdfType ?? 'webpage') : guess) ?? 'webpage';
  // RDF.js importItem, then Embedded Metadata's Highwire fields over it.
  const raw: Record<string, string | undefined> = {
    title: statements.get('dc:title') ?? statements.get('og:title'),
    publisher: statements.get('dc:publisher') ?? statements.get('dcterms:publisher'),
    date: statements.get('dc:date') ?? statements.get('dcterms:issued'),
    language: statements.get('dc:language'),
    runningTime: statements.get('video:duration'),
    DOI: cleanDoi(statements.get('dc:identifier')),
  };
  const prismNumber = statements.get('prism:number');
  if (prismNumber) raw[isFieldOf('issue', itemType) ? 'issue' : 'number'] = prismNumber;
  // The type properties (reportType, thesisType, websiteType …) all take dc:type.
  raw.type = dcType;
  for (const [tag, field] of Object.entries(highwireFields)) raw[field] = first(tag) ?? raw[field];
  raw.DOI = cleanDoi(raw.DOI);
  raw.url ??= first('citation_abstract_html_url') ?? first('citation_fulltext_html_url') ?? pageUrl;
  const creators = tags.filter(([name]) => name === 'citation_author').map(([, name]) => ({ creatorType: 'author', name }));
  return complete(itemType, raw, creators, options);
}

/* -------------------------------------------------------------------------- unAPI -- */

/** unAPI.js RECOGNIZABLE_FORMATS: the order of preference, whatever the server's order. */
const unapiPreference = ['rdf_zotero', 'rdf_bibliontology', 'marc', 'unimarc', 'marcxml', 'mods', 'ris', 'refer', 'bibtex', 'rdf_dc'];

/** The unAPI format name Zotero asks for, from a server's format list; undefined where it knows none. */
export function unapiChoice(formatsXml: string): { name: string; reads: string } | undefined {
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(formatsXml) as { formats?: { format?: unknown } };
  const found = new Map<string, string>();
  for (const format of ([] as Record<string, string>[]).concat((parsed.formats?.format as Record<string, string>[]) ?? [])) {
    const name = format['@_name'] ?? '';
    const lower = name.toLowerCase();
    let reads: string | undefined;
    if (['rdf_zotero', 'rdf_bibliontology', 'bibtex', 'endnote', 'rdf_dc'].includes(lower)) reads = lower;
    else if (lower === 'mods' || format['@_namespace_uri'] === 'http://www.loc.gov/mods/v3' || format['@_type'] === 'application/mods+xml')
      reads = 'mods';
    else if (/^marc\b/.test(lower) || format['@_type'] === 'application/marc') reads = 'marc';
    else if (/^ris\b/.test(lower)) reads = 'ris';
    if (reads) found.set(reads, name);
  }
  const reads = unapiPreference.find((each) => found.has(each));
  return reads ? { name: found.get(reads)!, reads } : undefined;
}

/* --------------------------------------------------------------------------- MODS -- */

type XmlNode = Record<string, unknown>;
const list = (value: unknown): XmlNode[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]) as XmlNode[];
const textOf = (value: unknown): string | undefined => {
  const node = list(value)[0] as unknown;
  if (node === undefined) return undefined;
  return typeof node === 'object' ? String((node as XmlNode)['#text'] ?? '') : String(node);
};

/** MODS.js dctGenres (spaces removed). */
const modsDctGenres: Readonly<Record<string, string>> = {
  image: 'artwork',
  interactiveresource: 'webpage',
  movingimage: 'videoRecording',
  software: 'computerProgram',
  sound: 'audioRecording',
  stillimage: 'artwork',
};
/** MODS.js fromTypeOfResource. */
const modsTypeOfResource: Readonly<Record<string, string>> = {
  cartographic: 'map',
  'sound recording-musical': 'audioRecording',
  'sound recording-nonmusical': 'audioRecording',
  'sound recording': 'audioRecording',
  'still image': 'artwork',
  'moving image': 'videoRecording',
  'software, multimedia': 'computerProgram',
};

/**
 * MODS.js processItemType and doImport: genre `authority="local"` naming a Zotero type, then
 * DCT genres, then typeOfResource, then a continuing host (journal article), any host (book
 * section), else a book. It reads no report or patent number.
 */
export function modsItem(xml: string, options: ReadOptions = {}): ZoteroItem {
  const mods = (new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml) as { mods: XmlNode }).mods;
  const genres = list(mods.genre);
  const genreOf = (authority: string) =>
    genres.filter((genre) => genre['@_authority'] === authority).map((genre) => String(genre['#text']));
  const host = list(mods.relatedItem).find((related) => related['@_type'] === 'host');
  const continuing = host && list(host.originInfo).some((info) => ['continuing', 'serial'].includes(String(textOf(info.issuance))));
  const itemType =
    genreOf('local').find((genre) => zoteroItemTypes.has(genre)) ??
    genreOf('dct')
      .map((genre) => modsDctGenres[genre.replace(/\s+/g, '').toLowerCase()])
      .find(Boolean) ??
    list(mods.typeOfResource)
      .map((type) => modsTypeOfResource[String(textOf(type)).trim()])
      .find(Boolean) ??
    (continuing ? 'journalArticle' : host ? 'bookSection' : 'book');
  const details = [...(host ? list(host.part) : []), ...list(mods.part)].flatMap((part) => list(part.detail));
  const detail = (type: string) => textOf(details.find((each) => each['@_type'] === type)?.number);
  const urls = list(mods.location).flatMap((location) => list(location.url));
  let url: string | undefined;
  for (const node of urls) {
    const usage = node['@_usage'];
    if ((!url || usage === 'primary' || usage === 'primary display') && node['@_access'] !== 'preview') url = textOf(node);
  }
  const origin = list(mods.originInfo)[0];
  return complete(
    itemType,
    {
      title: textOf(list(mods.titleInfo)[0]?.title),
      publicationTitle: host && textOf(list(host.titleInfo)[0]?.title),
      volume: detail('volume'),
      issue: detail('issue'),
      publisher: origin && textOf(origin.publisher),
      date: origin && textOf(origin.dateIssued),
      DOI: textOf(list(mods.identifier).find((identifier) => identifier['@_type'] === 'doi')),
      url,
      abstractNote: textOf(mods.abstract),
    },
    list(mods.name).map((name) => ({
      creatorType: 'author',
      name: list(name.namePart)
        .map((part) => textOf(part))
        .join(', '),
    })),
    options,
  );
}

/* --------------------------------------------------------------------- Zotero RDF -- */

const rdfNs = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  z: 'http://www.zotero.org/namespaces/export#',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  bib: 'http://purl.org/net/biblio#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  prism: 'http://prismstandard.org/namespaces/1.2/basic/',
  video: 'http://ogp.me/ns/video#',
};

/** The creator types RDF.js reads for a type (schema's order), and from where: authors from bib:authors, others from z:<type>s. */
const creatorTypes: Readonly<Record<string, readonly string[]>> = {
  videoRecording: ['creator', 'director', 'producer', 'scriptwriter', 'castMember', 'contributor'],
  audioRecording: ['performer', 'composer', 'wordsBy', 'contributor'],
  computerProgram: ['programmer', 'contributor'],
  presentation: ['presenter', 'contributor'],
  patent: ['inventor', 'attorneyAgent', 'contributor'],
};

/**
 * A Zotero RDF document as RDF.js reads one: z:itemType decides the type (with the item's
 * dc:description as Extra); dc:identifier "DOI …" is the DOI and a dcterms:URI the url;
 * prism:number the issue, or the type's number where it has no issue; dc:publisher the
 * type's publisher field; video:duration the running time.
 */
export function zoteroRdfItem(xml: string, options: ReadOptions = {}): ZoteroItem {
  const root = (new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml) as XmlNode)['rdf:RDF'] as XmlNode;
  // The document's own prefixes, checked against the namespaces RDF.js knows.
  const prefixOf = new Map<string, string>();
  for (const [attribute, uri] of Object.entries(root)) if (attribute.startsWith('@_xmlns:')) prefixOf.set(String(uri), attribute.slice(8));
  const name = (ns: keyof typeof rdfNs, local: string) => `${prefixOf.get(rdfNs[ns]) ?? `?${ns}`}:${local}`;
  const node = list(root[name('rdf', 'Description')])[0] ?? {};
  const get = (ns: keyof typeof rdfNs, local: string) => list(node[name(ns, local)]);
  const literal = (ns: keyof typeof rdfNs, local: string) => textOf(get(ns, local));
  const zType = literal('z', 'itemType');
  const itemType = zType && zoteroItemTypes.has(zType) ? zType : 'journalArticle';
  const container = get('dcterms', 'isPartOf')
    .map((part) => list(part[name('bib', 'Journal')])[0])
    .find(Boolean);
  const raw: Record<string, string | undefined> = {
    title: literal('dc', 'title'),
    publicationTitle: container && textOf(container[name('dc', 'title')]),
    volume: literal('prism', 'volume'),
    publisher: literal('dc', 'publisher'),
    date: literal('dc', 'date'),
    abstractNote: literal('dcterms', 'abstract'),
    language: literal('dc', 'language'),
    runningTime: literal('video', 'duration'),
    extra: zType ? literal('dc', 'description') : undefined,
  };
  const number = literal('prism', 'number');
  if (number) raw[isFieldOf('issue', itemType) ? 'issue' : 'number'] = number;
  for (const identifier of get('dc', 'identifier')) {
    if (typeof identifier !== 'object') {
      const value = String(identifier);
      if (value.slice(0, value.indexOf(' ')).toUpperCase() === 'DOI') raw.DOI = value.slice(4);
      else raw.DOI ??= cleanDoi(value);
    } else {
      const uri = list(identifier[name('dcterms', 'URI')])[0];
      if (uri) raw.url = textOf(uri[name('rdf', 'value')]);
    }
  }
  const people = (element: unknown, creatorType: string) =>
    list(element)
      .flatMap((holder) => list(holder[name('rdf', 'Seq')]))
      .flatMap((seq) => list(seq[name('rdf', 'li')]))
      .map((li) => list(li[name('foaf', 'Person')])[0] ?? {})
      .map((person) => ({
        creatorType,
        name: [textOf(person[name('foaf', 'surname')]), textOf(person[name('foaf', 'givenName')])].filter(Boolean).join(', '),
      }));
  const types = creatorTypes[itemType] ?? ['author', 'contributor', 'editor'];
  const creators = types.flatMap((type) =>
    type === 'author' ? people(node[name('bib', 'authors')], type) : people(node[name('z', `${type}s`)], type),
  );
  return complete(itemType, raw, creators, options);
}

/* ---------------------------------------------------------------------------- RIS -- */

/** RIS.js exportTypeMap (read back as the import map) and the degenerate import types we might meet. */
const risTypes: Readonly<Record<string, string>> = {
  ART: 'artwork',
  SOUND: 'audioRecording',
  BOOK: 'book',
  CHAP: 'bookSection',
  COMP: 'computerProgram',
  CONF: 'conferencePaper',
  DATA: 'dataset',
  MPCT: 'film',
  JOUR: 'journalArticle',
  PAT: 'patent',
  SLIDE: 'presentation',
  RPRT: 'report',
  THES: 'thesis',
  VIDEO: 'videoRecording',
  ELEC: 'webpage',
  GEN: 'journalArticle',
  MULTI: 'videoRecording',
  MUSIC: 'audioRecording',
  WEB: 'webpage',
};

type RisRule = string | Readonly<Record<string, readonly string[] | string>>;

/** RIS.js fieldMap, the tags we write (`__default` for every type not named). */
const risFieldMap: Readonly<Record<string, RisRule>> = {
  AB: 'abstractNote',
  DO: 'DOI',
  UR: 'url',
  TI: 'title',
  AU: {
    __default: 'creators/author',
    'creators/composer': ['audioRecording'],
    'creators/director': ['film', 'videoRecording'],
    'creators/inventor': ['patent'],
    'creators/programmer': ['computerProgram'],
  },
  CY: { __default: 'place', repositoryLocation: ['dataset'], __exclude: ['conferencePaper'] },
  DA: { __default: 'date', issueDate: ['patent'] },
  PY: { __default: 'date', issueDate: ['patent'] },
  IS: { __default: 'issue', numberOfVolumes: ['bookSection'], __exclude: ['dataset'] },
  LA: { __default: 'language', programmingLanguage: ['computerProgram'] },
  M1: { seriesNumber: ['book'], system: ['computerProgram'], applicationNumber: ['patent'] },
  NV: { __default: 'numberOfVolumes', identifier: ['dataset'], __exclude: ['bookSection'] },
  PB: {
    __default: 'publisher',
    label: ['audioRecording'],
    distributor: ['film'],
    assignee: ['patent'],
    institution: ['report'],
    repository: ['dataset'],
    university: ['thesis'],
    company: ['computerProgram'],
    studio: ['videoRecording'],
  },
  SN: { __default: 'ISBN', ISSN: ['journalArticle'], patentNumber: ['patent'], reportNumber: ['report'] },
  SP: { __default: 'pages', numPages: ['book', 'thesis'], runningTime: ['film'] },
  VL: { __default: 'volume', __exclude: ['patent', 'webpage'] },
  KW: 'tags',
  N1: 'notes',
};

/** RIS.js degenerateImportFieldMap: consulted only where the fieldMap gives a tag no field for the type. */
const risDegenerateMap: Readonly<Record<string, RisRule>> = {
  ID: '__ignore',
  IS: { versionNumber: ['dataset'] },
  JO: { __default: 'journalAbbreviation', conferenceName: ['conferencePaper'] },
  M1: { __default: 'extra', issue: ['journalArticle'], numberOfVolumes: ['bookSection'], accessDate: ['webpage'] },
  M2: 'extra',
  M3: 'DOI',
};

function risField(rules: readonly Readonly<Record<string, RisRule>>[], tag: string, itemType: string): string | undefined {
  for (const rules_ of rules) {
    const rule = rules_[tag];
    if (rule === undefined) continue;
    if (typeof rule === 'string') return rule;
    const named = Object.entries(rule).find(
      ([field, types]) => !field.startsWith('__') && Array.isArray(types) && types.includes(itemType),
    );
    if (named) return named[0];
    const excluded = Array.isArray(rule.__exclude) && rule.__exclude.includes(itemType);
    if (typeof rule.__default === 'string' && !excluded) return rule.__default;
  }
  return undefined;
}

/**
 * One RIS record as RIS.js imports it: TY by its type map, each tag by the fieldMap then the
 * degenerate map; M2 (and an M1 no type claims) is Extra; a field the type lacks is dropped;
 * JO is the journal abbreviation, which stands in for a missing journal title.
 */
export function risItem(ris: string, options: ReadOptions = {}): ZoteroItem {
  const entries = ris
    .split(/\r?\n/)
    .map((line) => /^([A-Z][A-Z0-9]) {2}- ?(.*)$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => [match[1]!, match[2]!.trim()] as const);
  const itemType = risTypes[entries.find(([tag]) => tag === 'TY')?.[1] ?? ''] ?? 'journalArticle';
  const raw: Record<string, string | undefined> = {};
  const extra: string[] = [];
  const creators: { creatorType: string; name: string }[] = [];
  for (const [tag, value] of entries) {
    if (tag === 'TY' || tag === 'ER' || !value) continue;
    const field = risField([risFieldMap, risDegenerateMap], tag, itemType);
    if (!field || field === '__ignore' || field === 'tags' || field === 'notes') continue;
    if (field.startsWith('creators/')) creators.push({ creatorType: field.slice(9), name: value });
    else if (field === 'extra') extra.push(value);
    // Called from unAPI (a parent translator), RIS.js keeps every field; the item drops those its type lacks.
    else raw[field] ??= value;
  }
  raw.publicationTitle ??= raw.journalAbbreviation;
  raw.extra = extra.length ? extra.join('\n') : undefined;
  raw.DOI = cleanDoi(raw.DOI);
  return complete(itemType, raw, creators, options);
}

import { XMLParser } from 'fast-xml-parser';
import { parseDocument } from 'htmlparser2';

/**
 * What Zotero makes of our pages, as its translators' rules say (zotero/translators:
 * Embedded Metadata, RDF, MODS, unAPI), restated here for the capture tests: Zotero's
 * translation-server is not on npm, so the tests read our pages with these rules instead.
 * Only the rules our pages meet are restated, and each says which translator holds it.
 */

export interface ZoteroItem {
  readonly itemType: string;
  readonly fields: Readonly<Record<string, string>>;
  readonly creators: readonly string[];
}

/** Fields a type keeps under its own name where Zotero stores a base field (publisher, number). */
const baseFieldNames: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  report: { publisher: 'institution', number: 'reportNumber' },
  dataset: { publisher: 'repository' },
  videoRecording: { publisher: 'studio' },
  patent: { number: 'patentNumber' },
  thesis: { publisher: 'university' },
};

/** Fields each type has at all (Zotero's schema); a field a type lacks is dropped, as Zotero drops it. */
const typeFields: Readonly<Record<string, readonly string[]>> = {
  journalArticle: ['title', 'publicationTitle', 'volume', 'issue', 'DOI', 'date'],
  report: ['title', 'institution', 'reportNumber', 'DOI', 'date'],
  dataset: ['title', 'repository', 'number', 'DOI', 'date'],
  videoRecording: ['title', 'studio', 'runningTime', 'date'],
  patent: ['title', 'patentNumber', 'date'],
  thesis: ['title', 'university', 'DOI', 'date'],
  conferencePaper: ['title', 'publisher', 'DOI', 'date'],
  book: ['title', 'publisher', 'DOI', 'date'],
  document: ['title', 'publisher', 'date'],
  webpage: ['title', 'date'],
};

function item(itemType: string, raw: Record<string, string | undefined>, creators: readonly string[]): ZoteroItem {
  const names = baseFieldNames[itemType] ?? {};
  const allowed = new Set(typeFields[itemType] ?? ['title', 'date']);
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const own = names[name] ?? name;
    if (value && allowed.has(own)) fields[own] = value;
  }
  return { itemType, fields, creators };
}

/** Embedded Metadata: Highwire tags that name a type outright (they win over everything else). */
const highwireTypes: Readonly<Record<string, string>> = {
  citation_journal_title: 'journalArticle',
  citation_technical_report_institution: 'report',
  citation_conference_title: 'conferencePaper',
  citation_conference: 'conferencePaper',
  citation_book_title: 'bookSection',
  citation_dissertation_institution: 'thesis',
};

/** RDF translator: og:type values that name a type. */
const ogTypes: Readonly<Record<string, string>> = {
  'video.movie': 'videoRecording',
  'video.episode': 'videoRecording',
  'video.tv_show': 'videoRecording',
  'video.other': 'videoRecording',
  book: 'book',
  'music.song': 'audioRecording',
  website: 'webpage',
};

/** RDF translator: DC.type values (lower case, spaces removed) that name a type, and those that only hint at one. */
const dcTypes: Readonly<Record<string, string>> = {
  book: 'book',
  patent: 'patent',
  report: 'report',
  thesis: 'thesis',
  bookitem: 'bookSection',
  conferencepaper: 'conferencePaper',
  conferenceitem: 'conferencePaper',
  dataset: 'dataset',
  article: 'journalArticle',
  journalarticle: 'journalArticle',
  workingpaper: 'report',
};
const dcGuesses: Readonly<Record<string, string>> = {
  movingimage: 'videoRecording',
  sound: 'audioRecording',
  software: 'computerProgram',
  text: 'journalArticle',
  image: 'artwork',
};

/** The meta tags of a page's head, by name (or property), in document order. */
export function metaTags(html: string): [string, string][] {
  const document = parseDocument(html);
  const tags: [string, string][] = [];
  const visit = (node: { type?: string; name?: string; attribs?: Record<string, string>; children?: unknown[] }) => {
    if (node.name === 'meta' && node.attribs) {
      const name = node.attribs.name ?? node.attribs.property;
      if (name && node.attribs.content) tags.push([name, node.attribs.content]);
    }
    for (const child of node.children ?? []) visit(child as typeof node);
  };
  visit(document);
  return tags;
}

/** Embedded Metadata (with the RDF translator it hands DC, PRISM and Open Graph statements to). */
export function embeddedMetadataItem(html: string): ZoteroItem {
  const tags = metaTags(html);
  const first = (name: string) => tags.find(([tag]) => tag === name)?.[1];
  const highwire = tags.map(([name]) => highwireTypes[name]).find(Boolean);
  const guess = first('citation_title') ? 'journalArticle' : undefined;
  const og = first('og:type');
  const dc = first('DC.type')?.toLowerCase().replace(/\s/g, '');
  // Priority of the RDF translator's detectType: og before DC, then the default (Embedded
  // Metadata's guess from citation_title), then the mere hints; a Highwire type overrides all.
  const itemType = highwire ?? (og && ogTypes[og]) ?? (dc && dcTypes[dc]) ?? guess ?? (dc && dcGuesses[dc]) ?? 'webpage';
  // PRISM's number is read as the issue, and moves to number where the type has no issue.
  const prismNumber = first('prism.number');
  const issue = first('citation_issue') ?? prismNumber;
  const hasIssue = (typeFields[itemType] ?? []).includes('issue');
  return item(
    itemType,
    {
      title: first('citation_title') ?? first('DC.title'),
      publicationTitle: first('citation_journal_title'),
      volume: first('citation_volume'),
      issue: hasIssue ? issue : undefined,
      number: first('citation_technical_report_number') ?? (hasIssue ? undefined : issue),
      institution: first('citation_technical_report_institution'),
      publisher: first('citation_publisher') ?? first('DC.publisher'),
      runningTime: first('video:duration') ?? first('og:video:duration'),
      DOI: first('citation_doi'),
      date: first('citation_publication_date') ?? first('citation_date'),
    },
    tags.filter(([name]) => name === 'citation_author').map(([, value]) => value),
  );
}

const zoteroItemTypes = new Set([
  ...Object.keys(typeFields),
  'bookSection',
  'computerProgram',
  'audioRecording',
  'presentation',
  'artwork',
]);

type XmlNode = Record<string, unknown>;
const list = (value: unknown): XmlNode[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]) as XmlNode[];
const text = (value: unknown): string | undefined => {
  const node = list(value)[0] as unknown;
  if (node === undefined) return undefined;
  return typeof node === 'object' ? String((node as XmlNode)['#text'] ?? '') : String(node);
};

/**
 * MODS (what unAPI hands Zotero): the type from `genre authority="local"` when it is a
 * Zotero type; else a host whose issuance is continuing makes a journal article, any other
 * host a book section, and nothing a document. The DOI is kept only where the type has one.
 */
export function modsItem(xml: string): ZoteroItem {
  const mods = (new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml) as { mods: XmlNode }).mods;
  const genres = list(mods.genre);
  const local = genres.find((genre) => genre['@_authority'] === 'local');
  const localType = local && String(local['#text']);
  const host = list(mods.relatedItem).find((related) => related['@_type'] === 'host');
  const continuing = host && list(host.originInfo).some((info) => ['continuing', 'serial'].includes(String(text(info.issuance))));
  const itemType =
    localType && zoteroItemTypes.has(localType) ? localType : continuing ? 'journalArticle' : host ? 'bookSection' : 'document';
  const details = host ? list(list(host.part)[0]?.detail) : [];
  const detail = (type: string) => text(details.find((each) => each['@_type'] === type)?.number);
  const identifiers = list(mods.identifier);
  return item(
    itemType,
    {
      title: text(list(mods.titleInfo)[0]?.title),
      publicationTitle: host && text(list(host.titleInfo)[0]?.title),
      volume: detail('volume'),
      issue: detail('issue'),
      publisher: text(list(mods.originInfo)[0]?.publisher),
      DOI: text(identifiers.find((identifier) => identifier['@_type'] === 'doi')),
      date: text(list(mods.originInfo)[0]?.dateIssued),
    },
    list(mods.name).map((name) =>
      list(name.namePart)
        .map((part) => text(part))
        .join(', '),
    ),
  );
}

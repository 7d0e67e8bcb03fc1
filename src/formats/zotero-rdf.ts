import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { parseAuthor } from './authors';
import { citationMeta, zoteroTypes } from './citation-meta';
import { citationUrl, recordNumber, recordNumberLabel } from './csl';
import { workKind, type WorkKind } from './work-kinds';
import { dayOfTimestamp } from './dates';
import { generatedNote } from './generated-mark';
import { firstKnown } from './known-values';
import { runningTime } from './running-time';
import { escapeXml } from './text';

/**
 * A record as Zotero RDF, the format Zotero's unAPI translator prefers to every other, so a
 * capture of a search page takes it over MODS, which has no place for a report or patent
 * number. Written in the vocabulary Zotero's RDF translator reads: the type as `z:itemType`,
 * the report, patent or dataset number as `prism:number` (which Zotero moves to the type's
 * number field), the address as a `dcterms:URI` identifier, the DOI as a "DOI …" identifier,
 * a journal as the `bib:Journal` the item is part of, and what the type has no field for as
 * lines of Extra (`dc:description`, which Zotero RDF reads as Extra), a recording's running
 * time as the `video:duration` Zotero reads it from.
 */

const namespaces = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  z: 'http://www.zotero.org/namespaces/export#',
  dc: 'http://purl.org/dc/elements/1.1/',
  dcterms: 'http://purl.org/dc/terms/',
  bib: 'http://purl.org/net/biblio#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  prism: 'http://prismstandard.org/namespaces/1.2/basic/',
  video: 'http://ogp.me/ns/video#',
};

/**
 * Whom the record's persons are to each type: its primary creator in Zotero's schema (the
 * same in schema 29, which the translation-server pins, and today's); Zotero RDF names each
 * creator type but the author as `z:<type>s`.
 */
const creatorTypeOfKind: Partial<Record<WorkKind, string>> = {
  video: 'director',
  audio: 'performer',
  software: 'programmer',
  presentation: 'presenter',
  patent: 'inventor',
};

/** Kinds whose Zotero type has a number field (reportNumber, patentNumber, a dataset's identifier). */
const numbered = new Set<WorkKind>(['report', 'patent', 'dataset']);

/**
 * Kinds whose Zotero type had no DOI field before Zotero's schema 33: the DOI is also an
 * Extra line there, which Zotero moves into the DOI field once the type has one.
 */
const doiInExtra = new Set<WorkKind>([
  'report',
  'thesis',
  'video',
  'audio',
  'software',
  'presentation',
  'patent',
  'book',
  'book-chapter',
  'webpage',
  'other',
]);

const element = (name: string, text: string | undefined) => (text ? `    <${name}>${escapeXml(text)}</${name}>` : '');

export function recordToZoteroRdf(deployment: Deployment, record: ApiRecord, generated = false, origin?: string): string {
  const kind = workKind(deployment, record);
  const tags = citationMeta(deployment, record);
  const value = (name: string) => tags.find(([tag]) => tag === name)?.[1];
  const url = citationUrl(deployment, record, origin);
  const creatorType = creatorTypeOfKind[kind];
  const persons = tags
    .filter(([name]) => name === 'citation_author')
    .map(([, raw]) => {
      const { family, given } = parseAuthor(raw);
      const givenName = given ? `<foaf:givenName>${escapeXml(given)}</foaf:givenName>` : '';
      return `        <rdf:li><foaf:Person><foaf:surname>${escapeXml(family)}</foaf:surname>${givenName}</foaf:Person></rdf:li>`;
    });
  const creatorElement = creatorType ? `z:${creatorType}s` : 'bib:authors';
  const creators = persons.length ? [`    <${creatorElement}><rdf:Seq>`, ...persons, `    </rdf:Seq></${creatorElement}>`] : [];
  const journal = value('citation_journal_title');
  const number = recordNumber(deployment, record);
  const doi = value('citation_doi');
  const language = firstKnown(record.language);
  const extra = [
    generated ? generatedNote : undefined,
    numbered.has(kind) || !number ? undefined : `${recordNumberLabel(deployment, record) ?? 'Number'}: ${number}`,
    doi && doiInExtra.has(kind) ? `DOI: ${doi}` : undefined,
    // A program has no language field; its language is no programming language.
    kind === 'software' && language ? `Language: ${language}` : undefined,
  ].filter(Boolean);
  const day = dayOfTimestamp(firstKnown(record.publication_date));
  const date = day && `${String(day.year).padStart(4, '0')}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<rdf:RDF ${Object.entries(namespaces)
      .map(([prefix, uri]) => `xmlns:${prefix}="${uri}"`)
      .join(' ')}>`,
    `  <rdf:Description${url ? ` rdf:about="${escapeXml(url)}"` : ''}>`,
    element('z:itemType', zoteroTypes[kind]),
    element('dc:title', value('citation_title') ?? `Record ${record.repo_id}`),
    ...creators,
    journal ? `    <dcterms:isPartOf><bib:Journal>${element('dc:title', journal).trim()}</bib:Journal></dcterms:isPartOf>` : '',
    element('prism:volume', value('citation_volume')),
    element('prism:number', journal ? value('citation_issue') : numbered.has(kind) ? number : undefined),
    element('dc:publisher', value('DC.publisher')),
    element('dc:date', date),
    element('dc:identifier', doi && `DOI ${doi}`),
    url ? `    <dc:identifier><dcterms:URI><rdf:value>${escapeXml(url)}</rdf:value></dcterms:URI></dc:identifier>` : '',
    element('dcterms:abstract', value('citation_abstract')),
    ...(value('citation_keywords')?.split('; ') ?? []).map((topic) => element('dc:subject', topic)),
    kind === 'software' ? '' : element('dc:language', language),
    kind === 'video' || kind === 'audio' ? element('video:duration', runningTime(deployment, record)) : '',
    element('dc:description', extra.join('\n')),
    '  </rdf:Description>',
    '</rdf:RDF>',
    '',
  ];
  return lines.filter(Boolean).join('\n');
}

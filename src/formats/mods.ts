import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { parseAuthor } from './authors';
import { citationMeta, zoteroTypes } from './citation-meta';
import { citationUrl, recordNumber, recordNumberLabel } from './csl';
import { workKind } from './work-kinds';
import { dayOfTimestamp } from './dates';
import { generatedNote } from './generated-mark';
import { escapeXml } from './text';

/**
 * A record as MODS 3 XML (Library of Congress), one of the formats unAPI offers. Built from
 * the same meta tags as the record page, so the three capture paths agree. Written as
 * Zotero's MODS translator reads it: the item type as `genre authority="local"`, a
 * journal as a host whose `issuance` is continuing (volume and issue in its `part`), the
 * issuer (institution, repository, studio, university) as `originInfo/publisher`, the DOI as
 * `identifier type="doi"` and the address as `location/url` (usage "primary display"). Zotero's
 * MODS translator reads no report or patent number, so unAPI also offers Zotero RDF, which
 * Zotero prefers (zotero-rdf.ts); the number stays here as an identifier for other readers.
 */
export function recordToMods(deployment: Deployment, record: ApiRecord, generated = false, origin?: string): string {
  const tags = citationMeta(deployment, record);
  const value = (name: string) => tags.find(([tag]) => tag === name)?.[1];
  const element = (name: string, text: string | undefined, attributes = '') =>
    text ? `  <${name}${attributes}>${escapeXml(text)}</${name}>` : '';
  const names = tags
    .filter(([name]) => name === 'citation_author')
    .map(([, raw]) => {
      const { family, given } = parseAuthor(raw);
      return [
        '  <name type="personal">',
        `    <namePart type="family">${escapeXml(family)}</namePart>`,
        ...(given ? [`    <namePart type="given">${escapeXml(given)}</namePart>`] : []),
        '    <role><roleTerm type="text" authority="marcrelator">author</roleTerm></role>',
        '  </name>',
      ].join('\n');
    });
  const day = dayOfTimestamp(typeof record.publication_date === 'string' ? record.publication_date : undefined);
  const date = day && `${String(day.year).padStart(4, '0')}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
  const journal = value('citation_journal_title');
  const url = citationUrl(deployment, record, origin);
  const publisher = value('DC.publisher');
  const detail = (type: string, number: string | undefined) =>
    number ? `<detail type="${type}"><number>${escapeXml(number)}</number></detail>` : '';
  const host = journal
    ? [
        '  <relatedItem type="host">',
        `    <titleInfo><title>${escapeXml(journal)}</title></titleInfo>`,
        '    <originInfo><issuance>continuing</issuance></originInfo>',
        `    <part>${detail('volume', value('citation_volume'))}${detail('issue', value('citation_issue'))}</part>`.replace(
          '<part></part>',
          '',
        ),
        '  </relatedItem>',
      ]
    : [];
  const originInfo = [
    publisher ? `<publisher>${escapeXml(publisher)}</publisher>` : '',
    date ? `<dateIssued encoding="w3cdtf">${escapeXml(date)}</dateIssued>` : '',
    journal ? '' : '<issuance>monographic</issuance>',
  ].join('');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7">',
    `  <titleInfo><title>${escapeXml(value('citation_title') ?? `Record ${record.repo_id}`)}</title></titleInfo>`,
    ...names,
    element('genre', zoteroTypes[workKind(deployment, record)], ' authority="local"'),
    element('genre', value('DC.type'), ' authority="dct"'),
    originInfo ? `  <originInfo>${originInfo}</originInfo>` : '',
    element('abstract', value('citation_abstract')),
    generated ? element('note', generatedNote) : '',
    ...(value('citation_keywords')?.split('; ') ?? []).map((topic) => `  <subject><topic>${escapeXml(topic)}</topic></subject>`),
    value('citation_language')
      ? `  <language><languageTerm type="text">${escapeXml(value('citation_language')!)}</languageTerm></language>`
      : '',
    ...host,
    element('identifier', value('citation_doi'), ' type="doi"'),
    element('identifier', recordNumber(deployment, record), ` type="${(recordNumberLabel(deployment, record) ?? 'number').toLowerCase()}"`),
    element('identifier', record.repo_id, ` type="local"`),
    url ? `  <location><url usage="primary display">${escapeXml(url)}</url></location>` : '',
    '</mods>',
    '',
  ];
  return lines.filter(Boolean).join('\n');
}

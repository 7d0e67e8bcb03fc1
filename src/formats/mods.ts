import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { parseAuthor } from './authors';
import { citationMeta } from './citation-meta';
import { dayOfTimestamp } from './dates';
import { escapeXml } from './text';

/**
 * A record as MODS 3 XML (Library of Congress), one of the formats unAPI offers. Built from
 * the same meta tags as the record page, so the three capture paths agree.
 */
export function recordToMods(deployment: Deployment, record: ApiRecord): string {
  const tags = citationMeta(deployment, record);
  const value = (name: string) => tags.find(([tag]) => tag === name)?.[1];
  const element = (name: string, text: string | undefined, attributes = '') => (text ? `  <${name}${attributes}>${escapeXml(text)}</${name}>` : '');
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
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<mods xmlns="http://www.loc.gov/mods/v3" version="3.7">',
    `  <titleInfo><title>${escapeXml(value('citation_title') ?? `Record ${record.repo_id}`)}</title></titleInfo>`,
    ...names,
    element('genre', value('DC.type')),
    date ? `  <originInfo><dateIssued encoding="w3cdtf">${escapeXml(date)}</dateIssued></originInfo>` : '',
    element('abstract', value('citation_abstract')),
    ...(value('citation_keywords')?.split('; ') ?? []).map((topic) => `  <subject><topic>${escapeXml(topic)}</topic></subject>`),
    value('citation_language') ? `  <language><languageTerm type="text">${escapeXml(value('citation_language')!)}</languageTerm></language>` : '',
    journal ? `  <relatedItem type="host"><titleInfo><title>${escapeXml(journal)}</title></titleInfo></relatedItem>` : '',
    element('identifier', value('citation_doi'), ' type="doi"'),
    element('identifier', record.repo_id, ` type="local"`),
    '</mods>',
    '',
  ];
  return lines.filter(Boolean).join('\n');
}

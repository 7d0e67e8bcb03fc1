import type { ApiRecord } from '../deployments/registry';
import type { Deployment, FieldDef } from '../deployments/schema';
import { markXmlRecord, noGeneratedIds, type GeneratedIds } from './generated-mark';
import { escapeXml, valuesOf } from './text';

/**
 * Records as the spec's XML: a `records` root, one `record` each, list fields in a plural
 * container of singular children, links as `<link rel=".." href=".."/>`.
 */

function fieldToXml(field: FieldDef, value: unknown): string {
  const element = field.xml ?? field.name;
  if (field.kind === 'links') {
    const links = Array.isArray(value) ? (value as { rel?: unknown; href?: unknown }[]) : [];
    if (links.length === 0) return `<${element}/>`;
    const items = links.map(
      (link) => `<${field.item} rel="${escapeXml(String(link.rel ?? ''))}" href="${escapeXml(String(link.href ?? ''))}"/>`,
    );
    return `<${element}>${items.join('')}</${element}>`;
  }
  if (field.kind === 'list') {
    const items = valuesOf(value);
    if (items.length === 0) return `<${element}/>`;
    return `<${element}>${items.map((item) => `<${field.item}>${escapeXml(item)}</${field.item}>`).join('')}</${element}>`;
  }
  const [text] = valuesOf(value);
  return text === undefined || text === '' ? `<${element}/>` : `<${element}>${escapeXml(text)}</${element}>`;
}

export function recordToXml(deployment: Deployment, record: ApiRecord): string {
  return `<record>${deployment.fields.map((field) => fieldToXml(field, record[field.name])).join('')}</record>`;
}

export const xmlPrologue = '<?xml version="1.0" encoding="UTF-8"?>\n<records>';
export const xmlEpilogue = '</records>\n';

/** The document in parts, a record at a time: a server writes a large page without holding it whole as one string. */
export function* recordsToXmlParts(deployment: Deployment, records: Iterable<ApiRecord>): Generator<string> {
  yield xmlPrologue;
  let first = true;
  for (const record of records) {
    yield first ? recordToXml(deployment, record) : `\n${recordToXml(deployment, record)}`;
    first = false;
  }
  yield xmlEpilogue;
}

/**
 * The document the app writes: the spec's, with an `x_generated_note` element in each
 * generated demo record (generated-mark.ts). The API's answers never carry it.
 */
export function recordsToXml(deployment: Deployment, records: Iterable<ApiRecord>, generated: GeneratedIds = noGeneratedIds): string {
  const items = [...records].map((record) => {
    const xml = recordToXml(deployment, record);
    return generated.has(record.repo_id) ? markXmlRecord(xml) : xml;
  });
  return xmlPrologue + items.join('\n') + xmlEpilogue;
}

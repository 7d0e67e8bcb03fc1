import type { ApiRecord } from '../../deployments/registry';
import type { Deployment, FieldDef } from '../../deployments/schema';
import { parseAuthor } from '../../formats/authors';
import { dayOfTimestamp, formatDay } from '../../formats/dates';
import { authorsShownFolded, detailFields, linkName, publicationLine, roleField, roleTexts } from '../../formats/record-layout';
import { plainLine, recordTexts, storedText, type RecordText } from '../../formats/record-text';
import { toHtml } from '../../formats/rich-text';
import { doiOf, escapeXml, isHttpUrl } from '../../formats/text';

/**
 * A record page's content as plain HTML inside the app's root, for readers and clients that
 * run no script, in the app's order (formats/record-layout.ts): the title, the authors (a long
 * list folded in a <details>), the publication line, the abstract, the DOI and the record's
 * links, then the details with identifiers and codes last. The app replaces it when it starts.
 */
export function recordPageBody(deployment: Deployment, record: ApiRecord, generated: boolean): string {
  const title = roleTexts(deployment, record, 'title')[0];
  const abstract = roleTexts(deployment, record, 'description')[0];
  return [
    '<article class="record server-record">',
    `<h1 class="record__title">${title ? inline(title) : 'Untitled record'}</h1>`,
    generated ? '<p class="notice generated-notice"><strong>Generated demo record.</strong> Do not cite it.</p>' : '',
    authorsHtml(roleTexts(deployment, record, 'authors')),
    publicationHtml(deployment, record),
    abstract
      ? `<section class="record__abstract"><h2>${escapeXml(roleField(deployment, 'description')!.label)}</h2>` +
        `<div class="record__abstract-text">${toHtml(storedText(abstract))}</div></section>`
      : '',
    linksHtml(deployment, record, generated),
    detailsHtml(deployment, record),
    '</article>',
  ].join('');
}

/** Rich text on one line (a title, a name): its markup read, then escaped. */
const inline = (text: RecordText) => escapeXml(plainLine(text));

const nameOf = (raw: RecordText) => {
  const { family, given } = parseAuthor(storedText(raw));
  return family ? (given ? `${family}, ${given}` : family) : plainLine(raw);
};

function authorsHtml(authors: readonly RecordText[]): string {
  if (authors.length === 0) return '';
  const items = (list: readonly RecordText[]) => list.map((raw) => `<li>${escapeXml(nameOf(raw))}</li>`).join('');
  const shown = authorsShownFolded(authors.length);
  const rest = authors.slice(shown);
  return (
    `<div class="record__authors"><ul class="people" aria-label="Authors">${items(authors.slice(0, shown))}</ul>` +
    (rest.length > 0 ? `<details><summary>and ${rest.length} more authors</summary><ul class="people">${items(rest)}</ul></details>` : '') +
    '</div>'
  );
}

function publicationHtml(deployment: Deployment, record: ApiRecord): string {
  const line = publicationLine(deployment, record);
  if (!line) return '';
  const source = [line.venue ? `<cite>${inline(line.venue)}</cite>` : '', line.numbering ? escapeXml(line.numbering) : '']
    .filter(Boolean)
    .join(' ');
  const parts = [source, line.year === undefined ? '' : String(line.year), line.publisher ? escapeXml(line.publisher) : ''];
  return `<p class="record__publication">${parts.filter(Boolean).join(', ')}</p>`;
}

function linksHtml(deployment: Deployment, record: ApiRecord, generated: boolean): string {
  const items: string[] = [];
  const doi = roleTexts(deployment, record, 'doi')[0];
  if (doi) {
    const resolvable = doiOf(plainLine(doi));
    items.push(
      resolvable && !generated
        ? `<a href="${escapeXml(resolvable.url)}">DOI ${escapeXml(resolvable.doi)}</a>`
        : `DOI ${escapeXml(resolvable?.doi ?? plainLine(doi))}`,
    );
  }
  const links = Array.isArray(record.links) ? (record.links as { rel?: unknown; href?: unknown }[]) : [];
  for (const link of links) {
    if (typeof link?.rel !== 'string' || !isHttpUrl(link.href)) continue;
    items.push(`<a href="${escapeXml(link.href)}">${escapeXml(linkName(link.rel))}</a>`);
  }
  return items.length > 0 ? `<ul class="record-actions" aria-label="Links">${items.map((item) => `<li>${item}</li>`).join('')}</ul>` : '';
}

function detailsHtml(deployment: Deployment, record: ApiRecord): string {
  const fields = detailFields(deployment, record);
  if (fields.length === 0) return '';
  const rows = fields.map((field) => `<dt>${escapeXml(field.label)}</dt><dd>${valueHtml(field, record[field.name])}</dd>`);
  return `<section class="record__details"><h2>Details</h2><dl class="record-fields">${rows.join('')}</dl></section>`;
}

function valueHtml(field: FieldDef, value: unknown): string {
  if (field.kind === 'number') return typeof value === 'number' ? String(value) : '';
  const items = recordTexts(value).map((item) => {
    const text = plainLine(item);
    if (field.kind === 'date') {
      const day = dayOfTimestamp(storedText(item));
      return day ? `<time datetime="${formatDay(day, 'YYYY-MM-DD')}">${formatDay(day, 'YYYY-MM-DD')}</time>` : escapeXml(text);
    }
    return /^\S+$/.test(text) && isHttpUrl(text) ? `<a href="${escapeXml(text)}">${escapeXml(text)}</a>` : escapeXml(text);
  });
  return items.length === 1 ? items[0]! : `<ul class="value-list">${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;
}

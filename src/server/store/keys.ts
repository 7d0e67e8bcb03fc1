import type { Deployment, KeyName } from '../../deployments/schema';
import { canonicalOrcid, parseAuthor } from '../../formats/authors';
import { bareDoi, valuesOf } from '../../formats/text';
import type { StoredRecord } from './types';

/**
 * Exact-match keys: the normalised values a record is found under by `identifier`,
 * `doi`, `language`, `country`, site codes and the other exact parameters. The store
 * writes them at ingest and the server normalises parameter values the same way.
 */

export type KeyNormalization = 'doi' | 'identifier' | undefined;

export function normalizeKeyValue(value: string, normalization?: KeyNormalization): string {
  const folded = value.normalize('NFKC').trim().toLowerCase();
  if (normalization === 'doi') return bareDoi(folded);
  // An ORCID iD is one identifier however it is written (authors' iDs are stored so too).
  if (normalization === 'identifier') return canonicalOrcid(folded)?.toLowerCase() ?? bareDoi(folded).replace(/\s+/g, '');
  return folded.replace(/\s+/g, ' ');
}

const normalizationOf: Partial<Record<KeyName, KeyNormalization>> = { doi: 'doi', identifier: 'identifier' };

/** Multi-valued identifier fields join values with "; ". */
const splitValues = (key: KeyName, value: string) => (key === 'identifier' ? value.split(';') : [value]);

export function keysOf(deployment: Deployment, stored: StoredRecord): [KeyName, string][] {
  const keys = new Set<string>();
  const add = (key: KeyName, raw: string) => {
    for (const part of splitValues(key, raw)) {
      const value = normalizeKeyValue(part, normalizationOf[key]);
      if (value) keys.add(`${key}\u0000${value}`);
    }
  };
  for (const field of deployment.fields) {
    for (const key of field.keys ?? []) {
      for (const value of valuesOf(stored.record[field.name])) add(key, value);
    }
  }
  for (const author of valuesOf(stored.record.authors)) {
    const { orcid } = parseAuthor(author);
    if (orcid) add('identifier', orcid);
  }
  if (stored.site) add('site', stored.site);
  if (stored.generated) add('origin', 'generated');
  const links = Array.isArray(stored.record.links) ? (stored.record.links as { rel?: unknown }[]) : [];
  add('has_fulltext', String(links.some((link) => link.rel === 'fulltext')));
  return [...keys].map((entry) => entry.split('\u0000') as [KeyName, string]);
}

import { searchModel } from '../deployments/search-model';
import type { Deployment } from '../deployments/schema';
import type { KeyName, ValueFolding } from '../deployments/key-names';
import { canonicalOrcid, parseAuthor } from './authors';
import { bareDoi, valuesOf } from './text';
import { recordFacetValues, valueFoldings, type RecordFacetValues } from './value-folding';

/**
 * Exact-match keys: the normalised values a record is found under by `identifier`,
 * `doi`, `language`, `country`, site codes and the other exact parameters. Every store
 * writes them at ingest and the server normalises parameter values the same way.
 */

export type KeyNormalization = 'doi' | 'identifier' | ValueFolding | undefined;

/**
 * A key is kept, and a parameter compared, to this many characters, as facet values are
 * (facet-values.ts): a key is a B-tree key, and one too long for its page takes a page of
 * its own, so records of long author names made the store grow eight times what the
 * source sent. No identifier, code or name comes near it.
 */
export const maxKeyChars = 300;

export function normalizeKeyValue(value: string, normalization?: KeyNormalization): string {
  return normalizedKey(value, normalization).slice(0, maxKeyChars);
}

function normalizedKey(value: string, normalization?: KeyNormalization): string {
  if (normalization && normalization !== 'doi' && normalization !== 'identifier') return valueFoldings[normalization](value);
  const folded = value.normalize('NFKC').trim().toLowerCase();
  if (normalization === 'doi') return bareDoi(folded);
  // An ORCID iD is one identifier however it is written (authors' iDs are stored so too).
  if (normalization === 'identifier') return canonicalOrcid(folded)?.toLowerCase() ?? bareDoi(folded).replace(/\s+/g, '');
  return folded.replace(/\s+/g, ' ');
}

/** Multi-valued identifier fields join values with "; ". */
const splitValues = (key: KeyName, value: string) => (key === 'identifier' ? value.split(';') : [value]);

/** A record with the store-only data its keys are drawn from. */
export interface KeyedRecord {
  readonly record: Readonly<Record<string, unknown>>;
  /** Submitter code where the deployment has no field for it (see KeyName `site`). */
  readonly site?: string;
  readonly generated?: boolean;
}

/** `facetValues`: the record's facet values, when its facet rows are drawn too (value-folding.ts, recordFacetValues). */
export function keysOf(
  deployment: Deployment,
  stored: KeyedRecord,
  facetValues: RecordFacetValues = recordFacetValues(stored.record),
): [KeyName, string][] {
  const keys = new Set<string>();
  const add = (key: KeyName, raw: string, normalization?: KeyNormalization) => {
    for (const part of splitValues(key, raw)) {
      const value = normalizeKeyValue(part, normalization);
      if (value) keys.add(`${key}\u0000${value}`);
    }
  };
  for (const { key, fields, normalize } of searchModel(deployment).index.keys) {
    for (const field of fields) {
      for (const value of valuesOf(stored.record[field])) add(key, value, normalize);
    }
  }
  for (const author of valuesOf(stored.record.authors)) {
    const { orcid } = parseAuthor(author);
    if (orcid) add('identifier', orcid, 'identifier');
  }
  // Folded facet values, under the key their extension parameter selects by (deployments/facets.ts).
  for (const facet of searchModel(deployment).index.facets) {
    const { field, key, fold } = facet;
    if (!field || !key || !fold) continue;
    // Folded as normalizeKeyValue folds them.
    for (const { folded } of facetValues(facet)) if (folded) keys.add(`${key}\u0000${folded.slice(0, maxKeyChars)}`);
  }
  if (stored.site) add('site', stored.site);
  const links = Array.isArray(stored.record.links) ? (stored.record.links as { rel?: unknown }[]) : [];
  add('has_fulltext', String(links.some((link) => link.rel === 'fulltext')));
  return [...keys].map((entry) => entry.split('\u0000') as [KeyName, string]);
}

import { createHash } from 'node:crypto';
import { deployments } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { searchModel, soleSearchColumns, storeFingerprint, storeParts, type StorePart } from '../../deployments/search-model';

/**
 * What the deployment table asks of a store (sort and date columns, exact-match keys,
 * search columns and their weights, facets), by deployment and part. Each store puts its
 * digest in its schema version and the parts beside it, so a store built under another
 * table is refused with a message naming what changed and what must be rebuilt, instead
 * of answering new sorts, weights and facets wrongly, or silently with nothing.
 */
export type ModelParts = Readonly<Record<string, Readonly<Record<StorePart, string>>>>;

export function modelParts(tables: readonly Deployment[] = deployments): ModelParts {
  // One store keeps every deployment's tokens' lists in the same columns (engine/postings/token-columns.ts).
  const tokenLists = soleSearchColumns(tables);
  return Object.fromEntries(tables.map((deployment) => [deployment.key, storeFingerprint(searchModel(deployment), tokenLists)]));
}

/** A short digest of the parts. */
export function modelDigest(tables: readonly Deployment[] = deployments): string {
  return createHash('sha256')
    .update(JSON.stringify(modelParts(tables)))
    .digest('hex')
    .slice(0, 12);
}

/** What a store keeps of each part: what a change of it makes stale. */
const keptAs: Record<StorePart, string> = {
  'sort and date columns': 'sort columns',
  'exact-match keys': 'exact-match keys',
  'search columns': 'full-text index',
  'column weights': 'weighted postings',
  facets: 'facet values',
  'token lists': 'postings by column',
};

/**
 * The changes between the table a store was built under (its stored parts, as JSON) and
 * this one, in words: `LIT column weights (its weighted postings)`. Empty when the parts are
 * unknown (a store from before they were kept) or the same.
 */
export function modelChanges(stored: string | undefined, current: ModelParts = modelParts()): string[] {
  let before: Partial<Record<string, Partial<Record<StorePart, string>>>>;
  try {
    before = stored ? (JSON.parse(stored) as typeof before) : {};
  } catch {
    return [];
  }
  if (!stored || typeof before !== 'object' || before === null) return [];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(current)])];
  return keys.flatMap((key) => {
    if (!before[key]) return [`${key} is new (all of its tables)`];
    if (!current[key]) return [];
    const changed = storeParts.filter((part) => before[key]![part] !== current[key]![part]);
    return changed.length ? [`${key} ${changed.map((part) => `${part} (its ${keptAs[part]})`).join(', ')}`] : [];
  });
}

import type { ApiRecord } from '../deployments/registry';
import type { Deployment } from '../deployments/schema';
import { parseAuthor } from './authors';
import { dayOfTimestamp } from './dates';
import { foldText } from './fold-text';
import { firstKnown, hasKnownValue, knownValues } from './known-values';
import { roleValue } from './record-roles';
import { toPlainLine } from './rich-text';
import { bareDoi } from './text';

/**
 * Which records are the same work, for "N versions": the same DOI, or the same folded title,
 * first author's surname and publication year. The parts are compared as the reference
 * matcher compares a reference with a record (app/references/match-score.ts), so a work the
 * matcher calls "the same work" is one version group here.
 */

/** A surname as compared: folded, letters only ("Wood-Charlson" and "Wood Charlson" agree). */
export const surnameKey = (name: string) => (foldText(name).match(/\p{L}+/gu) ?? []).join('');

/** A title as compared: markup and entities read, folded, its words only (case and punctuation aside). */
export const titleKey = (title: string) => (foldText(toPlainLine(title)).match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

/**
 * The keys that make two records one work: each DOI (bare, any case), and the folded title
 * with the first author's surname and the year where the record gives all three. Records
 * sharing any key are one work.
 */
export function workKeys(deployment: Deployment, record: ApiRecord): string[] {
  const keys = knownValues(roleValue(deployment, record, 'doi'))
    .map((doi) => bareDoi(doi).toLowerCase())
    .filter(Boolean)
    .map((doi) => `doi ${doi}`);
  const title = titleKey(firstKnown(roleValue(deployment, record, 'title')) ?? '');
  const author = firstKnown(roleValue(deployment, record, 'authors'));
  const surname = author ? surnameKey(parseAuthor(author).family) : '';
  const year = dayOfTimestamp(firstKnown(roleValue(deployment, record, 'published')))?.year;
  if (title && surname && year !== undefined) keys.push(`work ${title}|${surname}|${year}`);
  return keys;
}

/**
 * Items grouped by shared keys (transitively: A and B share a DOI, B and C a title, author
 * and year, so all three are one work). Groups are in the order of their first item, and
 * each group's items in their own order. Linear in the items and their keys.
 */
export function groupByKeys<T>(items: readonly T[], keysOf: (item: T) => readonly string[]): T[][] {
  const parent = items.map((_, index) => index);
  const root = (index: number): number => {
    let at = index;
    while (parent[at] !== at) {
      parent[at] = parent[parent[at]!]!;
      at = parent[at]!;
    }
    return at;
  };
  const owner = new Map<string, number>();
  items.forEach((item, index) => {
    for (const key of keysOf(item)) {
      const other = owner.get(key);
      if (other === undefined) owner.set(key, index);
      else {
        const [a, b] = [root(other), root(index)];
        // The earlier item stays the root, so a group is found under its first item.
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  });
  const groups = new Map<number, T[]>();
  items.forEach((item, index) => {
    const at = root(index);
    const group = groups.get(at);
    if (group) group.push(item);
    else groups.set(at, [item]);
  });
  return [...groups.values()];
}

/** How complete a record is: the number of its deployment's fields it fills with a known value. */
export function completeness(deployment: Deployment, record: ApiRecord): number {
  return deployment.fields.filter((field) => hasKnownValue(field, record[field.name])).length;
}

/** A work's versions with the most complete first (the earliest of equals), the others in their order. */
export function representativeFirst(deployment: Deployment, versions: readonly ApiRecord[]): ApiRecord[] {
  let best = 0;
  let bestScore = -1;
  versions.forEach((record, index) => {
    const score = completeness(deployment, record);
    if (score > bestScore) [best, bestScore] = [index, score];
  });
  return [versions[best]!, ...versions.filter((_, index) => index !== best)];
}

/** Records grouped as works, each with its most complete version first. */
export function groupWorks(deployment: Deployment, records: readonly ApiRecord[]): ApiRecord[][] {
  return groupByKeys(records, (record) => workKeys(deployment, record)).map((versions) => representativeFirst(deployment, versions));
}

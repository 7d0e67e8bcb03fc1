import { z } from 'zod';
import { persistent } from '../ui/persistent-store';
import { webStorage, type KeyValueStorage } from '../ui/web-storage';
import {
  citationStyleSchema,
  defaultCitationStyle,
  repositoryStyleSchema,
  type CitationStyleId,
  type RepositoryStyleId,
} from './cite-styles';

/**
 * The last style chosen, so someone citing many records picks it once, and the styles of
 * the CSL repository chosen lately, offered first the next time.
 */

const storageKey = 'records-explorer:citation-style';
const recentKey = 'records-explorer:recent-citation-styles';
export const recentStylesKept = 6;

export interface RecentStyle {
  readonly id: RepositoryStyleId;
  readonly title: string;
}

const recentSchema = z
  .array(z.object({ id: repositoryStyleSchema, title: z.string().min(1).max(300) }))
  .transform((styles) => styles.slice(0, recentStylesKept));

type Store = KeyValueStorage | undefined;

const chosen = (storage: Store) =>
  persistent<CitationStyleId>({ storage, key: storageKey, schema: citationStyleSchema, empty: defaultCitationStyle, text: true });
const recentStyles = (storage: Store) => persistent<RecentStyle[]>({ storage, key: recentKey, schema: recentSchema, empty: [] });

export function readStylePreference(storage: Store = webStorage('localStorage')): CitationStyleId {
  return chosen(storage).kept().value;
}

/** Where storage is full or disabled, the choice just lasts for this dialog. */
export function writeStylePreference(style: CitationStyleId, storage: Store = webStorage('localStorage')): void {
  chosen(storage).set(style);
}

export function readRecentStyles(storage: Store = webStorage('localStorage')): RecentStyle[] {
  return recentStyles(storage).kept().value;
}

/** Puts a style first among the recent ones (once), keeping the last few; returns the new list. */
export function rememberRecentStyle(style: RecentStyle, storage: Store = webStorage('localStorage')): RecentStyle[] {
  const recent = [style, ...readRecentStyles(storage).filter((other) => other.id !== style.id)].slice(0, recentStylesKept);
  recentStyles(storage).set(recent);
  return recent;
}

import { z } from 'zod';
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

const recentSchema = z.array(z.object({ id: repositoryStyleSchema, title: z.string().min(1).max(300) }));

type Store = Pick<KeyValueStorage, 'getItem' | 'setItem'> | undefined;

export function readStylePreference(storage: Store = webStorage('localStorage')): CitationStyleId {
  const parsed = citationStyleSchema.safeParse(storage?.getItem(storageKey));
  return parsed.success ? parsed.data : defaultCitationStyle;
}

export function writeStylePreference(style: CitationStyleId, storage: Store = webStorage('localStorage')): void {
  try {
    storage?.setItem(storageKey, style);
  } catch {
    // Storage full or disabled: the choice just lasts for this dialog.
  }
}

export function readRecentStyles(storage: Store = webStorage('localStorage')): RecentStyle[] {
  let raw: unknown;
  try {
    raw = JSON.parse(storage?.getItem(recentKey) ?? '[]');
  } catch {
    return [];
  }
  const parsed = recentSchema.safeParse(raw);
  return parsed.success ? parsed.data.slice(0, recentStylesKept) : [];
}

/** Puts a style first among the recent ones (once), keeping the last few; returns the new list. */
export function rememberRecentStyle(style: RecentStyle, storage: Store = webStorage('localStorage')): RecentStyle[] {
  const recent = [style, ...readRecentStyles(storage).filter((other) => other.id !== style.id)].slice(0, recentStylesKept);
  try {
    storage?.setItem(recentKey, JSON.stringify(recent));
  } catch {
    // As above: remembered for this page only.
  }
  return recent;
}

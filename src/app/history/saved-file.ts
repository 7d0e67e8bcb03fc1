import { z } from 'zod';
import { savedSchema, validItems, type HistoryStore, type SavedSearch } from './history-store';

/**
 * The file a researcher exports and imports: the saved searches alone, so they travel between
 * browsers. Loaded with the history panel, not with the page.
 */

const exportSchema = z.object({
  format: z.literal('records-explorer-saved-searches'),
  version: z.literal(1),
  saved: z.array(z.unknown()),
});

export function exportSavedSearches(saved: readonly SavedSearch[]): string {
  return `${JSON.stringify({ format: 'records-explorer-saved-searches', version: 1, saved }, null, 2)}\n`;
}

export interface ImportResult {
  readonly added: number;
  readonly skipped: number;
}

/** Adds the saved searches of an exported file; throws an Error with a reader's message when the file is not one. */
export function importSavedSearches(store: HistoryStore, text: string): ImportResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new Error('This file is not JSON, so it holds no saved searches.');
  }
  const file = exportSchema.safeParse(raw);
  if (!file.success) throw new Error('This file is not a Records Explorer saved-searches export.');
  const added = store.addSaved(validItems(savedSchema, file.data.saved));
  return { added, skipped: file.data.saved.length - added };
}

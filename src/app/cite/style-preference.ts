import { citationStyleSchema, defaultCitationStyle, type CitationStyleId } from './cite-styles';

/** The last style chosen, so someone citing many records picks it once. */

const storageKey = 'records-explorer:citation-style';

export function readStylePreference(storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage()): CitationStyleId {
  const parsed = citationStyleSchema.safeParse(storage?.getItem(storageKey));
  return parsed.success ? parsed.data : defaultCitationStyle;
}

export function writeStylePreference(style: CitationStyleId, storage: Pick<Storage, 'setItem'> | undefined = safeLocalStorage()): void {
  try {
    storage?.setItem(storageKey, style);
  } catch {
    // Storage full or disabled: the choice just lasts for this dialog.
  }
}

function safeLocalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    // Reading localStorage throws where the browser blocks site data.
    return undefined;
  }
}

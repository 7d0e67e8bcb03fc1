import { useEffect, useMemo, useState } from 'react';
import type { Deployment } from '../../deployments/schema';
import { mainParam } from './form-params';
import type { Entries } from '../navigation/query-params';
import type { readSearchBox, SearchBox } from './search-box';

/**
 * The fielded-syntax reader loads on demand, outside the initial JavaScript: most searches
 * are words, and a quick look tells them apart from a box the reader must see.
 */

type Reader = typeof readSearchBox;
let reader: Reader | undefined;
let loading: Promise<Reader> | undefined;

export function loadSearchBoxReader(): Promise<Reader> {
  loading ??= import('./search-box').then((module) => (reader = module.readSearchBox));
  return loading;
}

const wordChar = /[\p{L}\p{N}]/u;

/**
 * A box surely holding words and no field: no colon, and some run that is not an operator
 * has a letter or digit (so the index keeps a word of it). Anything else goes to the reader.
 */
export function isPlainQuery(text: string): boolean {
  if (text.includes(':')) return false;
  return text.split(/[\s"()]+/).some((run) => run !== 'AND' && run !== 'OR' && run !== 'NOT' && wordChar.test(run));
}

/** The main box of a search URL: as it is, rewritten (fields), refused (a problem), or still being read. */
export function useSearchBox(deployment: Deployment, entries: Entries, extensions: boolean): SearchBox | { readonly kind: 'reading' } {
  const main = mainParam(deployment);
  const text = main ? entries.find(([name]) => name === main.name)?.[1] : undefined;
  const plain = text === undefined || isPlainQuery(text);
  const [loaded, setLoaded] = useState(reader !== undefined);
  useEffect(() => {
    if (!plain && !loaded) void loadSearchBoxReader().then(() => setLoaded(true));
  }, [plain, loaded]);
  return useMemo(() => {
    if (plain) return { kind: 'as-is' };
    const read = loaded ? reader : undefined;
    return read ? read(deployment, entries, extensions) : { kind: 'reading' };
  }, [plain, deployment, entries, extensions, loaded]);
}

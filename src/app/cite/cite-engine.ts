import type { CslItem } from '../../formats/csl';
import { toPlainLine } from '../../formats/rich-text';
import type { CslStyle } from './cite-styles';

/**
 * The citation engine (citation-js with citeproc) is large, and most visits never cite,
 * so it is imported only when the Cite dialog first needs it; the bundler makes it a
 * separate chunk. Styles not built into citation-js are fetched from `csl/` on first use.
 */

export interface CiteEntry {
  /** citeproc's HTML for one citation: to be sanitised, never inserted as is. */
  readonly html: string;
  readonly text: string;
}

export interface CiteEngine {
  /** One entry per item, in the order the style sorts a bibliography. */
  bibliography(items: readonly CslItem[], style: CslStyle): Promise<CiteEntry[]>;
}

/** Reads a shipped style file; injected in tests, fetched from the app's origin otherwise. */
export type StyleLoader = (file: string) => Promise<string>;

export class StyleLoadError extends Error {
  override readonly name = 'StyleLoadError';
}

export const fetchStyleFile: StyleLoader = async (file) => {
  const url = `${import.meta.env.BASE_URL}csl/${file}`;
  const response = await fetch(url, { headers: { Accept: 'application/xml, text/xml' } });
  const text = response.ok ? await response.text() : '';
  // A single-page-app fallback would answer 200 with index.html: check it is a style.
  if (!/<style[\s>]/.test(text)) throw new StyleLoadError(`The citation style ${file} could not be loaded.`);
  return text;
};

const locale = 'en-US';

/** An item as one style's guide wants its data: fields it misprints left out, an unknown place said so. */
function forStyle(item: CslItem, style: CslStyle): Record<string, unknown> {
  const omitted = new Set<string>(style.omit);
  const data: Record<string, unknown> = Object.fromEntries(Object.entries(item).filter(([name]) => !omitted.has(name)));
  const place = item['publisher-place'];
  if (place && style.placeForm && !omitted.has('publisher-place')) data['publisher-place'] = style.placeForm(place);
  if (style.unknownPlace && item.publisher && !place) data['publisher-place'] = style.unknownPlace;
  return data;
}

async function createEngine(loadStyle: StyleLoader): Promise<CiteEngine> {
  const [{ Cite, plugins }] = await Promise.all([import('@citation-js/core'), import('@citation-js/plugin-csl')]);
  const styles = plugins.config.get('@csl').styles;
  const pending = new Map<string, Promise<void>>();

  function ensureStyle(style: CslStyle): Promise<void> {
    if (styles.has(style.template)) return Promise.resolve();
    const file = style.file;
    if (!file) return Promise.reject(new StyleLoadError(`The citation style ${style.label} is not available.`));
    let loading = pending.get(style.template);
    if (!loading) {
      loading = loadStyle(file).then((xml) => {
        styles.add(style.template, xml);
      });
      // A failed fetch may succeed later (the user retries), so it is not remembered.
      loading.catch(() => pending.delete(style.template));
      pending.set(style.template, loading);
    }
    return loading;
  }

  return {
    async bibliography(items, style) {
      await ensureStyle(style);
      if (items.length === 0) return [];
      const options = { template: style.template, lang: locale, asEntryArray: true } as const;
      const rich = new Cite(items.map((item) => forStyle(item, style)));
      // Plain text has no markup to carry a formula: Unicode sub- and superscripts (CO₂, 10¹³) instead.
      const plain = new Cite(items.map((item) => forStyle({ ...item, ...(item.title ? { title: toPlainLine(item.title) } : {}) }, style)));
      const html = rich.format('bibliography', { ...options, format: 'html' });
      const text = plain.format('bibliography', { ...options, format: 'text' });
      const textById = new Map(text.map(([id, value]) => [id, value]));
      return html.map(([id, value]) => ({ html: value.trim(), text: (textById.get(id) ?? '').trim() }));
    },
  };
}

let shared: Promise<CiteEngine> | undefined;

/**
 * The engine, loaded once per page. A failed load (offline, say) is forgotten so that the
 * next attempt tries again.
 */
export function loadCiteEngine(loadStyle: StyleLoader = fetchStyleFile): Promise<CiteEngine> {
  if (loadStyle !== fetchStyleFile) return createEngine(loadStyle);
  if (!shared) {
    shared = createEngine(loadStyle);
    shared.catch(() => {
      shared = undefined;
    });
  }
  return shared;
}

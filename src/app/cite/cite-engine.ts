import type { CslItem } from '../../formats/csl-item';
import { localeFilePath } from '../../formats/csl-style-index';
import { toPlainLine } from '../../formats/rich-text';
import type { CslStyle } from './cite-styles';
import { correctedStyle } from './style-corrections';
import { oncePerPage, StyleLoadError, type FileLoader } from './style-catalog';

/**
 * The citation engine (citation-js with citeproc) is large, and most visits never cite,
 * so it is imported only when the Cite dialog first needs it; the bundler makes it a
 * separate chunk. Styles not built into citation-js, and locales it does not ship, are
 * fetched on first use.
 */

export interface CiteEntry {
  /** The CSL item's id (cslId), so a citation is known by its record whatever the style's order. */
  readonly id: string;
  /** citeproc's HTML for one citation: to be sanitised, never inserted as is. */
  readonly html: string;
  readonly text: string;
}

export interface CiteEngine {
  /** One entry per item, in the order the style sorts a bibliography. */
  bibliography(items: readonly CslItem[], style: CslStyle): Promise<CiteEntry[]>;
}

/** An item as one style's guide wants its data: fields it misprints left out, an unknown place said so. */
function forStyle(item: CslItem, style: CslStyle): Record<string, unknown> {
  const omitted = new Set<string>(style.omit);
  const data: Record<string, unknown> = Object.fromEntries(Object.entries(item).filter(([name]) => !omitted.has(name)));
  const place = item['publisher-place'];
  if (place && style.placeForm && !omitted.has('publisher-place')) data['publisher-place'] = style.placeForm(place);
  if (style.unknownPlace && item.publisher && !place) data['publisher-place'] = style.unknownPlace;
  return data;
}

/**
 * A list known to be cut short ends in a literal "et al." (csl.ts); styles join a last name
 * with "and" or "&", which before "et al." no guide writes ("Battaglia, D. J., & et al.").
 */
export function etAlWithoutConjunction(citation: string): string {
  return citation.replace(/(,?)\s*(?:&amp;|&#38;|&#x26;|&|\band)\s+(et al\.)/gi, '$1 $2');
}

interface Register {
  has(name: string): boolean;
  get(name: string): unknown;
  add(name: string, value: string): void;
}

async function createEngine(loadFile: FileLoader): Promise<CiteEngine> {
  const [{ Cite, plugins }] = await Promise.all([import('@citation-js/core'), import('@citation-js/plugin-csl')]);
  const config = plugins.config.get('@csl') as { styles: Register; locales: Register };
  const pending = new Map<string, Promise<void>>();

  /** Registers a file once; a failed fetch may succeed later (the user retries), so it is not remembered. */
  function ensure(register: Register, name: string, path: string | undefined, root: string, what: string): Promise<void> {
    if (register.has(name)) return Promise.resolve();
    if (!path) return Promise.reject(new StyleLoadError(`The ${what} is not available.`));
    const key = `${root}:${name}`;
    let loading = pending.get(key);
    if (!loading) {
      loading = loadFile(path).then((xml) => {
        if (!new RegExp(`<${root}[\\s>]`).test(xml)) throw new StyleLoadError(`The ${what} could not be loaded.`);
        register.add(name, root === 'style' ? correctedStyle(path, xml) : xml);
      });
      loading.catch(() => pending.delete(key));
      pending.set(key, loading);
    }
    return loading;
  }

  return {
    async bibliography(items, style) {
      const locale = style.locale ?? 'en-US';
      await Promise.all([
        ensure(config.styles, style.template, style.file, 'style', `citation style ${style.label}`),
        ensure(config.locales, locale, localeFilePath(locale), 'locale', `locale ${locale}`),
      ]);
      if (items.length === 0) return [];
      const rich = items.map((item) => forStyle(item, style));
      // Plain text has no markup to carry a formula: Unicode sub- and superscripts (CO₂, 10¹³) instead.
      const plain = items.map((item) => forStyle({ ...item, ...(item.title ? { title: toPlainLine(item.title) } : {}) }, style));
      const xml = config.styles.get(style.template);
      if (typeof xml === 'string' && !/<bibliography[\s>]/.test(xml)) {
        // A note style with no bibliography (some legal and history styles): each work as its own full note.
        const note = (item: Record<string, unknown>, format: 'html' | 'text') => {
          const options = { template: style.template, lang: locale, entry: String(item.id), citationsPre: [], citationsPost: [] };
          return new Cite([item]).format('citation', { ...options, format }).trim();
        };
        return rich.map((item, index) => ({
          id: String(item.id),
          html: etAlWithoutConjunction(note(item, 'html')),
          text: etAlWithoutConjunction(note(plain[index]!, 'text').replace(/ {2,}/g, ' ')),
        }));
      }
      const options = { template: style.template, lang: locale, asEntryArray: true } as const;
      const html = new Cite(rich).format('bibliography', { ...options, format: 'html' });
      const text = new Cite(plain).format('bibliography', { ...options, format: 'text' });
      const textById = new Map(text.map(([id, value]) => [id, value]));
      // Plain text joins a number in the margin to the entry with a space of its own ("1.  Fredrickson").
      return html.map(([id, value]) => ({
        id: String(id),
        html: etAlWithoutConjunction(value.trim()),
        text: etAlWithoutConjunction((textById.get(id) ?? '').replace(/ {2,}/g, ' ').trim()),
      }));
    },
  };
}

/** The engine, loaded once per page. */
export const loadCiteEngine = oncePerPage(createEngine);

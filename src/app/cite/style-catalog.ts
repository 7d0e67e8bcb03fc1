import { styleEntry, styleIndexPath, styleIndexSchema, type StyleEntry } from '../../formats/csl-style-index';
import { builtInStyle, isRepositoryStyleId, repositoryStyle, type CitationStyle, type CitationStyleId } from './cite-styles';

/**
 * The official CSL repository's styles as the app ships them: an index fetched the first
 * time someone searches or cites in one of them (never with the first page), and one file
 * per style fetched when it is chosen.
 */

/** Reads a file the app ships (a path under its base); injected in tests, fetched otherwise. */
export type FileLoader = (path: string) => Promise<string>;

export class StyleLoadError extends Error {
  override readonly name = 'StyleLoadError';
}

export const fetchShippedFile: FileLoader = async (path) => {
  let response: Response;
  try {
    // eslint-disable-next-line no-restricted-globals -- a file of the app's own bundle, not an API: a static host labels .csl files as it likes (nginx: application/octet-stream), so the client's format check does not apply
    response = await fetch(`${import.meta.env.BASE_URL}${path}`);
  } catch {
    throw new StyleLoadError(`${path} could not be loaded: the server did not answer.`);
  }
  // A single-page-app fallback would answer 200 with index.html.
  if (!response.ok || response.headers.get('Content-Type')?.startsWith('text/html'))
    throw new StyleLoadError(`${path} could not be loaded (HTTP ${response.status}).`);
  return response.text();
};

export interface StyleCatalog {
  /** Every style, in the order of their titles. */
  readonly entries: readonly StyleEntry[];
  readonly byId: ReadonlyMap<string, StyleEntry>;
  /** The shipped locale that serves a style's locale: itself, else one of its language, else none (en-US). */
  localeFor(tag: string | undefined): string | undefined;
}

async function readCatalog(load: FileLoader): Promise<StyleCatalog> {
  let raw: unknown;
  try {
    raw = JSON.parse(await load(styleIndexPath));
  } catch (error) {
    throw error instanceof StyleLoadError ? error : new StyleLoadError('The list of citation styles could not be read.');
  }
  const parsed = styleIndexSchema.safeParse(raw);
  if (!parsed.success) throw new StyleLoadError('The list of citation styles could not be read.');
  const entries = parsed.data.styles.map(styleEntry);
  const locales = parsed.data.locales;
  return {
    entries,
    byId: new Map(entries.map((entry) => [entry.id, entry])),
    localeFor(tag) {
      if (!tag) return undefined;
      if (locales.includes(tag)) return tag;
      const language = tag.split('-')[0]!.toLowerCase();
      return locales.find((locale) => locale.toLowerCase().split('-')[0] === language);
    },
  };
}

/**
 * What `create` makes from the shipped files, made once per page; a failure (offline, say)
 * is forgotten so that the next attempt tries again. Other loaders (tests) get their own.
 */
export function oncePerPage<T>(create: (load: FileLoader) => Promise<T>): (load?: FileLoader) => Promise<T> {
  let shared: Promise<T> | undefined;
  return (load = fetchShippedFile) => {
    if (load !== fetchShippedFile) return create(load);
    if (!shared) {
      shared = create(load);
      shared.catch(() => {
        shared = undefined;
      });
    }
    return shared;
  };
}

/** The catalog, read once per page. */
export const loadStyleCatalog = oncePerPage(readCatalog);

/** The style an id names: a built-in one at once, a repository one through the catalog. */
export async function resolveCitationStyle(id: CitationStyleId, load: FileLoader = fetchShippedFile): Promise<CitationStyle> {
  if (!isRepositoryStyleId(id)) return builtInStyle(id);
  const catalog = await loadStyleCatalog(load);
  const entry = catalog.byId.get(id.slice('csl:'.length));
  if (!entry) throw new StyleLoadError(`The citation style ${id.slice('csl:'.length)} is not in the shipped set.`);
  return repositoryStyle(entry, catalog.localeFor(entry.locale));
}

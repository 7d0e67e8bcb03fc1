import { z } from 'zod';

/**
 * The index of the official CSL style repository as the app ships it (`public/csl-styles/`,
 * written by `bin/vendor-csl-styles.ts`): every style, independent or dependent, as one compact
 * row, and one file per independent style. A dependent style (a journal that cites like its
 * publisher's house style) has no file of its own: it names the independent parent whose
 * file it uses, and keeps its own title and, where it sets one, its own locale.
 */

export const styleRowSchema = z.tuple([
  /** The style's id, the last part of its `http://www.zotero.org/styles/…` URI. */
  z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  /** Its title ("Physical Review Letters"). */
  z.string(),
  /** Its short title ("APS"), or "". */
  z.string(),
  /** Its fields ("physics chemistry"), space-separated, or "". */
  z.string(),
  /** Its citation format: "numeric", "author-date", "note", "author" or "label". */
  z.string(),
  /** The id of its independent parent for a dependent style, or "" for an independent one. */
  z.string(),
  /** The locale it asks for (`default-locale`), or "" for the reader's (en-US here). */
  z.string(),
]);

export const styleIndexSchema = z.object({
  /** Where the set came from: the repositories' commits, for the licence's attribution. */
  source: z.object({ styles: z.string(), locales: z.string() }),
  /** Locales shipped in `csl-locales/locales-<tag>.xml`. */
  locales: z.array(z.string()),
  styles: z.array(styleRowSchema),
});

export type StyleRow = z.infer<typeof styleRowSchema>;
export type StyleIndex = z.infer<typeof styleIndexSchema>;

/** One style of the index, read out of its row. */
export interface StyleEntry {
  readonly id: string;
  readonly title: string;
  readonly shortTitle?: string;
  readonly fields: readonly string[];
  readonly format: string;
  /** The independent style whose file renders it (itself for an independent style). */
  readonly file: string;
  readonly dependent: boolean;
  readonly locale?: string;
}

export function styleEntry([id, title, shortTitle, fields, format, parent, locale]: StyleRow): StyleEntry {
  return {
    id,
    title,
    ...(shortTitle ? { shortTitle } : {}),
    fields: fields ? fields.split(' ') : [],
    format,
    file: parent || id,
    dependent: Boolean(parent),
    ...(locale ? { locale } : {}),
  };
}

/** The URL path (under the app's base) of an independent style's file and of a locale. */
export const styleFilePath = (id: string) => `csl-styles/${id}.csl`;
export const localeFilePath = (tag: string) => `csl-locales/locales-${tag}.xml`;
export const styleIndexPath = 'csl-styles/index.json';

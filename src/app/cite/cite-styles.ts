import { z } from 'zod';
import { styleFilePath, type StyleEntry } from '../../formats/csl-style-index';

/**
 * The citation styles the Cite dialog offers. APA and Vancouver are built into citation-js;
 * MLA, Chicago, IEEE and Harvard (Cite Them Right) are CSL files shipped in `public/csl/`
 * (see its README for what was corrected) and fetched the first time they are chosen.
 * BibTeX is not a CSL style: it comes from the same codecs as the BibTeX exports.
 * Beside them, any style of the official CSL repository (`public/csl-styles/`), named
 * `csl:<its id>` and found through its index.
 */

export const builtInStyleIds = ['apa', 'mla', 'chicago', 'harvard', 'vancouver', 'ieee', 'bibtex', 'bibtex-full'] as const;
export type BuiltInStyleId = (typeof builtInStyleIds)[number];
export const repositoryStyleSchema = z.templateLiteral(['csl:', z.string()]).refine((id) => /^csl:[a-z0-9][a-z0-9-]{0,199}$/.test(id));
export const citationStyleSchema = z.union([z.enum(builtInStyleIds), repositoryStyleSchema]);
export type CitationStyleId = z.infer<typeof citationStyleSchema>;
export type RepositoryStyleId = z.infer<typeof repositoryStyleSchema>;

export const isRepositoryStyleId = (id: CitationStyleId): id is RepositoryStyleId => id.startsWith('csl:');

export interface CslStyle {
  readonly kind: 'csl';
  readonly id: Exclude<CitationStyleId, BibtexStyle['id']>;
  readonly label: string;
  /** The name citeproc knows the style by. */
  readonly template: string;
  /** Path under the app's base of the style's file, for styles citation-js does not build in (or that the app corrects). */
  readonly file?: string;
  /** The locale the style cites in (its terms and quotation marks); en-US when left out. */
  readonly locale?: string;
  /**
   * The guide writes titles in sentence case and the style file relies on the data being so
   * (CSL cannot lower a proper noun safely): a headline-case title is converted first.
   */
  readonly sentenceCase?: boolean;
  /**
   * CSL fields the style prints in a way its guide does not (Vancouver's "[Internet]" is the
   * descriptor; APA 7 and MLA 9 cite no place, and the hand-written table of the others has none).
   */
  readonly omit?: readonly ('genre' | 'publisher-place')[];
  /** What the style's guide writes for a publisher's place the record does not give. */
  readonly unknownPlace?: string;
  /** The place as the style's guide writes it ("Princeton, NJ" → Citing Medicine's "Princeton (NJ)"). */
  readonly placeForm?: (place: string) => string;
}

export interface BibtexStyle {
  readonly kind: 'bibtex';
  readonly id: 'bibtex' | 'bibtex-full';
  readonly label: string;
  /** The API's `@misc` entries, or entries typed by the kind of work with every field a reference manager keeps. */
  readonly variant: 'spec' | 'full';
}

export type CitationStyle = CslStyle | BibtexStyle;

export const citationStyles: readonly CitationStyle[] = [
  { kind: 'csl', id: 'apa', label: 'APA (7th edition)', template: 'apa', omit: ['publisher-place'], sentenceCase: true },
  {
    kind: 'csl',
    id: 'mla',
    label: 'MLA (9th edition)',
    template: 'modern-language-association',
    file: 'csl/modern-language-association.csl',
    omit: ['publisher-place'],
  },
  {
    kind: 'csl',
    id: 'chicago',
    label: 'Chicago (author-date)',
    template: 'chicago-author-date',
    file: 'csl/chicago-author-date.csl',
    omit: ['publisher-place'],
  },
  {
    kind: 'csl',
    id: 'harvard',
    label: 'Harvard (Cite Them Right)',
    template: 'harvard-cite-them-right',
    file: 'csl/harvard-cite-them-right.csl',
    // A British guide: its quotation marks are single (the style file names no locale).
    locale: 'en-GB',
    omit: ['publisher-place'],
  },
  {
    kind: 'csl',
    id: 'vancouver',
    label: 'Vancouver',
    template: 'vancouver',
    omit: ['genre'],
    unknownPlace: '[place unknown]',
    placeForm: (place) => place.replace(/, ([A-Z]{2})$/, ' ($1)'),
  },
  { kind: 'csl', id: 'ieee', label: 'IEEE', template: 'ieee', file: 'csl/ieee.csl', omit: ['publisher-place'] },
  { kind: 'bibtex', id: 'bibtex', label: 'BibTeX', variant: 'spec' },
  { kind: 'bibtex', id: 'bibtex-full', label: 'BibTeX (full)', variant: 'full' },
];

export function builtInStyle(id: BuiltInStyleId): CitationStyle {
  return citationStyles.find((style) => style.id === id)!;
}

/**
 * A style of the official repository as the engine renders it: a dependent style by its
 * parent's file, registered under a name no built-in style uses.
 */
export function repositoryStyle(entry: StyleEntry, locale: string | undefined): CslStyle {
  return {
    kind: 'csl',
    id: `csl:${entry.id}`,
    label: entry.title,
    template: `repository:${entry.file}`,
    file: styleFilePath(entry.file),
    ...(locale ? { locale } : {}),
  };
}

export const defaultCitationStyle: CitationStyleId = 'apa';

import type { ApiRecord } from '../deployments/registry';
import { isEtAl, surnameInitials } from './authors';
import { dayOfTimestamp } from './dates';
import { parseRichText, renderRich, type RichRenderer } from './rich-text';
import { generatedNote, noGeneratedIds, type GeneratedIds } from './generated-mark';
import { firstKnown, knownValues } from './known-values';
import { bareDoi } from './text';

/**
 * Records as BibTeX `@misc` entries with the spec's fields. Values are escaped so that a
 * BibTeX parser (citation-js's included) reads back exactly the text we wrote.
 */

const latexEscapes: Record<string, string> = {
  '\\': '\\textbackslash{}',
  // Not \{ and \}: a parser that counts braces (BibTeX's own included) would count those.
  '{': '\\textbraceleft{}',
  '}': '\\textbraceright{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

const controlChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export function escapeBibtex(text: string): string {
  return (
    text
      .replace(controlChars, '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/[\\{}&%$#_~^]/g, (char) => latexEscapes[char]!)
      // TeX ligatures (-- --- `` '') would read back as dashes and curly quotes; {} breaks them.
      .replace(/([-`'])(?=\1)/g, '$1{}')
  );
}

/**
 * Words with capitals, braced so a style that changes case keeps them (`{NSTX-U}`,
 * `{Alfvén}`); the punctuation that ends a word stays outside (`{CO\textsubscript{2}},`), as
 * does an opening parenthesis. Escapes hold no capitals, so a braced word keeps its escapes whole.
 */
const protectCapitals = (latex: string) =>
  latex.replace(/\S*\p{Lu}\S*/gu, (word) => {
    const [, open = '', core = word, close = ''] = /^([([]*)(.*?)([,.;:!?)\]]*)$/su.exec(word) ?? [];
    return core ? `${open}{${core}}${close}` : word;
  });

/** Unicode sub- and superscript characters, as the text they raise or lower. */
const unicodeScripts: Readonly<Record<'sub' | 'sup', Readonly<Record<string, string>>>> = {
  sub: Object.fromEntries([...'₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜ'].map((char, i) => [char, '0123456789+-=()aeoxhklmnpst'[i]!])),
  sup: Object.fromEntries([...'⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿ'].map((char, i) => [char, '0123456789+-=()in'[i]!])),
};

/**
 * pdfLaTeX cannot typeset Unicode sub- and superscripts (`CO₂`): each run becomes
 * `\textsubscript{…}` or `\textsuperscript{…}`, as the record's own `<sub>` markup does.
 */
function latexScripts(latex: string): string {
  return latex
    .replace(/[₀-₉₊₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜ]+/gu, (run) => `\\textsubscript{${[...run].map((char) => unicodeScripts.sub[char]).join('')}}`)
    .replace(/[⁰¹²³⁴-⁹⁺⁻⁼⁽⁾ⁱⁿ]+/gu, (run) => `\\textsuperscript{${[...run].map((char) => unicodeScripts.sup[char]).join('')}}`);
}

/** How a codec writes LaTeX: capitals braced (titles of full entries) and Unicode scripts as commands (full entries). */
export interface LatexForm {
  readonly capitals?: 'as-is' | 'protected';
  readonly scripts?: 'unicode' | 'commands';
}

/** Record markup as LaTeX: sub- and superscripts, emphasis, paragraphs; every text escaped. */
function latexRenderer(capitals: 'as-is' | 'protected', scripts: 'unicode' | 'commands'): RichRenderer<string> {
  return {
    text(text) {
      // escapeBibtex trims; the spaces around markup are kept here.
      const plain = escapeBibtex(text);
      if (!plain) return text ? ' ' : '';
      const escaped = scripts === 'commands' ? latexScripts(plain) : plain;
      const core = capitals === 'protected' ? protectCapitals(escaped) : escaped;
      return `${/^\s/.test(text) ? ' ' : ''}${core}${/\s$/.test(text) ? ' ' : ''}`;
    },
    element({ tag }, children) {
      const inner = children.join('').replace(/\s+/g, ' ').trim();
      if (tag === 'br') return ' \\newline ';
      if (tag === 'sub') return `\\textsubscript{${inner}}`;
      if (tag === 'sup') return `\\textsuperscript{${inner}}`;
      if (tag === 'i' || tag === 'em') return `\\emph{${inner}}`;
      if (tag === 'b' || tag === 'strong') return `\\textbf{${inner}}`;
      if (tag === 'p' || tag === 'ul' || tag === 'ol') return ` \\par ${inner} \\par `;
      if (tag === 'li') return ` \\par ${inner}`;
      return inner;
    },
  };
}
const latexRenderers = new Map<string, RichRenderer<string>>();

function rendererFor(capitals: 'as-is' | 'protected', scripts: 'unicode' | 'commands'): RichRenderer<string> {
  const key = `${capitals} ${scripts}`;
  let renderer = latexRenderers.get(key);
  if (!renderer) latexRenderers.set(key, (renderer = latexRenderer(capitals, scripts)));
  return renderer;
}

/**
 * A field value with its markup as LaTeX and entities decoded, on one line; with
 * `capitals: 'protected'` (titles of full entries), words with capitals braced; with
 * `scripts: 'commands'` (full entries), Unicode sub- and superscripts as LaTeX commands.
 */
export function latexOf(source: string, form: 'as-is' | 'protected' | LatexForm = 'as-is'): string {
  const { capitals = 'as-is', scripts = 'unicode' } = typeof form === 'string' ? { capitals: form } : form;
  return renderRich(parseRichText(source), rendererFor(capitals, scripts))
    .join('')
    .replace(/\s+/g, ' ')
    .replace(/^(\s*\\par\s*)+|(\s*\\par\s*)+$/g, '')
    .replace(/(\s*\\par\s*)+/g, ' \\par ')
    .trim();
}

/**
 * biblatex reads `doi` verbatim, so TeX escapes would become part of the DOI. Only what
 * could end the value early (braces, backslashes; absent from real DOIs) is dropped.
 */
export function verbatimBibtex(text: string): string {
  return text
    .replace(controlChars, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[{}\\]/g, '');
}

/** Citation keys allow letters, digits and a few marks; anything else becomes `_`. */
export function bibtexKey(prefix: string, repoId: string): string {
  return `${prefix}_${repoId}`.replace(/[^A-Za-z0-9_.:-]/g, '_');
}

/**
 * A person's name ("Surname, Given") as a BibTeX name. A name that contains the word "and"
 * (anywhere, any case: BibTeX splits on it) is braced so it is not split into two people.
 */
export function bibtexPerson(written: string): string {
  let name = escapeBibtex(written);
  // citation-js lets a trailing control symbol (\&, \{, …) swallow the space before the
  // next " and ", merging two people; an empty group after it keeps the separator.
  if (/\\[^A-Za-z]$/.test(name)) name += '{}';
  return /(^|\s)and(\s|$)/i.test(name) ? `{${name}}` : name;
}

export function recordToBibtex(record: ApiRecord, prefix: string, generated = false): string {
  const day = dayOfTimestamp(typeof record.publication_date === 'string' ? record.publication_date : undefined);
  const title = firstKnown(record.title);
  const description = firstKnown(record.description);
  const doi = firstKnown(record.doi);
  const place = firstKnown(record.country_publication);
  // Names left empty once affiliations and ORCIDs are stripped would read as extra authors.
  // A list known to be cut short ends in BibTeX's own "and others".
  const authors = knownValues(record.authors)
    .map((author) => (isEtAl(author) ? 'others' : bibtexPerson(surnameInitials(author))))
    .filter(Boolean);
  const fields: [string, string | undefined][] = [
    ['title', title && latexOf(title)],
    ['author', authors.length ? authors.join(' and ') : undefined],
    ['abstractNote', description && latexOf(description)],
    ['doi', doi && verbatimBibtex(bareDoi(doi))],
    ['place', place && escapeBibtex(place)],
    ['year', day && String(day.year)],
    ['month', day && String(day.month)],
    ['note', generated ? latexOf(generatedNote) : undefined],
  ];
  const body = fields
    .filter((entry): entry is [string, string] => Boolean(entry[1]))
    .map(([name, value]) => `  ${name} = {${value}}`)
    .join(',\n');
  return `@misc{${bibtexKey(prefix, record.repo_id)},\n${body}\n}\n`;
}

export function recordsToBibtex(records: readonly ApiRecord[], prefix: string, generated: GeneratedIds = noGeneratedIds): string {
  return records.map((record) => recordToBibtex(record, prefix, generated.has(record.repo_id))).join('\n');
}

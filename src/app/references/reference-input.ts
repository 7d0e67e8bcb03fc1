import { findDoi, findYear, isDoiOnly, numberMarker, type ReferenceFacts } from './reference-text';

/**
 * A pasted (or opened) reference list cut into references: BibTeX entries, RIS records,
 * lines that are only a DOI, and formatted references one per line or per paragraph,
 * numbered or not — in one pass over the lines, whatever the mix.
 */

export type ReferenceKind = 'doi' | 'formatted' | 'bibtex' | 'ris';

export interface ReferenceBlock {
  readonly kind: ReferenceKind;
  readonly text: string;
}

export interface ParsedReference extends ReferenceFacts {
  readonly kind: ReferenceKind;
  /** The reference as pasted (at most maxReferenceLength characters). */
  readonly text: string;
  /** Why nothing can be looked up (no DOI and no title). */
  readonly problem?: string;
}

/** Most references checked in one run: a long paper's reference list, not a library. */
export const maxReferencesPerRun = 500;
/** Longest text accepted at all (a 5 MB BibTeX file is cut into entries; more is refused). */
export const maxInputBytes = 8_000_000;
/** One BibTeX entry or RIS record longer than this is cut off: no reference is that long. */
const maxEntryLength = 50_000;

export class UnreadableInputError extends Error {
  override readonly name = 'UnreadableInputError';
}

/**
 * Text, not a binary file: NUL bytes, many control characters or many undecodable bytes
 * (U+FFFD after a UTF-8 read) mean an image, a PDF or an archive.
 */
export function checkText(text: string): void {
  if (text.length > maxInputBytes) {
    throw new UnreadableInputError(
      `This is ${(text.length / 1e6).toFixed(1)} million characters; at most ${maxInputBytes / 1e6} million can be checked. Split the list.`,
    );
  }
  let odd = 0;
  const sample = Math.min(text.length, 100_000);
  for (let index = 0; index < sample; index++) {
    const code = text.charCodeAt(index);
    if (code === 0)
      throw new UnreadableInputError('This is not text (it holds NUL bytes): open a reference list as plain text, BibTeX or RIS.');
    if ((code < 32 && code !== 9 && code !== 10 && code !== 13) || code === 0xfffd) odd += 1;
  }
  if (odd > 16 && odd > sample / 50) {
    throw new UnreadableInputError(
      'This does not look like text (it holds many control or undecodable characters): open a reference list as plain text, BibTeX or RIS.',
    );
  }
}

const bibtexStart = /^\s*@\s*([a-zA-Z]+)\s*([{(])/;
const risStart = /^TY {1,2}- ?/;
const risEnd = /^ER {1,2}-/;
const doiStart = /10\.\d{4,9}\//;

/**
 * Whether a line ends as a reference ends: a full stop, a closing bracket, or a DOI. Only the
 * line's last word is looked at, so a reference's every line costs its own length once.
 */
function endsLikeReference(line: string): boolean {
  const last = line.at(-1);
  if (last === '.' || last === ')' || last === ']') return true;
  const word = line.slice(line.lastIndexOf(' ') + 1);
  const doi = doiStart.exec(word);
  return doi !== null && doi.index + doi[0].length < word.length;
}

/**
 * The lines of a paragraph cut into formatted references and DOIs. Each line is looked at once:
 * whether the reference so far has a year or a DOI is carried along, never searched for again
 * in the text gathered, so a paragraph of a million characters costs a million steps.
 */
function paragraphReferences(lines: readonly string[], out: ReferenceBlock[]): void {
  let numberedLines = 0;
  for (const line of lines) if (numberMarker.test(line)) numberedLines += 1;
  const numbered = numberedLines >= Math.min(2, lines.length) && numberMarker.test(lines[0]!);
  let parts: string[] = [];
  let length = 0;
  let hasFacts = false;
  let complete = false;
  const flush = () => {
    const text = parts.join(' ').trim();
    if (text) out.push({ kind: isDoiOnly(text) ? 'doi' : 'formatted', text });
    parts = [];
    length = 0;
    hasFacts = false;
    complete = false;
  };
  for (const raw of lines) {
    const line = raw.trim();
    if (isDoiOnly(line)) {
      flush();
      parts.push(line);
      flush();
      continue;
    }
    const starts = numbered ? numberMarker.test(line) : complete && /^[\p{Lu}\p{Lo}\d[(]/u.test(line);
    if (starts) flush();
    parts.push(line);
    length += line.length + 1;
    hasFacts ||= findYear(line) !== undefined || findDoi(line) !== undefined;
    // A reference that could end here: long enough, with a year or DOI, ending as references end.
    complete = length >= 40 && hasFacts && endsLikeReference(line);
  }
  flush();
}

type OpenEntry = { kind: 'bibtex' | 'ris'; skip: boolean; lines: string[]; length: number; depth: number; open: string; close: string };

/**
 * Cuts a reference list into blocks in one pass over its lines; `limit` stops cutting once that
 * many are found (the rest is only counted). An entry left open (an unbalanced BibTeX brace, an
 * RIS record without ER) ends where the next entry starts, and an unclosed `@comment` at the
 * next blank line, so one broken entry never swallows the references after it.
 */
export function splitReferences(text: string, limit = Number.POSITIVE_INFINITY): { blocks: ReferenceBlock[]; total: number } {
  const blocks: ReferenceBlock[] = [];
  let total = 0;
  let paragraph: string[] = [];
  let entry: OpenEntry | undefined;
  const emit = (kind: ReferenceKind, body: string) => {
    total += 1;
    if (blocks.length < limit) blocks.push({ kind, text: body });
  };
  const flushParagraph = () => {
    if (paragraph.length === 0) return;
    const found: ReferenceBlock[] = [];
    paragraphReferences(paragraph, found);
    for (const block of found) emit(block.kind, block.text);
    paragraph = [];
  };
  const endEntry = () => {
    if (entry && !entry.skip) emit(entry.kind, entry.lines.join('\n'));
    entry = undefined;
  };
  const addLine = (line: string) => {
    const current = entry!;
    if (current.length < maxEntryLength) current.lines.push(line);
    current.length += line.length + 1;
    if (current.kind === 'ris') {
      if (risEnd.test(line)) endEntry();
      return;
    }
    for (const char of line) {
      if (char === current.open) current.depth += 1;
      else if (char === current.close) current.depth -= 1;
    }
    if (current.depth <= 0) endEntry();
  };
  const startEntry = (line: string): boolean => {
    const bibtex = bibtexStart.exec(line);
    if (bibtex) {
      flushParagraph();
      const open = bibtex[2]!;
      // @comment, @preamble and @string are not references.
      const skip = /^(comment|preamble|string)$/i.test(bibtex[1]!);
      entry = { kind: 'bibtex', skip, lines: [], length: 0, depth: 0, open, close: open === '{' ? '}' : ')' };
      addLine(line);
      return true;
    }
    if (risStart.test(line)) {
      flushParagraph();
      entry = { kind: 'ris', skip: false, lines: [], length: 0, depth: 0, open: '', close: '' };
      addLine(line);
      return true;
    }
    return false;
  };

  for (const line of text.split(/\r\n?|\n/)) {
    if (entry) {
      const blank = line.trim() === '';
      // An RIS record has no blank lines within, and a comment is not worth the rest of the file.
      if (blank && (entry.kind === 'ris' || entry.skip)) endEntry();
      else if (bibtexStart.test(line) || risStart.test(line)) endEntry();
      else {
        addLine(line);
        continue;
      }
    }
    if (startEntry(line)) continue;
    if (line.trim() === '') flushParagraph();
    else paragraph.push(line);
  }
  endEntry();
  flushParagraph();
  return { blocks, total };
}

import { bareDoi } from '../../formats/text';
import { checkText, maxReferencesPerRun, splitReferences, type ParsedReference, type ReferenceBlock } from './reference-input';
import { findDoi, findYear, formattedFacts, maxReferenceLength, significantWords, type ReferenceFacts } from './reference-text';

/**
 * A reference list read into references, in time linear in its length. The page runs this in
 * a worker (reference-reader.ts), so even the largest list never holds the tab and Stop ends
 * it at once. BibTeX is read by citation-js's BibTeX plugin (loaded when a list holds BibTeX);
 * RIS by its tags.
 */

export interface ParsedList {
  readonly references: ParsedReference[];
  /** References found beyond the per-run maximum, not checked. */
  readonly leftOut: number;
}

/** RIS tags (RIS is a line format: `TI  - Title`), first value of each kind. */
export function risFacts(text: string): ReferenceFacts {
  let title: string | undefined;
  let year: number | undefined;
  let doi: string | undefined;
  const surnames: string[] = [];
  for (const line of text.split(/\r\n?|\n/)) {
    const match = /^([A-Z][A-Z0-9]) {1,2}- ?(.*)$/.exec(line);
    if (!match) continue;
    const [, tag, value = ''] = match;
    const trimmed = value.trim();
    if ((tag === 'TI' || tag === 'T1' || tag === 'CT') && !title && trimmed) title = trimmed;
    else if ((tag === 'AU' || tag === 'A1') && trimmed) surnames.push(trimmed.split(',')[0]!.trim());
    else if ((tag === 'PY' || tag === 'Y1' || tag === 'DA') && year === undefined) year = findYear(trimmed);
    else if (tag === 'DO' || tag === 'UR' || tag === 'L3') doi ??= findDoi(trimmed);
  }
  return { surnames, ...(title ? { title } : {}), ...(year !== undefined ? { year } : {}), ...(doi ? { doi } : {}) };
}

export type BibtexReader = (entry: string) => ReferenceFacts;

export async function loadBibtexReader(): Promise<BibtexReader> {
  const [{ Cite }] = await Promise.all([import('@citation-js/core'), import('@citation-js/plugin-bibtex')]);
  return (entry) => {
    const [item] = new Cite(entry).data as {
      title?: string;
      DOI?: string;
      author?: { family?: string; literal?: string }[];
      issued?: { 'date-parts'?: number[][] };
    }[];
    if (!item) return { surnames: [] };
    const year = item.issued?.['date-parts']?.[0]?.[0];
    return {
      surnames: (item.author ?? []).map((author) => author.family ?? author.literal ?? '').filter(Boolean),
      ...(item.title ? { title: item.title } : {}),
      ...(typeof year === 'number' ? { year } : {}),
      ...(item.DOI ? { doi: findDoi(item.DOI) ?? item.DOI } : {}),
    };
  };
}

function factsOf(block: ReferenceBlock, readBibtex: BibtexReader | undefined): ReferenceFacts & { problem?: string } {
  switch (block.kind) {
    case 'doi':
      return { surnames: [], doi: bareDoi(findDoi(block.text) ?? block.text) };
    case 'ris':
      return risFacts(block.text);
    case 'formatted':
      return formattedFacts(block.text);
    case 'bibtex':
      try {
        return readBibtex!(block.text);
      } catch (error) {
        // An entry citation-js cannot read (unbalanced, unknown syntax) may still carry a DOI.
        const doi = findDoi(block.text);
        return {
          surnames: [],
          ...(doi ? { doi } : {}),
          problem: `This BibTeX entry could not be read (${error instanceof Error ? error.message : String(error)}).`,
        };
      }
  }
}

/** One block as a reference to look up, with what is wrong when nothing can be. */
/** Longest DOI looked up: the API refuses longer ones, and no registered DOI comes near it. */
export const maxDoiLength = 300;

export function toReference(block: ReferenceBlock, readBibtex?: BibtexReader): ParsedReference {
  const { problem, doi: found, ...facts } = factsOf(block, readBibtex);
  const written = found ? bareDoi(found) : undefined;
  const doi = written && written.length <= maxDoiLength ? written : undefined;
  const lookable = Boolean(doi) || significantWords(facts.title ?? '').length >= 2;
  const tooLong =
    written && !doi
      ? `What looks like a DOI here is ${written.length.toLocaleString('en')} characters long, and a DOI is at most ${maxDoiLength}: nothing to look up.`
      : undefined;
  return {
    ...facts,
    ...(doi ? { doi } : {}),
    kind: block.kind,
    text: block.text.slice(0, maxReferenceLength),
    ...(lookable ? {} : { problem: problem ?? tooLong ?? 'No DOI and no title found: nothing to look up.' }),
  };
}

function readBlocks(blocks: readonly ReferenceBlock[], total: number, readBibtex: BibtexReader | undefined): ParsedList {
  return { references: blocks.map((block) => toReference(block, readBibtex)), leftOut: total - blocks.length };
}

/** Reads a reference list at once, BibTeX with the reader given; throws UnreadableInputError for binary or oversized input. */
export function readReferenceList(text: string, readBibtex: BibtexReader | undefined): ParsedList {
  checkText(text);
  const { blocks, total } = splitReferences(text, maxReferencesPerRun);
  return readBlocks(blocks, total, readBibtex);
}

/** Reads a reference list, loading the BibTeX reader when it holds BibTeX; throws UnreadableInputError for binary or oversized input. */
export async function parseReferenceList(text: string): Promise<ParsedList> {
  checkText(text);
  const { blocks, total } = splitReferences(text, maxReferencesPerRun);
  const readBibtex = blocks.some((block) => block.kind === 'bibtex') ? await loadBibtexReader() : undefined;
  return readBlocks(blocks, total, readBibtex);
}

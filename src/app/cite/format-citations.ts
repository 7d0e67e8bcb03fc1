import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordToBibtex } from '../../formats/bibtex';
import { recordToFullBibtex } from '../../formats/bibtex-full';
import { cslId, organisations, recordToCsl } from '../../formats/csl';
import type { CslItem } from '../../formats/csl-item';
import { knownValues } from '../../formats/known-values';
import { roleValue } from '../../formats/record-roles';
import { properNounsOf, toSentenceCase } from '../../formats/sentence-case';
import { generatedLabel, noGeneratedIds, type GeneratedIds } from '../../formats/generated-mark';
import { escapeHtml } from '../../formats/text';
import type { CiteEngine, CiteEntry } from './cite-engine';
import type { BibtexStyle, CitationStyleId } from './cite-styles';
import { fetchShippedFile, resolveCitationStyle, type FileLoader } from './style-catalog';
import { nodesToHtml, parseCitationHtml, type CitationNode } from './citation-html';

/** Citations ready for the screen and the clipboard. */
export interface FormattedCitations {
  readonly kind: 'csl' | 'bibtex';
  /**
   * One per citation, in the style's order: sanitised nodes (CSL) and plain text, and
   * whether it cites a generated demo record (its text then says so too).
   */
  readonly entries: readonly { readonly nodes: readonly CitationNode[]; readonly text: string; readonly generated: boolean }[];
  /** For the clipboard's text/html: a paragraph per citation (a <pre> for BibTeX). */
  readonly html: string;
  /** For the clipboard's text/plain: citations separated by a blank line. */
  readonly text: string;
}

/** What a citation of a generated demo record ends with, on screen and on the clipboard. */
export const generatedCitationMark = `[${generatedLabel}: not a real work.]`;

/**
 * citeproc's entries as sanitised nodes, one paragraph each for the clipboard; a citation of
 * a generated record (its item id among `generatedItems`) ends with the mark.
 */
export function assembleCslCitations(
  entries: readonly CiteEntry[],
  generatedItems: ReadonlySet<string> = noGeneratedIds,
): FormattedCitations {
  const parsed = entries.map((entry) => {
    const generated = generatedItems.has(entry.id);
    const nodes = parseCitationHtml(entry.html);
    const text = entry.text.trim();
    if (!generated) return { nodes, text, generated };
    const mark: CitationNode = { tag: 'strong', className: 'cite-dialog__generated', children: [generatedCitationMark] };
    return { nodes: [...nodes, ' ', mark], text: `${text} ${generatedCitationMark}`, generated };
  });
  return {
    kind: 'csl',
    entries: parsed,
    html: parsed.map((entry) => `<p>${nodesToHtml(entry.nodes, { inline: true }).trim()}</p>`).join('\n'),
    text: parsed.map((entry) => entry.text).join('\n\n'),
  };
}

const bibtexCodecs = {
  spec: (_deployment: Deployment, record: ApiRecord, prefix: string, generated: boolean) => recordToBibtex(record, prefix, generated),
  full: recordToFullBibtex,
} as const;

/**
 * BibTeX from the codecs of the exports (the spec's from the one the server uses), so a
 * citation copied here and a BibTeX download agree (same key prefix by default, same escaping).
 */
export function bibtexCitations(
  deployment: Deployment,
  records: readonly ApiRecord[],
  prefix: string,
  variant: BibtexStyle['variant'] = 'spec',
  generated: GeneratedIds = noGeneratedIds,
): FormattedCitations {
  const entries = records.map((record) => bibtexCodecs[variant](deployment, record, prefix, generated.has(record.repo_id)).trimEnd());
  return {
    kind: 'bibtex',
    // The entry's note says it is generated.
    entries: entries.map((text, index) => ({ nodes: [text], text, generated: generated.has(records[index]!.repo_id) })),
    html: entries.map((text) => `<pre>${escapeHtml(text)}</pre>`).join('\n'),
    text: entries.join('\n\n') + (entries.length ? '\n' : ''),
  };
}

/** The BibTeX key prefix of the local server (`records serve --bibtex-prefix`). */
export const defaultBibtexPrefix = 'records';

export interface CitationRequest {
  readonly deployment: Deployment;
  readonly records: readonly ApiRecord[];
  readonly style: CitationStyleId;
  readonly bibtexPrefix?: string;
  /** Generated demo records among them: their BibTeX says so in a note. */
  readonly generated?: GeneratedIds;
  /** The day the reader looks the records up, cited by styles that date online items; today when left out. */
  readonly accessed?: Date;
  /** Reads the style index for a repository style; fetched from the app's origin when left out. */
  readonly loadFile?: FileLoader;
}

/** The records as CSL items, each dated as accessed on the given day (UTC). */
export function cslItemsOf(deployment: Deployment, records: readonly ApiRecord[], accessed: Date = new Date()): CslItem[] {
  const day = [accessed.getUTCFullYear(), accessed.getUTCMonth() + 1, accessed.getUTCDate()] as [number, number, number];
  return records.map((record) => ({ ...recordToCsl(deployment, record), accessed: { 'date-parts': [day] } }));
}

/** A record's headline-case title in sentence case, keeping the names the record itself writes. */
function inSentenceCase(deployment: Deployment, record: ApiRecord, item: CslItem): CslItem {
  if (!item.title) return item;
  const names = [
    ...knownValues(roleValue(deployment, record, 'authors')),
    ...(['research', 'sponsor', 'contributing'] as const).flatMap((role) => organisations(deployment, record, role)),
  ];
  if (item.publisher) names.push(item.publisher);
  return { ...item, title: toSentenceCase(item.title, properNounsOf(names, item.abstract ?? '')) };
}

/** Citations of some records in a style; the engine is only asked for CSL styles. */
export async function formatCitations(request: CitationRequest, loadEngine: () => Promise<CiteEngine>): Promise<FormattedCitations> {
  const style = await resolveCitationStyle(request.style, request.loadFile ?? fetchShippedFile);
  if (style.kind === 'bibtex')
    return bibtexCitations(
      request.deployment,
      request.records,
      request.bibtexPrefix ?? defaultBibtexPrefix,
      style.variant,
      request.generated,
    );
  const engine = await loadEngine();
  let items = cslItemsOf(request.deployment, request.records, request.accessed);
  if (style.sentenceCase) items = items.map((item, index) => inSentenceCase(request.deployment, request.records[index]!, item));
  const generated = request.generated ?? noGeneratedIds;
  const generatedItems = new Set(
    request.records.filter((record) => generated.has(record.repo_id)).map((record) => cslId(request.deployment, record)),
  );
  return assembleCslCitations(await engine.bibliography(items, style), generatedItems);
}

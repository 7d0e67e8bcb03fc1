import { paramByName, identifierParam, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { parseAuthor } from '../../formats/authors';
import { dayOfTimestamp } from '../../formats/dates';
import { fold } from '../../formats/query-words';
import { toPlainLine } from '../../formats/rich-text';
import { bareDoi, valuesOf } from '../../formats/text';
import type { ParsedReference } from './reference-input';
import { significantWords } from './reference-text';

/**
 * How well a record matches a reference: a DOI that is the same is certain; otherwise the
 * title's words (both ways: the reference's title in the record's, and the record's title
 * within the whole reference, for a title guessed from a formatted line), the authors'
 * surnames and the year, weighed 6:2:2 over the parts the reference has.
 */

export type Verdict = 'found' | 'probable' | 'not-found';

/** At or above: found. */
export const foundAt = 0.8;
/** At or above (and below foundAt): probably, to be checked by a person. */
export const probableAt = 0.55;

export function verdictOf(confidence: number | undefined): Verdict {
  if (confidence === undefined) return 'not-found';
  return confidence >= foundAt ? 'found' : confidence >= probableAt ? 'probable' : 'not-found';
}

export const sameDoi = (a: string, b: string) => bareDoi(a).toLowerCase() === bareDoi(b).toLowerCase();

/** The parameter that finds a DOI exactly: `doi` where the catalog has it, else its identifier parameter. */
export function doiParam(deployment: Deployment): string | undefined {
  return paramByName(deployment, 'doi') ? 'doi' : identifierParam(deployment);
}

const unique = (words: readonly string[]) => [...new Set(words)];

/** The title words a search asks for: the title's significant words, at most twelve, joined by OR so bm25 ranks by how many match. */
export function titleQuery(reference: ParsedReference): string | undefined {
  const words = unique(significantWords(reference.title ?? '')).slice(0, 12);
  return words.length >= 2 ? words.join(' OR ') : undefined;
}

export function titleScore(reference: ParsedReference, record: ApiRecord): number {
  const candidate = unique(significantWords(toPlainLine(valuesOf(record.title)[0] ?? '')));
  if (candidate.length === 0) return 0;
  const title = new Set(significantWords(reference.title ?? ''));
  const whole = new Set(significantWords(reference.text));
  const common = candidate.filter((word) => title.has(word)).length;
  const dice = (2 * common) / (candidate.length + title.size);
  // A short title is in many references by chance; only a longer one counts when found anywhere in the text.
  const within = candidate.length >= 3 ? candidate.filter((word) => whole.has(word)).length / candidate.length : 0;
  return Math.max(dice, 0.9 * within);
}

function authorScore(reference: ParsedReference, record: ApiRecord): number | undefined {
  if (reference.surnames.length === 0) return undefined;
  const surnames = new Set(reference.surnames.map(fold));
  const families = valuesOf(record.authors).map((raw) => fold(parseAuthor(raw).family));
  if (families.length === 0) return undefined;
  if (surnames.has(families[0]!)) return 1;
  return families.some((family) => surnames.has(family)) ? 0.7 : 0;
}

function yearScore(reference: ParsedReference, record: ApiRecord): number | undefined {
  const day = dayOfTimestamp(valuesOf(record.publication_date)[0]);
  if (reference.year === undefined || !day) return undefined;
  const difference = Math.abs(day.year - reference.year);
  return difference === 0 ? 1 : difference === 1 ? 0.5 : 0;
}

/** Confidence from 0 to 1 that the record is the work the reference cites. */
export function matchConfidence(reference: ParsedReference, record: ApiRecord): number {
  if (reference.doi && valuesOf(record.doi).some((doi) => sameDoi(doi, reference.doi!))) return 1;
  const title = titleScore(reference, record);
  const parts = [
    [title, 0.6],
    [authorScore(reference, record), 0.2],
    [yearScore(reference, record), 0.2],
  ] as const;
  let sum = 0;
  let weight = 0;
  for (const [score, share] of parts) {
    if (score === undefined) continue;
    sum += score * share;
    weight += share;
  }
  const confidence = sum / weight;
  // Author and year alone never make a match: a lab's papers share both.
  return Math.round(Math.min(confidence, title < 0.5 ? title : 1) * 100) / 100;
}

import { paramByName, identifierParam, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { parseAuthor } from '../../formats/authors';
import { dayOfTimestamp } from '../../formats/dates';
import { knownValues } from '../../formats/known-values';
import { fold } from '../../formats/query-words';
import { roleValue } from '../../formats/record-roles';
import { relatedWorks } from '../../formats/related-works';
import { toPlainLine } from '../../formats/rich-text';
import { bareDoi } from '../../formats/text';
import { surnameKey } from '../../formats/work-key';
import type { ParsedReference } from './reference-input';
import { significantWords } from './reference-text';
import { standsAsTitle } from './title-in-text';
import { recordWorkKind, referenceWorkKind, sameKindOfWork, type WorkKind } from './work-kind';

/**
 * Whether a record is the work a reference cites, part by part. A reference is "found" only
 * when the record is that work: the same DOI, or the same title with the same first author
 * and year and nothing that says otherwise. An identifier that differs (DOI, report or patent
 * number) or another kind of work (the dataset of an article) makes the record another work,
 * however alike the titles; a different first author or year leaves it for a person to check.
 */

/** found: the cited work; probable: for a person to check; related: another work of the same title; not-found: nothing. */
export type Verdict = 'found' | 'probable' | 'related' | 'not-found';

/** How one part of the reference compares with the record: unknown when either side lacks it. */
export type Agreement = 'same' | 'close' | 'different' | 'unknown';

export interface MatchFacts {
  readonly title: Agreement;
  readonly firstAuthor: Agreement;
  readonly year: Agreement;
  /** The DOI, else a report or patent number both sides give. */
  readonly identifier: Agreement;
  readonly identifierName?: 'DOI' | 'report number' | 'patent number';
  readonly kind: Agreement;
  /** The kinds of work when both are known ("dataset", "article"). */
  readonly recordKind?: string;
  readonly referenceKind?: string;
}

export interface MatchAssessment {
  readonly verdict: Verdict;
  /** 0 to 1, for ranking candidates; the verdict, not this number, says whether it is the work. */
  readonly confidence: number;
  readonly facts: MatchFacts;
  /** What the record is to the cited work when it is another work: "Dataset of this article". */
  readonly relation?: string;
}

/** Best first: a catalog shows its best candidate by verdict, then confidence. */
export const verdictRank: Record<Verdict, number> = { found: 3, probable: 2, related: 1, 'not-found': 0 };

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

/**
 * A second search, for a formatted reference whose title was read wrong (run into the authors,
 * cut at an abbreviation): the words of the whole reference but its names and numbers.
 */
export function wholeTextQuery(reference: ParsedReference): string | undefined {
  if (reference.kind !== 'formatted') return undefined;
  const names = new Set(reference.surnames.map((surname) => fold(surname)));
  const words = unique(significantWords(reference.text)).filter((word) => !names.has(word) && !/^\d+$/.test(word) && word !== 'doi');
  const query = words.slice(0, 16).join(' OR ');
  return words.length >= 3 && query !== titleQuery(reference) ? query : undefined;
}

const romanNumeral = /^(?:i{1,3}|iv|v|vi{1,3}|ix|x)$/;

/** A title's identifying words, with the numerals that tell part I from part II. */
function titleWords(text: string): string[] {
  const numerals = (fold(text).match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => romanNumeral.test(word) || /^\d$/.test(word));
  return unique([...significantWords(text), ...numerals]);
}

/** Words and spaces only, for finding one title inside a reference as a phrase. */
const phrase = (text: string) => ` ${(fold(text).match(/[\p{L}\p{N}]+/gu) ?? []).join(' ')} `;

/** A descriptor a style adds to the title ("[Data set]", "[Internet]"): not part of it. */
const withoutDescriptors = (title: string) => title.replace(/\[[^\]]{0,40}\]/g, ' ');

export function titleScore(reference: ParsedReference, record: ApiRecord): number {
  const recordTitle = toPlainLine(knownValues(record.title)[0] ?? '');
  const candidate = titleWords(recordTitle);
  if (candidate.length === 0) return 0;
  const title = new Set(titleWords(withoutDescriptors(reference.title ?? '')));
  const whole = new Set(titleWords(reference.text));
  const common = candidate.filter((word) => title.has(word)).length;
  const dice = (2 * common) / (candidate.length + title.size);
  // A short title is in many references by chance; only a longer one counts when found anywhere in the text.
  const within = candidate.length >= 3 ? candidate.filter((word) => whole.has(word)).length / candidate.length : 0;
  return Math.max(dice, 0.9 * within);
}

/**
 * Same: the reference's title has the record's words and no other (as a set: styles change
 * case and punctuation), or the record's whole title stands in the reference as its title
 * (when the title read from a formatted line is cut short or runs into the authors).
 */
function titleAgreement(reference: ParsedReference, record: ApiRecord, score: number): Agreement {
  const recordTitle = toPlainLine(knownValues(record.title)[0] ?? '');
  const recordWords = titleWords(recordTitle);
  if (recordWords.length === 0) return 'unknown';
  const referenceWords = titleWords(withoutDescriptors(reference.title ?? ''));
  const recordSet = new Set(recordWords);
  const extra = referenceWords.filter((word) => !recordSet.has(word)).length;
  if (extra === 0 && referenceWords.length === recordWords.length) return 'same';
  if (recordWords.length >= 2 && standsAsTitle(reference.text, recordTitle)) return 'same';
  // A bare DOI, or a line whose title could not be read, says nothing against the record's title.
  const unread = referenceWords.length === 0 ? 'unknown' : 'different';
  return score >= 0.55 ? 'close' : unread;
}

function firstAuthorAgreement(reference: ParsedReference, record: ApiRecord): Agreement {
  const surnames = reference.surnames.map(surnameKey).filter(Boolean);
  const families = knownValues(record.authors)
    .map((raw) => surnameKey(parseAuthor(raw).family))
    .filter(Boolean);
  if (surnames.length === 0 || families.length === 0) return 'unknown';
  const first = families[0]!;
  // "van der Berg" may be read as "Berg" or "vanderberg": one key ending the other is the same name.
  const agrees = (surname: string) =>
    surname === first || (Math.min(surname.length, first.length) >= 4 && (first.endsWith(surname) || surname.endsWith(first)));
  if (agrees(surnames[0]!)) return 'same';
  return surnames.some(agrees) ? 'close' : 'different';
}

const yearsIn = (text: string) => text.match(/(?<![\d./-])(?:1[6-9]|20)\d\d(?![\d/-])/g) ?? [];

function yearAgreement(reference: ParsedReference, record: ApiRecord): Agreement {
  const day = dayOfTimestamp(knownValues(record.publication_date)[0]);
  if (reference.year === undefined || !day) return 'unknown';
  if (day.year === reference.year) return 'same';
  // The year read may be one of the title's ("Fire Study 2023", "(1987-2024)"): the reference's
  // own is then among its other years, or it gives none (a style that dates no dataset).
  const inTitle = new Set(yearsIn(toPlainLine(knownValues(record.title)[0] ?? '')));
  if (inTitle.has(String(reference.year))) {
    const others = yearsIn(reference.text).filter((year) => !inTitle.has(year));
    if (others.includes(String(day.year))) return 'same';
    if (others.length === 0) return 'unknown';
  }
  return Math.abs(day.year - reference.year) === 1 ? 'close' : 'different';
}

/** Report and patent numbers compared by their letters and digits only. */
const numberKey = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');

const referenceNumbers: readonly { name: 'report number' | 'patent number'; pattern: RegExp }[] = [
  {
    name: 'patent number',
    pattern: /\bpat(?:ent|\.)\s*(?:application\s*)?(?:no\.?|number|#)?\s*:?\s*((?:[A-Z]{2}\s?)?\d[\d,/ ]{4,14}\d(?:\s?[A-C]\d?)?)\b/gi,
  },
  { name: 'report number', pattern: /\b(?:report|rep\.)\s*(?:no\.?|number|#)\s*:?\s*([A-Z0-9][A-Z0-9/.-]{2,40}[A-Z0-9])/gi },
  { name: 'report number', pattern: /\btech(?:nical|\.)\s*rep(?:ort|\.)\s*:?\s*([A-Z][A-Z0-9/.-]{2,40}\d)/gi },
];

function numberAgreement(
  deployment: Deployment,
  reference: ParsedReference,
  record: ApiRecord,
): { agreement: Agreement; name?: 'report number' | 'patent number' } {
  const recordNumbers = ['reportNumber', 'productNumber'] as const;
  const numbers = recordNumbers
    .flatMap((role) => knownValues(roleValue(deployment, record, role)))
    .flatMap((value) => value.split(/;\s*/))
    .map(numberKey)
    .filter((key) => key.length >= 5 && /\d/.test(key));
  if (numbers.length === 0) return { agreement: 'unknown' };
  const text = numberKey(reference.text);
  const patent = recordWorkKind(deployment, record)?.id === 'patent';
  const name = patent ? 'patent number' : 'report number';
  // A record's number written anywhere in the reference is that work's.
  if (numbers.some((number) => text.includes(number) || (patent && digitsOf(number).length >= 6 && text.includes(digitsOf(number)))))
    return { agreement: 'same', name };
  for (const { name: cited, pattern } of referenceNumbers) {
    for (const match of reference.text.matchAll(pattern)) {
      const key = numberKey(match[1]!);
      if (key.length >= 5 && /\d/.test(key)) return { agreement: 'different', name: cited };
    }
  }
  return { agreement: 'unknown' };
}

const digitsOf = (key: string) => key.replace(/\D/g, '');

function doiAgreement(reference: ParsedReference, record: ApiRecord): Agreement {
  const dois = knownValues(record.doi);
  if (!reference.doi || dois.length === 0) return 'unknown';
  return dois.some((doi) => sameDoi(doi, reference.doi!)) ? 'same' : 'different';
}

/**
 * The record names the cited work among its related works: by the reference's DOI, or by a
 * related work's title and journal both written in the reference. It is then that work's
 * dataset (software, …), not the work.
 */
function relatedToCitedWork(deployment: Deployment, reference: ParsedReference, record: ApiRecord): boolean {
  const text = phrase(reference.text);
  return relatedWorks(roleValue(deployment, record, 'relations')).some((work) => {
    if (reference.doi && sameDoi(work.identifier, reference.doi)) return true;
    const { title, journal } = work.reference ?? {};
    return Boolean(title && journal && text.includes(phrase(journal)) && standsAsTitle(reference.text, title));
  });
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function relationOf(
  recordKind: WorkKind | undefined,
  referenceKind: WorkKind | undefined,
  linked: boolean,
  facts: Pick<MatchFacts, 'identifier' | 'identifierName'>,
): string {
  const record = recordKind?.noun ?? 'record';
  const cited = referenceKind?.noun ?? 'work';
  if (linked) return `${capitalised(record)} of this ${cited}`;
  if (recordKind && referenceKind && !sameKindOfWork(recordKind, referenceKind))
    return `${capitalised(record)} with this title (the reference cites ${/^[aeiou]/.test(cited) ? 'an' : 'a'} ${cited})`;
  return `Another ${record} with this title (another ${facts.identifierName ?? 'identifier'})`;
}

/** How a record compares with a reference, and what that makes it. */
export function assessMatch(deployment: Deployment, reference: ParsedReference, record: ApiRecord): MatchAssessment {
  const score = titleScore(reference, record);
  const title = titleAgreement(reference, record, score);
  const firstAuthor = firstAuthorAgreement(reference, record);
  const year = yearAgreement(reference, record);
  const doi = doiAgreement(reference, record);
  const number = numberAgreement(deployment, reference, record);
  const identifier: Agreement = doi !== 'unknown' ? doi : number.agreement;
  const identifierName = doi !== 'unknown' ? 'DOI' : number.name;
  const recordKind = recordWorkKind(deployment, record);
  const referenceKind = referenceWorkKind(reference);
  const kind: Agreement = !recordKind || !referenceKind ? 'unknown' : sameKindOfWork(recordKind, referenceKind) ? 'same' : 'different';
  const facts: MatchFacts = {
    title,
    firstAuthor,
    year,
    identifier,
    ...(identifierName ? { identifierName } : {}),
    kind,
    ...(recordKind ? { recordKind: recordKind.noun } : {}),
    ...(referenceKind ? { referenceKind: referenceKind.noun } : {}),
  };

  const points = { same: 1, close: 0.6, different: 0, unknown: undefined } as const;
  const parts = [
    [title === 'same' ? 1 : score, 0.6],
    [points[firstAuthor], 0.2],
    [points[year], 0.2],
  ] as const;
  let sum = 0;
  let weight = 0;
  for (const [value, share] of parts) {
    if (value === undefined) continue;
    sum += value * share;
    weight += share;
  }
  const confidence = Math.round(Math.min(sum / weight, score < 0.5 && title !== 'same' ? score : 1) * 100) / 100;

  if (doi === 'same' || (identifier === 'same' && title !== 'different')) return { verdict: 'found', confidence: 1, facts };
  const linked = relatedToCitedWork(deployment, reference, record);
  const titled = title === 'same' || title === 'close';
  if (identifier === 'different' || kind === 'different' || linked) {
    return titled || linked
      ? { verdict: 'related', confidence, facts, relation: relationOf(recordKind, referenceKind, linked, facts) }
      : { verdict: 'not-found', confidence, facts };
  }
  if (title === 'same') {
    const sameAuthor = firstAuthor === 'same';
    const sameYear = year === 'same';
    // Author and year both agree where known, and at least one is known.
    if ((sameAuthor || firstAuthor === 'unknown') && (sameYear || year === 'unknown') && (sameAuthor || sameYear))
      return { verdict: 'found', confidence: Math.max(confidence, 0.9), facts };
    return { verdict: 'probable', confidence: Math.min(confidence, 0.79), facts };
  }
  // Author and year alone never make a match: a lab's papers share both.
  if (title === 'close' && (firstAuthor === 'same' || firstAuthor === 'close' || year === 'same'))
    return { verdict: 'probable', confidence: Math.min(confidence, 0.79), facts };
  return { verdict: 'not-found', confidence, facts };
}

const partNames = { title: 'title', firstAuthor: 'first author', year: 'year', kind: 'type' } as const;

/** What matched and what differed, in words: "title, first author, year" and "DOI, type (dataset, not article)". */
export function describeFacts(facts: MatchFacts): { matched: string[]; differed: string[]; close: string[] } {
  const matched: string[] = [];
  const differed: string[] = [];
  const close: string[] = [];
  const parts: [Agreement, string][] = [
    [facts.title, partNames.title],
    [facts.firstAuthor, partNames.firstAuthor],
    [facts.year, partNames.year],
    [facts.identifier, facts.identifierName ?? 'identifier'],
    [
      facts.kind,
      facts.kind === 'different' && facts.recordKind && facts.referenceKind
        ? `type (${facts.recordKind}, not ${facts.referenceKind})`
        : facts.kind === 'same' && facts.recordKind
          ? `type (${facts.recordKind})`
          : partNames.kind,
    ],
  ];
  for (const [agreement, name] of parts) {
    if (agreement === 'same') matched.push(name);
    else if (agreement === 'different') differed.push(name);
    else if (agreement === 'close') close.push(name);
  }
  return { matched, differed, close };
}

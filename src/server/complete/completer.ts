import type { FacetDef } from '../../deployments/facets';
import type { ValueFolding } from '../../deployments/key-names';
import { foldText } from '../../formats/fold-text';
import { valueFoldings } from '../../formats/value-folding';
import { firstNotBefore } from '../engine/sorted-strings';
import type { FacetIndex } from '../store/facets/facet-index';
import type { CompletedValue } from './complete-request';

/**
 * Type-ahead (the `/complete` extension, docs/extensions.md): the values of a facet that
 * start with what a person has typed, the most records first, each with its exact count over
 * the catalog. The values and counts are the facet index's (facet-index.ts), so a value is a
 * grouped person or organisation exactly as the facet lists it, and its count is what ticking
 * it finds. Each facet's values are sorted once by the text they are typed as; a prefix is
 * then one binary search and a walk over the values that start with it. A short prefix that
 * starts very many values is answered from the values in count order instead, stopping at
 * the first `limit` that match: either way a request's work is bounded, not the catalog's.
 */

export const maxPrefixLength = 100;
export const maxCompletions = 20;

/** Key ranges longer than this are answered in count order instead. */
const rangeLimit = 2048;
/** Values looked at in count order, at most, for one facet and prefix. */
const maxChecks = 100_000;
/** Word starts kept per spelling: a long organisation name is typed from one of its first words. */
const maxStarts = 12;
const separator = '\u0001';

/** Text as completion compares it: folded, points and apostrophes dropped (`U.S.` is `us`), other runs of punctuation one space. */
export function completionForm(text: string): string {
  return foldText(text)
    .replace(/[.'’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Every word start of a value: `department of energy`, `of energy`, `energy`. */
function wordStarts(form: string): string[] {
  const starts = [form];
  for (let at = form.indexOf(' '); at >= 0 && starts.length < maxStarts; at = form.indexOf(' ', at + 1)) starts.push(form.slice(at + 1));
  return starts;
}

/** How a facet's values and what is typed compare, by the facet's folding. */
interface Typing {
  /** A value or what was typed, as compared. */
  readonly form: (text: string) => string;
  /** Where in a value's form typing may begin. */
  readonly starts: (form: string) => string[];
}

/**
 * A person's name is typed from the surname (`fredr`), and folds as the author facet folds
 * it (`Fredrickson, Eric` and `Fredrickson, E.` are `fredrickson e`); a subject's or an
 * organisation's from any of its words (`energy`), its words as written (a half-typed word
 * has no singular).
 */
const typings: Record<ValueFolding | 'none', Typing> = {
  person: { form: (text) => completionForm(valueFoldings.person(text)), starts: (form) => [form] },
  term: { form: completionForm, starts: wordStarts },
  organisation: { form: completionForm, starts: wordStarts },
  none: { form: completionForm, starts: wordStarts },
};

/**
 * What was typed, as a facet compares it: a separator typed at the end (`Smith, `) stays a
 * space, so the word before it is whole (`smithson` no longer starts with it).
 */
export function typedForm(prefix: string, fold: ValueFolding | 'none' = 'none'): string {
  const form = typings[fold].form(prefix);
  return form && /[^\p{L}\p{N}]$/u.test(prefix) ? `${form} ` : form;
}

/** One facet's values as they are typed. */
export interface FacetCompletions {
  /** Every typed form of every value (each spelling, each word start), sorted. */
  readonly keys: readonly string[];
  /** The value code (within the facet) of each key. */
  readonly keyCodes: Int32Array;
  /** Value codes by count, most first (then A–Z). */
  readonly byCount: Int32Array;
  /** Each value's keys between separators: a value starts with a prefix where this holds a separator and it. */
  readonly joined: readonly string[];
}

const tables = new WeakMap<FacetIndex, Map<string, FacetCompletions>>();

function completionsOf(index: FacetIndex, facet: FacetDef): FacetCompletions | undefined {
  const codes = index.facets.get(facet.name);
  if (!codes) return undefined;
  let perFacet = tables.get(index);
  if (!perFacet) tables.set(index, (perFacet = new Map<string, FacetCompletions>()));
  let table = perFacet.get(facet.name);
  if (!table) {
    const { values, variants, firstCode } = codes;
    const { form, starts } = typings[facet.fold ?? 'none'];
    const entries: [string, number][] = [];
    const joined: string[] = [];
    for (let code = 0; code < values.length; code++) {
      const own = new Set<string>();
      for (const spelling of variants?.get(code) ?? [values[code]!]) for (const key of starts(form(spelling))) if (key) own.add(key);
      for (const key of own) entries.push([key, code]);
      joined.push(`${separator}${[...own].join(separator)}${separator}`);
    }
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const byCount = Int32Array.from(values.keys()).sort(
      (a, b) =>
        index.totals[firstCode + b]! - index.totals[firstCode + a]! || (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0),
    );
    table = { keys: entries.map(([key]) => key), keyCodes: Int32Array.from(entries, ([, code]) => code), byCount, joined };
    perFacet.set(facet.name, table);
  }
  return table;
}

/** Sorts every type-ahead facet's values once, so no request pays for it; returns the tables. */
export function prepareCompletions(index: FacetIndex, facets: readonly FacetDef[]): ReadonlyMap<string, FacetCompletions> {
  for (const facet of facets) if (facet.typeAhead) completionsOf(index, facet);
  return tables.get(index) ?? new Map<string, FacetCompletions>();
}

/** Takes the tables another thread sorted for the same index (prepareCompletions there), instead of sorting again. */
export function adoptCompletions(index: FacetIndex, given: ReadonlyMap<string, FacetCompletions>): void {
  tables.set(index, new Map(given));
}

/** The values of one facet starting with `typed` (a typedForm), the most records first. */
export function completeFacet(index: FacetIndex, facet: FacetDef, typed: string, limit: number): CompletedValue[] {
  const table = completionsOf(index, facet);
  const codes = index.facets.get(facet.name);
  if (!table || !codes || !typed || limit <= 0) return [];
  const { values, variants, firstCode } = codes;
  const countOf = (code: number) => index.totals[firstCode + code]!;
  const { keys, keyCodes } = table;
  // `smith ` (a word typed whole) is `smith` itself or a value going on after it.
  const stem = typed.trimEnd();
  const accepts = (key: string) => key.length === stem.length || key.startsWith(typed);
  const low = firstNotBefore(keys, stem);
  let end = low;
  while (end < keys.length && end - low <= rangeLimit && keys[end]!.startsWith(stem)) end++;
  let found: number[];
  if (end - low <= rangeLimit) {
    const codesFound = new Set<number>();
    // A value no record holds any longer (a generation's index taken over, column-update.ts) is not offered.
    for (let i = low; i < end; i++) if (accepts(keys[i]!) && countOf(keyCodes[i]!) > 0) codesFound.add(keyCodes[i]!);
    found = [...codesFound].sort((a, b) => countOf(b) - countOf(a) || (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0));
    found = found.slice(0, limit);
  } else {
    // So many values start with it that the most held of them come soon in count order.
    found = [];
    const [going, whole] = [separator + typed, separator + stem + separator];
    const { byCount, joined } = table;
    for (let i = 0; i < byCount.length && i < maxChecks && found.length < limit; i++) {
      const code = byCount[i]!;
      if (!countOf(code)) break;
      const text = joined[code]!;
      if (text.includes(going) || text.includes(whole)) found.push(code);
    }
  }
  return found.map((code) => {
    const spellings = variants?.get(code);
    return { field: facet.name, value: values[code]!, count: countOf(code), ...(spellings ? { variants: spellings } : {}) };
  });
}

/**
 * The values of several facets (the search box's), the most records first: each facet's
 * best value is kept, so a common subject does not hide the one person whose name it is.
 */
export function completeFacets(index: FacetIndex, facets: readonly FacetDef[], prefix: string, limit: number): CompletedValue[] {
  const typed = prefix.slice(0, maxPrefixLength);
  const each = facets.map((facet) => completeFacet(index, facet, typedForm(typed, facet.fold), limit));
  const best = each.flatMap((values) => values.slice(0, 1));
  const rest = each.flatMap((values) => values.slice(1)).sort((a, b) => b.count - a.count);
  return [...best, ...rest.slice(0, Math.max(0, limit - best.length))].sort((a, b) => b.count - a.count).slice(0, limit);
}

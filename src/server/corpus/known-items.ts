import { parseAuthor } from '../../formats/authors';
import { foldText } from '../../formats/fold-text';
import { toPlainLine } from '../../formats/rich-text';
import type { Deployment, DeploymentKey } from '../../deployments/schema';
import type { StoredRecord } from '../store/types';
import { generateRecords } from './generate';
import { seededRandom } from './random';

/**
 * Known-item searches (issue 39 item 7): for each work among the real records, what a person
 * who has seen it before types to find it again, in the forms people remember a work by, drawn
 * from the work's own title, first author and year with a seeded random source (the same
 * queries every run). Records that are one work (the same DOI, or the same folded title, first
 * author and year) are one known item: finding any of them finds it.
 */

export const knownItemForms = ['titleWords', 'surnameWordYear', 'wholeTitle', 'oneSlip', 'otherNumber'] as const;
export type KnownItemForm = (typeof knownItemForms)[number];

export const formLabels: Record<KnownItemForm, string> = {
  titleWords: 'a few title words',
  surnameWordYear: 'surname + a title word + year',
  wholeTitle: 'the whole title',
  oneSlip: 'title words, one with a typing slip',
  otherNumber: 'title words, one in the other number (singular/plural)',
};

/** What the issue asks of each form: the work first, or on the first page, this often at least. */
export const knownItemTargets: Partial<Record<KnownItemForm, { readonly measure: 'first' | 'firstPage'; readonly share: number }>> = {
  titleWords: { measure: 'firstPage', share: 0.95 },
  surnameWordYear: { measure: 'firstPage', share: 0.95 },
  wholeTitle: { measure: 'first', share: 0.9 },
  oneSlip: { measure: 'firstPage', share: 0.9 },
};

export interface KnownItem {
  readonly deployment: DeploymentKey;
  /** Every repo_id of the work's records. */
  readonly ids: readonly string[];
  readonly title: string;
  /** The first author's surname, as the record names it. */
  readonly surname?: string;
  readonly year?: string;
}

export interface KnownItemQuery {
  readonly item: KnownItem;
  readonly form: KnownItemForm;
  readonly q: string;
}

/** Words nobody remembers a title by. */
const stopwords = new Set(
  'a an and are as at be by for from has have in into is it its of on or not the their this to under using via was were with within'.split(
    ' ',
  ),
);

/** The words of a title a person could remember it by: letters only, three or more, not function words. */
function contentWords(title: string): string[] {
  return title
    .split(/\s+/)
    .map((token) => token.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((word) => /^\p{L}{3,}$/u.test(word) && !stopwords.has(word.toLowerCase()));
}

const doiKey = (doi: unknown) =>
  typeof doi === 'string' && doi.trim()
    ? doi
        .trim()
        .toLowerCase()
        .replace(/^(https?:\/\/)?(dx\.)?doi\.org\//, '')
    : undefined;

const yearOf = (record: Record<string, unknown>) => {
  const year = /^(\d{4})/.exec(String(record.publication_date ?? ''))?.[1];
  return year && Number(year) > 0 ? year : undefined;
};

const firstAuthor = (record: Record<string, unknown>) => {
  const authors = record.authors;
  const first = Array.isArray(authors)
    ? authors.find((author): author is string => typeof author === 'string' && author.trim() !== '')
    : undefined;
  return first === undefined ? undefined : parseAuthor(first).family || undefined;
};

/** The works among a deployment's records: records of the same DOI, or of the same folded title, first author and year, are one. */
export function knownItems(deployment: DeploymentKey, records: readonly StoredRecord[]): KnownItem[] {
  const parent = records.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const firstWithKey = new Map<string, number>();
  records.forEach(({ record }, i) => {
    const fields = record as Record<string, unknown>;
    const title = foldText(toPlainLine(String(fields.title ?? '')));
    const keys = [doiKey(fields.doi), `${title}\u0000${foldText(firstAuthor(fields) ?? '')}\u0000${yearOf(fields) ?? ''}`];
    for (const key of keys) {
      if (key === undefined) continue;
      const other = firstWithKey.get(key);
      if (other === undefined) firstWithKey.set(key, i);
      else parent[find(i)] = find(other);
    }
  });
  const groups = new Map<number, StoredRecord[]>();
  records.forEach((stored, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), stored]);
  });
  return [...groups.values()]
    .map((group) => {
      const record = group[0]!.record as Record<string, unknown>;
      const surname = firstAuthor(record);
      const year = yearOf(record);
      return {
        deployment,
        ids: group.map((stored) => stored.record.repo_id).sort(),
        title: toPlainLine(String(record.title ?? '')).trim(),
        ...(surname ? { surname } : {}),
        ...(year ? { year } : {}),
      };
    })
    .filter((item) => item.title !== '')
    .sort((a, b) => (a.ids[0]! < b.ids[0]! ? -1 : a.ids[0]! > b.ids[0]! ? 1 : 0));
}

/** Generated records start here, far from the real records' ids. */
const generatedStartId = 70_000_001;

/** A mirror of `generated` generated records with the real ones spread among them, not in a block at either end. */
export function mixedMirror(deployment: Deployment, real: readonly StoredRecord[], generated: number, seed: number): StoredRecord[] {
  const all = [...generateRecords(deployment, generated, { seed, startId: generatedStartId })];
  real.forEach((record, i) => all.splice(Math.floor(((i + 0.5) / real.length) * generated) + i, 0, record));
  return all;
}

/** `count` of `words` (all when fewer), drawn at random and kept in the title's order. */
function someOf(words: readonly string[], count: number, random: () => number): string[] {
  const indexes = words.map((_, i) => i);
  for (let i = indexes.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!];
  }
  return indexes
    .slice(0, count)
    .sort((a, b) => a - b)
    .map((i) => words[i]!);
}

/** Letters next to each other on a QWERTY keyboard, for slips that hit a neighbouring key. */
const neighbours: Record<string, string> = {
  a: 'qwsz', b: 'vghn', c: 'xdfv', d: 'serfcx', e: 'wsdr', f: 'drtgvc', g: 'ftyhbv', h: 'gyujnb', i: 'ujko', j: 'huikmn', k: 'jiolm', l: 'kop',
  m: 'njk', n: 'bhjm', o: 'iklp', p: 'ol', q: 'wa', r: 'edft', s: 'awedxz', t: 'rfgy', u: 'yhji', v: 'cfgb', w: 'qase', x: 'zsdc', y: 'tghu', z: 'asx',
}; // prettier-ignore

/** One typing slip in a word: two neighbouring letters swapped, one left out, one doubled, or a neighbouring key hit. */
export function slip(word: string, random: () => number): string {
  const lower = word.toLowerCase();
  // Slips inside the word: people rarely get the first letter wrong.
  const at = 1 + Math.floor(random() * (lower.length - 2));
  const kind = Math.floor(random() * 4);
  if (kind === 0) return lower.slice(0, at) + lower[at + 1] + lower[at] + lower.slice(at + 2);
  if (kind === 1) return lower.slice(0, at) + lower.slice(at + 1);
  if (kind === 2) return lower.slice(0, at) + lower[at] + lower.slice(at);
  const keys = neighbours[lower[at]!] ?? 'e';
  return lower.slice(0, at) + keys[Math.floor(random() * keys.length)]! + lower.slice(at + 1);
}

/** The word in the other grammatical number, or undefined where English makes that unclear. */
export function otherNumber(word: string): string | undefined {
  const lower = word.toLowerCase();
  if (/(ss|us|is|ics)$/.test(lower) || lower.length < 4) return undefined;
  if (/[^aeiou]ies$/.test(lower)) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses)$/.test(lower)) return word.slice(0, -2);
  if (lower.endsWith('s')) return word.slice(0, -1);
  if (/[^aeiou]y$/.test(lower)) return `${word.slice(0, -1)}ies`;
  if (/(ch|sh|x)$/.test(lower)) return `${word}es`;
  return `${word}s`;
}

/** Title words remembered: three of them (all when the title has fewer). */
const rememberedWords = 3;

/** Each work's query in each form it has the material for, in the same order with the same seed. */
export function knownItemQueries(items: readonly KnownItem[], seed: number): KnownItemQuery[] {
  const random = seededRandom(seed);
  const queries: KnownItemQuery[] = [];
  for (const item of items) {
    const words = contentWords(item.title);
    const add = (form: KnownItemForm, q: string | undefined) => {
      if (q && q.trim()) queries.push({ item, form, q });
    };
    const remembered = someOf(words, rememberedWords, random);
    add('titleWords', remembered.join(' '));
    const { surname, year } = item;
    const surnameFold = foldText(surname ?? '');
    const word = someOf(
      words.filter((w) => foldText(w) !== surnameFold),
      1,
      random,
    )[0];
    add('surnameWordYear', surname && word && year ? `${surname} ${word} ${year}` : undefined);
    add('wholeTitle', item.title);
    const slipped = someOf(words, rememberedWords, random);
    const slippable = slipped.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5);
    if (slippable.length > 0) {
      const [target, index] = slippable[Math.floor(random() * slippable.length)]!;
      add('oneSlip', slipped.map((w, i) => (i === index ? slip(target, random) : w)).join(' '));
    }
    const numbered = someOf(words, rememberedWords, random);
    const changeable = numbered.map((w, i) => [otherNumber(w), i] as const).filter(([other]) => other !== undefined);
    if (changeable.length > 0) {
      const [other, index] = changeable[Math.floor(random() * changeable.length)]!;
      add('otherNumber', numbered.map((w, i) => (i === index ? other : w)).join(' '));
    }
  }
  return queries;
}

/** A search as the app sends it: the first `rows` repo_ids and the total. */
export interface KnownItemSearcher {
  search(deployment: DeploymentKey, q: string, rows: number): Promise<{ total: number; ids: readonly string[] }>;
  /** The suggestion's search ("Did you mean"), or undefined for none. */
  suggest(deployment: DeploymentKey, q: string): Promise<string | undefined>;
}

export interface KnownItemOutcome {
  readonly query: KnownItemQuery;
  /** 1-based rank of the work's first record among the first `depth` results of the page the app shows; 0 when not there. */
  readonly rank: number;
  /** The search found nothing and the app showed the suggestion's results. */
  readonly viaSuggestion: boolean;
}

/** The app's first page: 20 rows. */
export const firstPageRows = 20;
/** How deep the reciprocal rank looks. */
export const rankDepth = 100;

export async function runKnownItemQuery(searcher: KnownItemSearcher, query: KnownItemQuery): Promise<KnownItemOutcome> {
  const { deployment } = query.item;
  let page = await searcher.search(deployment, query.q, rankDepth);
  let viaSuggestion = false;
  if (page.total === 0) {
    const suggested = await searcher.suggest(deployment, query.q);
    if (suggested !== undefined) {
      page = await searcher.search(deployment, suggested, rankDepth);
      viaSuggestion = true;
    }
  }
  const ids = new Set(query.item.ids);
  const at = page.ids.findIndex((id) => ids.has(id));
  return { query, rank: at + 1, viaSuggestion };
}

export interface FormSummary {
  readonly form: KnownItemForm;
  readonly label: string;
  readonly n: number;
  /** Share of queries whose work is the first result. */
  readonly first: number;
  /** Share of queries whose work is on the first page (20 rows). */
  readonly firstPage: number;
  /** Mean reciprocal rank over the first 100 results (0 beyond). */
  readonly mrr: number;
  /** Queries that found nothing, so the app showed the suggestion's results. */
  readonly viaSuggestion: number;
  readonly target?: { readonly measure: 'first' | 'firstPage'; readonly share: number; readonly met: boolean };
  /** Up to five queries whose work was not on the first page. */
  readonly misses: readonly {
    readonly deployment: DeploymentKey;
    readonly q: string;
    readonly ids: readonly string[];
    readonly rank: number;
  }[];
}

export function summarizeKnownItems(outcomes: readonly KnownItemOutcome[]): FormSummary[] {
  return knownItemForms.map((form) => {
    const of = outcomes.filter((outcome) => outcome.query.form === form);
    const n = of.length;
    const share = (test: (outcome: KnownItemOutcome) => boolean) => (n === 0 ? 0 : of.filter(test).length / n);
    const first = share((o) => o.rank === 1);
    const firstPage = share((o) => o.rank >= 1 && o.rank <= firstPageRows);
    const target = knownItemTargets[form];
    return {
      form,
      label: formLabels[form],
      n,
      first,
      firstPage,
      mrr: n === 0 ? 0 : of.reduce((sum, o) => sum + (o.rank > 0 ? 1 / o.rank : 0), 0) / n,
      viaSuggestion: of.filter((o) => o.viaSuggestion).length,
      ...(target ? { target: { ...target, met: (target.measure === 'first' ? first : firstPage) >= target.share } } : {}),
      misses: of
        .filter((o) => o.rank === 0 || o.rank > firstPageRows)
        .slice(0, 5)
        .map((o) => ({ deployment: o.query.item.deployment, q: o.query.q, ids: o.query.item.ids, rank: o.rank })),
    };
  });
}

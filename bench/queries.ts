import { benchmarkTerms as terms } from '../src/server/corpus/vocabulary';
import { defaultStartId } from '../src/server/corpus/generate';
import { seededRandom } from '../src/server/corpus/random';

/**
 * The query classes of issue 5, as request paths against the LIT deployment. Words come
 * from `benchmarkTerms`, whose document frequencies the generator guarantees, so each
 * class means the same thing at any corpus size.
 */

export const basePath = '/api/lit/v1';

export interface QueryClass {
  readonly id: string;
  readonly label: string;
  /** The path of the i-th request of this class (most classes repeat one path). */
  path(i: number, records: number): string;
  /** Uncached p95 target where it differs from the search classes' (targets.p95Ms). */
  readonly p95Ms?: number;
}

const list = (params: Record<string, string>) => `${basePath}/records?${new URLSearchParams(params).toString()}`;
const fixed = (id: string, label: string, params: Record<string, string>): QueryClass => ({ id, label, path: () => list(params) });

/** The phrase's words joined as one word whose last part is a prefix: FTS5's `"molten sa"*`. */
const prefixPhrase = `${terms.phrase.split(' ')[0]}-${terms.phrase.split(' ')[1]!.slice(0, 2)}*`;

const dateRange = { publication_date_start: '01/01/2015', publication_date_end: '12/31/2016' };

/** Spreads record requests over the corpus, so a single-record fetch is not always the same row. */
const recordAt = (i: number, records: number) => defaultStartId + ((i * 7919) % Math.max(1, records));

export const queryClasses: readonly QueryClass[] = [
  fixed('rare', `rare term (q=${terms.rare}, ~10 per million)`, { q: terms.rare }),
  fixed('onePercent', `term in ~1% (q=${terms.onePercent})`, { q: terms.onePercent }),
  fixed('common', `term in ~30% (q=${terms.common})`, { q: terms.common }),
  fixed('nearlyAll', `word in ~97% (q=${terms.nearlyAll})`, { q: terms.nearlyAll }),
  fixed('and', `two-term AND (q=${terms.common} ${terms.nearlyAll})`, { q: `${terms.common} ${terms.nearlyAll}` }),
  fixed('phrase', `phrase (q="${terms.phrase}")`, { q: `"${terms.phrase}"` }),
  fixed('prefix', `prefix (q=${terms.prefix}*)`, { q: `${terms.prefix}*` }),
  fixed('or', `OR of two terms (q=${terms.common} OR ${terms.nearlyAll})`, { q: `${terms.common} OR ${terms.nearlyAll}` }),
  fixed('not', `term NOT term (q=${terms.common} NOT ${terms.nearlyAll})`, { q: `${terms.common} NOT ${terms.nearlyAll}` }),
  fixed('prefixPhrase', `phrase ending in a prefix (q=${prefixPhrase})`, { q: prefixPhrase }),
  fixed('author', `author (author=${terms.author})`, { author: terms.author }),
  fixed('title', 'title (title=reactor)', { title: 'reactor' }),
  fixed('dateRange', 'date range (2015–2016, newest first)', dateRange),
  fixed('dateCommon', `date range + q=${terms.common}`, { q: terms.common, ...dateRange }),
  fixed('sortDate', `q=${terms.common} sorted by publication date`, { q: terms.common, sort: 'publication_date' }),
  fixed('sortTitle', `q=${terms.common} sorted by title`, { q: terms.common, sort: 'title' }),
  fixed('deepPage', `deep page (q=${terms.common}, page 5000)`, { q: terms.common, page: '5000' }),
  {
    id: 'facets',
    label: `every facet of a search (/facets?q=${terms.common})`,
    path: () => `${basePath}/facets?${new URLSearchParams({ q: terms.common }).toString()}`,
    p95Ms: 100,
  },
  {
    // Issue 24: what the filter column asks once a researcher has ticked values, the year chart's counts included.
    id: 'facetsCombined',
    label: `every facet, two facets with two values ticked and one excluded, every year (/facets?q=${terms.common}&facet.…)`,
    path: () =>
      `${basePath}/facets?${new URLSearchParams([
        ['q', terms.common],
        ['facet.product_type', 'Journal Article'],
        ['facet.product_type', 'Technical Report'],
        ['facet.publication_decade', '2010s'],
        ['facet.publication_decade', '2000s'],
        ['exclude.publication_year', '2015'],
        ['facet_limit.publication_year', '1000'],
      ]).toString()}`,
    p95Ms: 100,
  },
  { id: 'record', label: 'single record (GET /records/{id})', path: (i, records) => `${basePath}/records/${recordAt(i, records)}` },
];

/**
 * The load-test mix: what a search app's users send. Half are first-page searches over
 * the classes above (common ones more often), a quarter follow a `next` link or open a
 * record, and the rest are searches for ordinary vocabulary words, so the mix is not all
 * repeats of fifteen URLs.
 */
const vocabulary = [
  'reactor',
  'plasma',
  'neutrino',
  'grid',
  'alloy',
  'carbon',
  'fuel',
  'solar',
  'wind',
  'battery',
  'catalyst',
  'genome',
  'fusion',
  'hydrogen',
  'magnetic',
  'turbine',
  'laser',
  'membrane',
  'climate',
  'detector',
];

export interface MixEntry {
  readonly weight: number;
  path(random: () => number, records: number): string;
}

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;
const classById = new Map(queryClasses.map((c) => [c.id, c]));
const fromClass = (id: string, weight: number): MixEntry => ({ weight, path: (_, records) => classById.get(id)!.path(0, records) });

export const mix: readonly MixEntry[] = [
  fromClass('rare', 3),
  fromClass('onePercent', 6),
  fromClass('common', 8),
  fromClass('nearlyAll', 3),
  fromClass('and', 4),
  fromClass('phrase', 4),
  fromClass('prefix', 3),
  fromClass('author', 5),
  fromClass('title', 4),
  fromClass('dateRange', 3),
  fromClass('dateCommon', 3),
  fromClass('sortDate', 2),
  fromClass('sortTitle', 2),
  { weight: 12, path: (random) => list({ q: terms.common, page: String(2 + Math.floor(random() * 4)) }) },
  { weight: 2, path: () => list({ q: terms.common, page: '5000' }) },
  { weight: 14, path: (random, records) => classById.get('record')!.path(Math.floor(random() * 1e9), records) },
  { weight: 22, path: (random) => list({ q: pick(vocabulary, random), page: String(1 + Math.floor(random() * 2)) }) },
];

/** A deterministic weighted chooser over the mix, so every run sends the same sequence. */
export function mixPaths(seed: number, records: number): () => string {
  const random = seededRandom(seed);
  const total = mix.reduce((sum, entry) => sum + entry.weight, 0);
  return () => {
    let roll = random() * total;
    for (const entry of mix) {
      roll -= entry.weight;
      if (roll < 0) return entry.path(random, records);
    }
    return mix.at(-1)!.path(random, records);
  };
}

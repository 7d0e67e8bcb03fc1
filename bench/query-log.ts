import { deploymentByKey } from '../src/deployments/registry';
import { defaultStartId, generateRecords } from '../src/server/corpus/generate';
import { slip } from '../src/server/corpus/known-items';
import { basePath } from './queries';
import { seededRandom } from '../src/server/corpus/random';

/**
 * A query log drawn from the generated corpus itself, so the benchmark sends what users of
 * this collection would: words by their real document frequency (measured on an even
 * sample of the records, which stands for the whole since each record is seeded by its own
 * id), two-word phrases as the titles have them, authors as the records name them, dates,
 * and facet values the records carry. Every query of a run is distinct: a class whose
 * supply runs out reports fewer samples rather than repeating one.
 */

/** Records read to learn the vocabulary; at most the corpus. */
const sampleSize = 4000;

/** Small words that make common-word phrases ("effect of", "of the"). */
const stopwords = new Set(['of', 'the', 'and', 'in', 'on', 'for', 'with', 'to', 'a', 'an', 'by', 'from', 'at', 'as', 'into', 'under']);
/** Function words nobody searches for alone: left out of the single-term and boolean classes. */
const functionWords = new Set([
  ...stopwords,
  'are',
  'were',
  'was',
  'that',
  'these',
  'this',
  'which',
  'while',
  'also',
  'its',
  'all',
  'than',
  'been',
  'has',
  'have',
  'not',
  'but',
  'can',
  'our',
  'their',
  'they',
  'between',
  'using',
  'within',
]);

export interface CorpusVocabulary {
  readonly sampled: number;
  /** Words (3+ letters) by the share of sampled records that contain them. */
  readonly shares: ReadonlyMap<string, number>;
  /** Consecutive word pairs of the titles, once per occurrence (so drawn by frequency). */
  readonly titleBigrams: readonly string[];
  readonly authors: readonly string[];
  readonly subjects: readonly string[];
  readonly productTypes: readonly string[];
  readonly years: readonly number[];
}

const words = (text: string) => text.toLowerCase().match(/\p{L}+/gu) ?? [];

export function learnVocabulary(records: number, seed: number): CorpusVocabulary {
  const lit = deploymentByKey('LIT')!;
  const sampled = Math.min(records, sampleSize);
  const step = records / sampled;
  const df = new Map<string, number>();
  const titleBigrams: string[] = [];
  const authors = new Set<string>();
  const subjects = new Set<string>();
  const productTypes = new Set<string>();
  const years = new Set<number>();
  for (let i = 0; i < sampled; i++) {
    const [stored] = generateRecords(lit, 1, { seed, startId: defaultStartId + Math.floor(i * step) });
    const record = stored!.record as Record<string, unknown>;
    const text = [record.title, record.description, ...((record.subjects as string[] | undefined) ?? []), stored!.fulltext ?? '']
      .filter((part): part is string => typeof part === 'string')
      .join(' ');
    for (const word of new Set(words(text).filter((word) => word.length >= 3))) df.set(word, (df.get(word) ?? 0) + 1);
    const title = words(String(record.title ?? ''));
    for (let w = 0; w + 1 < title.length; w++) titleBigrams.push(`${title[w]} ${title[w + 1]}`);
    for (const author of (record.authors as string[] | undefined) ?? []) authors.add(author.replace(/\s*[[(].*$/, '').trim());
    for (const subject of (record.subjects as string[] | undefined) ?? []) subjects.add(subject);
    if (typeof record.product_type === 'string' && record.product_type) productTypes.add(record.product_type);
    const year = Number(String(record.publication_date ?? '').slice(0, 4));
    if (year > 0) years.add(year);
  }
  const shares = new Map([...df].map(([word, count]) => [word, count / sampled]));
  return {
    sampled,
    shares,
    titleBigrams,
    authors: [...authors],
    subjects: [...subjects],
    productTypes: [...productTypes].sort(),
    years: [...years].sort(),
  };
}

export interface TrafficClass {
  readonly id: string;
  readonly label: string;
  /** A request path of this class, drawn at random (it may repeat one drawn before; the log skips those). */
  draw(random: () => number): string | undefined;
  /** A search whose facets a user's app asks for beside it (the mix with facets). */
  readonly search: boolean;
  /** Too few distinct queries to spend any on warming the server up (a band of the vocabulary). */
  readonly scarce?: boolean;
}

const list = (params: [string, string][]) => `${basePath}/records?${new URLSearchParams(params).toString()}`;
const facetsOf = (params: [string, string][]) => `${basePath}/facets?${new URLSearchParams(params).toString()}`;

/** The facets request the app sends beside a search: the same criteria at /facets. */
export function facetsBeside(searchPath: string): string {
  return searchPath.replace(`${basePath}/records?`, `${basePath}/facets?`);
}

/** The shares of the records the single-term classes' words are in, [low, high). */
const termBands = { rare: [0, 0.002], onePercent: [0.005, 0.02], common: [0.2, 0.6], nearlyAll: [0.8, 1.01] } as const;

const inBand = (share: number, [low, high]: readonly [number, number]) => share >= low && share < high;

export function trafficClasses(vocabulary: CorpusVocabulary): TrafficClass[] {
  const band = (shares: readonly [number, number]) =>
    [...vocabulary.shares].filter(([word, share]) => inBand(share, shares) && !functionWords.has(word)).map(([word]) => word);
  const rare = band(termBands.rare);
  const onePercent = band(termBands.onePercent);
  const common = band(termBands.common);
  const nearlyAll = band(termBands.nearlyAll);
  const prefixable = band([0.005, 1.01]).filter((word) => word.length >= 6);
  const commonPhrases = vocabulary.titleBigrams.filter((bigram) => bigram.split(' ').some((word) => stopwords.has(word)));
  const pick = <T>(items: readonly T[], random: () => number): T | undefined => items[Math.floor(random() * items.length)];
  const term = (id: string, label: string, words: readonly string[]): TrafficClass => ({
    id,
    label: `${label} (${words.length} words)`,
    search: true,
    scarce: true,
    draw: (random) => {
      const word = pick(words, random);
      return word && list([['q', word]]);
    },
  });
  const two = (id: string, label: string, left: readonly string[], right: readonly string[], join: string): TrafficClass => ({
    id,
    label,
    search: true,
    draw: (random) => {
      const [a, b] = [pick(left, random), pick(right, random)];
      return a && b && a !== b ? list([['q', `${a}${join}${b}`]]) : undefined;
    },
  });
  const searchable = band([0, 1.01]);
  const year = (random: () => number) => pick(vocabulary.years, random);
  const decade = (y: number) => `${Math.floor(y / 10) * 10}s`;
  return [
    term('rare', 'single term, rare (< 0.2% of records)', rare),
    term('onePercent', 'single term in ~1% (0.5–2%)', onePercent),
    term('common', 'single term in 20%+ (20–60%)', common),
    term('nearlyAll', 'single term in nearly every record (80%+)', nearlyAll),
    {
      id: 'phrase',
      label: 'two-word phrase from the titles, by frequency',
      search: true,
      draw: (random) => {
        const bigram = pick(vocabulary.titleBigrams, random);
        return bigram && list([['q', `"${bigram}"`]]);
      },
    },
    {
      id: 'phraseCommon',
      label: 'common-word phrase from the titles ("effect of", "of the")',
      search: true,
      draw: (random) => {
        const bigram = pick(commonPhrases, random);
        return bigram && list([['q', `"${bigram}"`]]);
      },
    },
    two('and', 'two terms, AND (1% and 20%+)', onePercent, common, ' '),
    two('or', 'two terms, OR (1% or 1%)', onePercent, onePercent, ' OR '),
    two('not', 'two terms, NOT (20%+ NOT 1%)', common, onePercent, ' NOT '),
    {
      id: 'prefix',
      label: 'prefix (4–6 letters of a word in 0.5%+)',
      search: true,
      draw: (random) => {
        const word = pick(prefixable, random);
        return word && list([['q', `${word.slice(0, 4 + Math.floor(random() * 3))}*`]]);
      },
    },
    {
      id: 'author',
      label: 'author, as the records name them',
      search: true,
      draw: (random) => {
        const author = pick(vocabulary.authors, random);
        return author && list([['author', author]]);
      },
    },
    {
      id: 'dateTerm',
      label: 'date range (1–5 years) + a term in 1% or 20%+',
      search: true,
      draw: (random) => {
        const word = pick(random() < 0.5 ? onePercent : common, random);
        const from = year(random);
        if (!word || from === undefined) return undefined;
        const to = from + Math.floor(random() * 5);
        return list([
          ['q', word],
          ['publication_date_start', `01/01/${from}`],
          ['publication_date_end', `12/31/${to}`],
        ]);
      },
    },
    {
      id: 'suggest3',
      label: '"Did you mean" for three words, one with a typing slip (/suggest; target p95 ≤ 20 ms at 1M)',
      search: false,
      draw: (random) => {
        const words = [pick(searchable, random), pick(searchable, random), pick(searchable, random)];
        const long = words.findIndex((word) => word !== undefined && word.length >= 5);
        if (words.some((word) => word === undefined) || long < 0) return undefined;
        const q = words.map((word, i) => (i === long ? slip(word!, random) : word)).join(' ');
        return `${basePath}/suggest?${new URLSearchParams({ q }).toString()}`;
      },
    },
    {
      id: 'typeAhead',
      label: 'type-ahead, one keystroke: 1–8 letters of an author surname or a subject (/complete; target p95 ≤ 30 ms at 1M)',
      search: false,
      draw: (random) => {
        const value = random() < 0.5 ? pick(vocabulary.authors, random)?.split(',')[0] : pick(vocabulary.subjects, random);
        if (!value) return undefined;
        const prefix = value.slice(0, 1 + Math.floor(random() * Math.min(8, value.length)));
        return `${basePath}/complete?${new URLSearchParams({ prefix }).toString()}`;
      },
    },
    {
      id: 'facets',
      label: 'every facet of a broad search (/facets?q=<20%+ term> <80%+ term>)',
      search: false,
      draw: (random) => {
        const [a, b] = [pick(common, random), pick(nearlyAll, random)];
        return a && b && facetsOf([['q', `${a} ${b}`]]);
      },
    },
    {
      id: 'facetsCombined',
      label: 'every facet with selections: two types and two decades ticked, a year excluded',
      search: false,
      draw: (random) => {
        const word = pick(common, random);
        const [t1, t2] = [pick(vocabulary.productTypes, random), pick(vocabulary.productTypes, random)];
        const [y1, y2, y3] = [year(random), year(random), year(random)];
        if (!word || !t1 || !t2 || t1 === t2 || y1 === undefined || y2 === undefined || y3 === undefined) return undefined;
        if (decade(y1) === decade(y3)) return undefined;
        return facetsOf([
          ['q', word],
          ['facet.product_type', t1],
          ['facet.product_type', t2],
          ['facet.publication_decade', decade(y1)],
          ['facet.publication_decade', decade(y3)],
          ['exclude.publication_year', String(y2)],
          ['facet_limit.publication_year', '1000'],
        ]);
      },
    },
  ];
}

/**
 * Single words no measured class draws (function words, and words between the term classes'
 * bands): they warm up the server's single-term code on short and long lists without
 * spending the scarce term classes' words.
 */
export function warmupWords(vocabulary: CorpusVocabulary): TrafficClass {
  const gaps = [...vocabulary.shares]
    .filter(([word, share]) => functionWords.has(word) || !Object.values(termBands).some((shares) => inBand(share, shares)))
    .map(([word]) => word);
  return {
    id: 'warmupWords',
    label: 'single words no measured class draws (warm-up only)',
    search: false,
    draw: (random) => {
      const word = gaps[Math.floor(random() * gaps.length)];
      return word && list([['q', word]]);
    },
  };
}

/**
 * The log: draws from a class until it has a path not sent before in this run, or gives up
 * (its supply is spent). One log per run, shared by every measurement, so nothing repeats.
 */
export function queryLog(seed: number) {
  const random = seededRandom(seed);
  const sent = new Set<string>();
  function next(trafficClass: TrafficClass): string | undefined {
    for (let attempt = 0; attempt < 200; attempt++) {
      const path = trafficClass.draw(random);
      if (path === undefined || sent.has(path)) continue;
      sent.add(path);
      return path;
    }
    return undefined;
  }
  /** Every class's searches in turn: the mix of distinct queries. */
  function mixed(classes: readonly TrafficClass[]): () => string | undefined {
    const searches = classes.filter((c) => c.search);
    let turn = 0;
    return () => {
      for (let tries = 0; tries < searches.length; tries++) {
        const path = next(searches[turn++ % searches.length]!);
        if (path) return path;
      }
      return undefined;
    };
  }
  return { next, mixed };
}

export type QueryLog = ReturnType<typeof queryLog>;

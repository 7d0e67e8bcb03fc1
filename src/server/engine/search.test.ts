import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import type { QueryEngine } from '../store/engine';
import type { Criteria } from '../store/types';
import { openEngine } from '../store/sqlite/query-engine';
import { openPostings } from '../store/sqlite/postings-reader';
import { referenceIndex, referenceRank, type ReferenceIndex } from '../store/reference-ranker.test-support';
import { openStoreWriter } from '../store/sqlite/sqlite';
import { storedTexts } from '../store/sqlite/stored-text';
import { IdSet } from './id-set';
import { StoredPostings, type Postings } from './postings/block-postings';
import type { PostingsReader } from './postings/index-reader';
import { pairColumnOf, pairScopes } from './postings/pairs';
import { TextSearch } from './search';
import { tablesOf } from '../store/sqlite/schema';

/**
 * Every shape of the query language, ranked from the postings, against the plain
 * reimplementation of the search definition (reference-ranker.ts): the same records,
 * the same total, in the same order, for random queries, whether the first records come
 * from block-max top k or from scoring every match.
 */

const lit = deploymentByKey('LIT')!;
let dir: string;
let engine: QueryEngine;
let db: Database.Database;
let index: ReferenceIndex;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-text-search-'));
  const path = join(dir, 'store.db');
  const writer = openStoreWriter(path);
  const records = [...generateRecords(lit, 400, { seed: 21 })];
  writer.put('LIT', records.slice(0, 300));
  // Replaced records: their postings were updated in place, and a phrase that ends in a prefix appears.
  writer.put(
    'LIT',
    records.slice(10, 40).map((stored, i) => ({
      ...stored,
      record: { ...stored.record, title: `Heat transfer in molten salt ${i % 3 ? 'reactors' : 'loops'}` },
    })),
  );
  // Common words at a column's end and the next column's start, one place apart in offsets: no phrase.
  writer.put(
    'LIT',
    records.slice(50, 60).map((stored, i) => ({
      ...stored,
      record: {
        ...stored.record,
        title: i % 2 ? 'Analysis of' : 'Effect of of the heat transfer in the data',
        description: 'Data flow the analysis in the molten salt of the reactor.',
      },
    })),
  );
  // New records a few at a time: the common words' lists grow by tails (store/sqlite/indexer/postings-tails.ts), read with them.
  for (let from = 300; from < 400; from += 5) writer.put('LIT', records.slice(from, from + 5));
  writer.close();
  engine = openEngine(path);
  db = new Database(path, { readonly: true });
  index = referenceIndex(db, lit);
}, 60_000);

afterAll(() => {
  engine?.close();
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const words = [
  'temperature',
  'data',
  'reactor',
  'plasma',
  'molten',
  'salt',
  'heat',
  'transfer',
  'thermal',
  'Temperatures',
  'study',
  'grid',
  'zzzunknown',
  'of',
  'the',
  'in',
  'effect',
  'analysis',
];
const word = fc.constantFrom(...words);
const atom: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: word, weight: 4 },
  { arbitrary: fc.tuple(word, fc.integer({ min: 1, max: 4 })).map(([w, cut]) => `${w.slice(0, Math.max(2, w.length - cut))}*`), weight: 2 },
  { arbitrary: fc.tuple(word, word).map(([a, c]) => `"${a} ${c}"`), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      '"molten salt"',
      '"heat transfer"',
      'heat-tr*',
      'molten-sa*',
      'molten-s*',
      'molten-salt-s*',
      'heat-transfer-c*',
      'heat-transfer',
      '"of the"',
      '"of of"',
      '"in the"',
      '"effect of"',
      '"analysis in"',
      '"of the data"',
      '"effect of of the"',
    ),
    weight: 2,
  },
);
const expression: fc.Arbitrary<string> = fc.letrec((tie) => ({
  expr: fc.oneof(
    { arbitrary: atom, weight: 4 },
    { arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, c]) => `${a} ${c}`), weight: 2 },
    { arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, c]) => `(${a}) OR (${c})`), weight: 2 },
    { arbitrary: fc.tuple(atom, tie('expr')).map(([a, c]) => `${a} OR ${c}`), weight: 1 },
    { arbitrary: fc.tuple(tie('expr'), atom).map(([a, c]) => `${a} NOT ${c}`), weight: 1 },
    { arbitrary: fc.tuple(tie('expr'), atom).map(([a, c]) => `${a} -${c}`), weight: 1 },
    { arbitrary: atom.map((a) => `-${a}`), weight: 1 },
  ),
})).expr;

/** The first `need` records and the total of each page size, as the reference ranks them. */
function expectPages(searched: QueryEngine, query: string, criteria: Criteria, expected: readonly number[], needs: readonly number[]) {
  for (const need of needs) {
    const page = searched.rank('LIT', criteria, need);
    expect({ query, need, total: page.total, ids: Array.from(page.ids) }).toEqual({
      query,
      need,
      total: expected.length,
      ids: expected.slice(0, need),
    });
  }
}

describe('one ranking path for every query shape', () => {
  it('reads a phrase of common words from its pair list, and keeps positions for the others', () => {
    const reader = openPostings(db, lit)!;
    expect(reader.hasPair('of', 'the')).toBe(true);
    expect(reader.readPair('of', 'the')!.docs).toBeGreaterThan(10);
    expect(reader.readPair('of', 'the', 'title')!.docs).toBeLessThan(reader.readPair('of', 'the')!.docs);
    expect(reader.hasPair('zzzunknown', 'the')).toBe(false);
    // "of" ends a title and "the" is the description's third word in ten records: no pair there.
    const { criteria } = parseListRequest(lit, parseQueryString('q=%22of%20the%22'));
    const ranked = engine.rank('LIT', criteria, 10_000);
    expect(ranked.total).toBe(reader.readPair('of', 'the')!.docs);
    expect(Array.from(ranked.ids)).toEqual(referenceRank(index, criteria).ids);
  });

  it('keeps no pair lists in the description, subjects and biblio columns, and phrases searched there still rank as the reference does', () => {
    const reader = openPostings(db, lit)!;
    const columns = (table: string) =>
      (db.prepare(`SELECT DISTINCT id % ${pairScopes} FROM lit_${table}`).pluck().all() as number[]).map(pairColumnOf);
    expect(columns('pairs')).toEqual(expect.arrayContaining(['', 'authors', 'fulltext', 'title']));
    for (const column of [...columns('pairs'), ...columns('pairs_tail')])
      expect(['description', 'subjects', 'biblio']).not.toContain(column);
    expect(reader.hasPair('of', 'the', 'title')).toBe(true);
    expect(reader.hasPair('of', 'the', 'subjects')).toBe(false);
    // Common words' phrases in one column without pair lists there (subject=), in every column but the full
    // text (biblio=: the whole-record list less the full text's), and where the lists are kept.
    const phrases = ['of the', 'in the', 'the data', 'analysis of the', 'the analysis in the molten', 'effect of of the'];
    let found = 0;
    for (const name of ['subject', 'biblio', 'fulltext', 'title', 'q']) {
      for (const phrase of phrases) {
        const { criteria } = parseListRequest(lit, parseQueryString(`${name}=${encodeURIComponent(`"${phrase}"`)}`));
        const expected = referenceRank(index, criteria).ids;
        found += expected.length;
        expect({ name, phrase, ids: Array.from(engine.rank('LIT', criteria, 10_000).ids) }).toEqual({ name, phrase, ids: expected });
      }
    }
    expect(found).toBeGreaterThan(100);
  });

  it('reads lists, pair lists and positions with the tails that writes of new records appended to them', () => {
    const tails = (table: string) => db.prepare(`SELECT count(*) FROM lit_${table}_tail`).pluck().get() as number;
    expect(tails('postings')).toBeGreaterThan(50);
    expect(tails('positions')).toBeGreaterThan(20);
    expect(tails('pairs')).toBeGreaterThan(20);
    const reader = openPostings(db, lit)!;
    expect(reader.positions('the')!.parts).toHaveLength(2);
    expect(reader.read('the')!.docs).toBe(referenceRank(index, parseListRequest(lit, parseQueryString('q=the')).criteria).ids.length);
    // Phrases from the appended records' titles: their words' positions are read across list and tail.
    const last = db.prepare(`SELECT max(id) FROM lit_records`).pluck().get() as number;
    const titles = [...storedTexts(db, lit)].filter(([id]) => id > last - 100).map(([, text]) => text.title);
    const phrases = [
      ...new Set(
        titles.flatMap((title) =>
          title
            .toLowerCase()
            .split(/[^a-z]+/)
            .filter(Boolean)
            .slice(0, 4)
            .join(' '),
        ),
      ),
    ].filter((phrase) => phrase.includes(' '));
    expect(phrases.length).toBeGreaterThan(50);
    for (const phrase of phrases) {
      const { criteria } = parseListRequest(lit, parseQueryString(`q=${encodeURIComponent(`"${phrase}"`)}`));
      expect({ phrase, ids: Array.from(engine.rank('LIT', criteria, 10_000).ids) }).toEqual({
        phrase,
        ids: referenceRank(index, criteria).ids,
      });
    }
  });

  it('finds long phrases (whole titles) and authors as the reference does, the second time from the places and marks kept the first', () => {
    const texts = [...storedTexts(db, lit)].map(([, text]) => text);
    const titles = texts
      .map(({ title }) =>
        title
          .toLowerCase()
          .split(/[^a-z]+/)
          .filter(Boolean),
      )
      .filter((words) => words.length >= 6);
    const authors = texts.flatMap(({ authors }) => authors.split('\n').filter((line) => /^[\p{L}-]+( \p{L})+$/u.test(line)));
    expect(titles.length).toBeGreaterThan(20);
    expect(authors.length).toBeGreaterThan(20);
    const searches = [
      ...titles.slice(0, 40).flatMap((words) => [`q="${words.join(' ')}"`, `title="${words.slice(1).join(' ')}"`]),
      ...authors.slice(0, 40).map((line) => `author=${line.replace(' ', ', ')}`),
    ];
    for (let round = 0; round < 2; round++)
      for (const search of searches) {
        const { criteria } = parseListRequest(
          lit,
          parseQueryString(search.replace(/=(.*)$/, (_, value: string) => `=${encodeURIComponent(value)}`)),
        );
        const { total, ids } = engine.rank('LIT', criteria, 10_000);
        const expected = referenceRank(index, criteria).ids;
        expect({ search, round, total, ids: Array.from(ids) }).toEqual({ search, round, total: expected.length, ids: expected });
      }
  });

  it('matches and ranks words, prefixes, phrases, prefix phrases, AND, OR, NOT, -, parentheses and parameters as the reference does', () => {
    let scoredRuns = 0;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.constantFrom('q', 'title', 'author', 'subject'), expression), {
          minLength: 1,
          maxLength: 2,
          selector: ([name]) => name,
        }),
        fc.constantFrom('', 'order=asc'),
        (parts, order) => {
          const query = [...parts.map(([name, text]) => `${name}=${encodeURIComponent(text)}`), order].filter(Boolean).join('&');
          let criteria;
          try {
            criteria = parseListRequest(lit, parseQueryString(query)).criteria;
          } catch {
            return; // a query the parser refuses (too deep, say) is not a ranking question
          }
          const expected = referenceRank(index, criteria);
          const actual = engine.rank('LIT', criteria, 10_000);
          expect({ query, total: actual.total }).toEqual({ query, total: expected.ids.length });
          if (!expected.scored) return; // nothing to rank by: newest first, which engine.test.ts checks
          scoredRuns++;
          expect({ query, ids: Array.from(actual.ids) }).toEqual({ query, ids: expected.ids });
          // A first page (block-max top k) and a deeper one: the same records, the same total.
          expectPages(engine, query, criteria, expected.ids, [1, 10, 150]);
        },
      ),
      { numRuns: 200 },
    );
    expect(scoredRuns).toBeGreaterThan(60);
  }, 120_000);

  it('finds authors as the records name them, and names mixed from several, in the authors column as the reference does', () => {
    // The short forms ("Wang P N"): a surname and initials, most of them common tokens with pair lists.
    const names = [...storedTexts(db, lit)].flatMap(([, { authors }]) =>
      authors.split('\n').filter((line) => /^[\p{L}-]+( \p{L})+$/u.test(line)),
    );
    const parts = [...new Set(names.flatMap((name) => name.split(' ')))];
    expect(names.length).toBeGreaterThan(200);
    const reader = openPostings(db, lit)!;
    expect(
      names.filter((name) =>
        name.split(' ').every((part, i, all) => i === 0 || reader.hasPair(all[i - 1]!.toLowerCase(), part.toLowerCase())),
      ).length,
    ).toBeGreaterThan(50);
    const author = fc.oneof(
      fc.constantFrom(...names),
      // A surname with initials of other authors, or initials alone: candidates that hold every pair but not the phrase.
      fc.array(fc.constantFrom(...parts), { minLength: 2, maxLength: 4 }).map((words) => words.join(' ')),
      fc
        .tuple(fc.constantFrom(...names), fc.constantFrom(...names))
        .map(([a, b]) => `${a.split(' ')[0]} ${b.split(' ').slice(1).join(' ')}`),
    );
    fc.assert(
      fc.property(author, fc.constantFrom('author', 'q'), (name, parameter) => {
        const query = `${parameter}=${encodeURIComponent(parameter === 'q' ? `"${name}"` : name)}`;
        const { criteria } = parseListRequest(lit, parseQueryString(query));
        const expected = referenceRank(index, criteria);
        for (const need of [10_000, 10]) {
          const actual = engine.rank('LIT', criteria, need);
          expect({ query, total: actual.total, ids: Array.from(actual.ids) }).toEqual({
            query,
            total: expected.ids.length,
            ids: expected.ids.slice(0, need),
          });
        }
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('finds words, phrases and prefixes within a few records named by repo_id as the reference does over all of them', () => {
    const records = db.prepare(`SELECT id, repo_id FROM lit_records ORDER BY id`).raw().all() as [number, string][];
    fc.assert(
      fc.property(
        expression,
        fc.uniqueArray(fc.integer({ min: 0, max: records.length - 1 }), { minLength: 1, maxLength: 3 }),
        (text, picks) => {
          const chosen = picks.map((at) => records[at]!);
          const query = `q=${encodeURIComponent(text)}&repo_id=${encodeURIComponent(chosen.map(([, repoId]) => repoId).join(' OR '))}`;
          let criteria;
          try {
            criteria = parseListRequest(lit, parseQueryString(query), { idLists: true }).criteria;
          } catch {
            return;
          }
          const allowed = new Set(chosen.map(([id]) => id));
          const { criteria: whole } = parseListRequest(lit, parseQueryString(`q=${encodeURIComponent(text)}`));
          const expected = referenceRank(index, whole);
          const actual = engine.rank('LIT', criteria, 10_000);
          const inAllowed = expected.ids.filter((id) => allowed.has(id));
          expect({ query, total: actual.total }).toEqual({ query, total: inAllowed.length });
          if (expected.scored) expect({ query, ids: Array.from(actual.ids) }).toEqual({ query, ids: inAllowed });
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it("reads a phrase of common words within one record from the blocks that may hold it, not its words' whole lists", () => {
    const reader = openPostings(db, lit)!;
    let decoded = 0;
    const counting = (postings: Postings | undefined) =>
      postings &&
      new Proxy(postings, {
        get(target, name, receiver) {
          const value: unknown = Reflect.get(target, name, receiver);
          if (name !== 'ids' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
          return (b: number) => {
            decoded++;
            return (value as Postings['ids']).call(target, b);
          };
        },
      });
    const watched: PostingsReader = {
      ...reader,
      read: (token, column) => counting(reader.read(token, column)),
      readPair: (a, b, column) => counting(reader.readPair(a, b, column)),
    };
    const blocks = (token: string) => reader.read(token)!.blocks;
    expect(blocks('of') + blocks('the')).toBeGreaterThan(6);
    const [id] = db.prepare(`SELECT id FROM lit_records ORDER BY id LIMIT 1 OFFSET 50`).pluck().all() as number[];
    const capacity = reader.lengths.length;
    const { criteria } = parseListRequest(lit, parseQueryString(`q=${encodeURIComponent('"effect of of the" OR "of the data"')}`));
    const search = TextSearch.of(watched, criteria.text, {
      capacity,
      universe: () => IdSet.of([], capacity),
      filter: IdSet.of([id!], capacity),
    })!;
    expect(search.count()).toBe(referenceRank(index, criteria).ids.includes(id!) ? 1 : 0);
    // One block for each of the phrases' seven words at most (their whole lists are more than twice that).
    expect(decoded).toBeLessThanOrEqual(7);
  });

  it("merges a prefix's lists as it reads them, so a short prefix's many lists are never all held at once", () => {
    const reader = openPostings(db, lit)!;
    // Lists read and not yet merged: the merge decodes a list's blocks as it adds it.
    const waiting = new Set<Postings>();
    let mostWaiting = 0;
    const watching = (postings: Postings | undefined) => {
      if (!postings) return postings;
      waiting.add(postings);
      mostWaiting = Math.max(mostWaiting, waiting.size);
      return new Proxy(postings, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (key !== 'ids' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
          return (b: number) => {
            waiting.delete(postings);
            return (value as Postings['ids']).call(target, b);
          };
        },
      });
    };
    const watched: PostingsReader = { ...reader, read: (token, column) => watching(reader.read(token, column)) };
    expect(reader.expand('a').length).toBeGreaterThan(10);
    const { criteria } = parseListRequest(lit, parseQueryString('q=a*'));
    const capacity = reader.lengths.length;
    const search = TextSearch.of(watched, criteria.text, { capacity, universe: () => IdSet.of([], capacity), filter: undefined })!;
    expect(search.count()).toBe(referenceRank(index, criteria).ids.length);
    expect(mostWaiting).toBeLessThanOrEqual(2);
  });

  it('ranks a prefix whose one expansion holds most of its records, read through that expansion, as the reference does', () => {
    const reader = openPostings(db, lit)!;
    // Prefixes whose longest expansion holds four times as many records as the others (postings/merged-postings.ts).
    const prefixes = [...new Set(words.flatMap((w) => [2, 3, 4, 5].map((cut) => w.toLowerCase().slice(0, cut))))].filter((prefix) => {
      const docs = reader
        .expand(prefix)
        .map((token) => reader.read(token)!.docs)
        .sort((x, y) => y - x);
      const others = docs.slice(1).reduce((sum, n) => sum + n, 0);
      return others > 0 && others * 4 <= docs[0]!;
    });
    expect(prefixes.length).toBeGreaterThan(2);
    for (const prefix of prefixes) {
      for (const query of [`${prefix}*`, `${prefix}* thermal`, `${prefix}* OR grid`, `${prefix}* -data`]) {
        const { criteria } = parseListRequest(lit, parseQueryString(`q=${encodeURIComponent(query)}`));
        expectPages(engine, query, criteria, referenceRank(index, criteria).ids, [1, 3, 10, 10_000]);
      }
    }
  });

  it("decodes each block of a phrase's lists once, a common word's too, where a rare word narrows it", () => {
    const reader = openPostings(db, lit)!;
    const capacity = reader.lengths.length;
    let decodes = new Map<string, number>();
    const lists = new WeakMap<Postings, string>();
    const counting = (postings: Postings | undefined, name: string) => {
      if (!postings) return postings;
      lists.set(postings, name);
      return new Proxy(postings, {
        get(target, key, receiver) {
          const value: unknown = Reflect.get(target, key, receiver);
          if (key !== 'ids' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
          return (b: number) => {
            const block = `${lists.get(target)} block ${b}`;
            decodes.set(block, (decodes.get(block) ?? 0) + 1);
            return (value as Postings['ids']).call(target, b);
          };
        },
      });
    };
    const watched: PostingsReader = {
      ...reader,
      read: (token, column) => counting(reader.read(token, column), `${token} in ${column ?? 'records'}`),
      readPair: (a, b, column) => counting(reader.readPair(a, b, column), `${a} ${b} in ${column ?? 'records'}`),
    };
    const common = (token: string) => reader.hasPair(token, token);
    const phrases = words
      .flatMap((a) => words.map((b) => [a.toLowerCase(), b.toLowerCase()] as const))
      .filter(([a, b]) => common(a) !== common(b));
    let commonBlocksRead = 0;
    let matched = 0;
    for (const [a, b] of phrases) {
      decodes = new Map();
      const { criteria } = parseListRequest(lit, parseQueryString(`q=${encodeURIComponent(`"${a} ${b}"`)}`));
      const search = TextSearch.of(watched, criteria.text, { capacity, universe: () => IdSet.of([], capacity), filter: undefined })!;
      if (search.count() > 0) matched++;
      const twice = [...decodes].filter(([, n]) => n > 1).map(([block]) => block);
      expect({ phrase: `${a} ${b}`, twice }).toEqual({ phrase: `${a} ${b}`, twice: [] });
      commonBlocksRead += [...decodes.keys()].filter((block) => block.startsWith(`${common(a) ? a : b} in records`)).length;
    }
    // The phrases read a common word's list in many blocks, where a second decoding would show, and some match.
    expect(phrases.length).toBeGreaterThan(10);
    expect(matched).toBeGreaterThan(3);
    expect(commonBlocksRead).toBeGreaterThan(20);
  });

  it('ranks the prefix phrase, OR and NOT classes of the benchmark with the records a reader expects first', () => {
    const rank = (query: string) => {
      const { criteria } = parseListRequest(lit, parseQueryString(query));
      return { engine: engine.rank('LIT', criteria, 10_000), reference: referenceRank(index, criteria) };
    };
    const prefixPhrase = rank('q=heat-tr*');
    expect(prefixPhrase.engine.total).toBeGreaterThanOrEqual(30);
    expect(Array.from(prefixPhrase.engine.ids)).toEqual(prefixPhrase.reference.ids);
    const either = rank('q=reactor%20OR%20plasma');
    const reactor = rank('q=reactor').engine.total;
    const plasma = rank('q=plasma').engine.total;
    expect(either.engine.total).toBeGreaterThanOrEqual(Math.max(reactor, plasma));
    expect(either.engine.total).toBeLessThanOrEqual(reactor + plasma);
    const without = rank('q=temperature%20NOT%20data');
    expect(without.engine.total).toBe(rank('q=temperature').engine.total - rank('q=temperature%20data').engine.total);
  });
});

describe('a word with an umlaut, searched with its transliteration', () => {
  let twinDir: string;
  let twinEngine: QueryEngine;
  let twinDb: Database.Database;
  let twinIndex: ReferenceIndex;
  let reader: PostingsReader;

  beforeAll(() => {
    twinDir = mkdtempSync(join(tmpdir(), 'records-twin-lists-'));
    const path = join(twinDir, 'store.db');
    const writer = openStoreWriter(path, { bulk: true });
    const records = [...generateRecords(lit, 400, { seed: 21 })];
    // A few records spell one name without its umlaut: its two lists differ; Zürich's stay twins.
    for (const [i, at] of [3, 7].entries()) {
      const stored = records[at]!;
      records[at] = { ...stored, record: { ...stored.record, title: `${stored.record.title} (after ${i ? 'Muller' : 'Mueller'})` } };
    }
    writer.put('LIT', records);
    writer.close();
    twinEngine = openEngine(path);
    twinDb = new Database(path, { readonly: true });
    twinIndex = referenceIndex(twinDb, lit);
    reader = openPostings(twinDb, lit)!;
  }, 60_000);

  afterAll(() => {
    twinEngine?.close();
    twinDb?.close();
    rmSync(twinDir, { recursive: true, force: true });
  });

  it('ranks as the reference does, from one list where the two are stored alike and from both where they differ', () => {
    const same = (a: string, b: string) => {
      const list = reader.read(a);
      return list instanceof StoredPostings && list.sameAs(reader.read(b)!);
    };
    expect({ zurich: same('zurich', 'zuerich'), muller: same('muller', 'mueller') }).toEqual({ zurich: true, muller: false });
    const queries = ['zürich', 'müller', 'zürich heat', 'heat zürich', 'zürich OR heat', 'heat OR zürich', 'zürich -heat', '-zürich heat'];
    for (const text of [...queries, ...queries.map((q) => q.replace('zürich', 'jürgen'))]) {
      for (const query of [
        `q=${encodeURIComponent(text)}`,
        `q=${encodeURIComponent(text)}&order=asc`,
        `title=${encodeURIComponent(text)}`,
      ]) {
        const { criteria } = parseListRequest(lit, parseQueryString(query));
        expectPages(twinEngine, query, criteria, referenceRank(twinIndex, criteria).ids, [1, 10, 10_000]);
      }
    }
  });
});

describe('a record longer than 65,535 tokens', () => {
  let longDir: string;
  let longEngine: QueryEngine;
  let longDb: Database.Database;
  let longIndex: ReferenceIndex;
  /** The long record's id, and its length as the reader holds it. */
  let id: number;
  let length: number;

  beforeAll(() => {
    longDir = mkdtempSync(join(tmpdir(), 'records-long-record-'));
    const path = join(longDir, 'store.db');
    const records = [...generateRecords(lit, 200, { seed: 5 })];
    const stored = records[17]!;
    const withDescription = (description: string) => ({ ...stored, record: { ...stored.record, description } });
    let writer = openStoreWriter(path);
    writer.put('LIT', [...records.slice(0, 17), withDescription('temperature'), ...records.slice(18)]);
    writer.close();
    // Its length with a one-word description, then a book's: 8 tokens past 65,536, where 16 bits
    // would hold it as a record of 8 tokens and rank its one "temperature" first, not last.
    const written = new Database(path, { readonly: true });
    id = written
      .prepare(`SELECT id FROM ${tablesOf(lit).records} WHERE repo_id = ?`)
      .pluck()
      .get(stored.record.repo_id) as number;
    const short = openPostings(written, lit)!.lengths[id]!;
    written.close();
    writer = openStoreWriter(path);
    writer.put('LIT', [withDescription(`temperature${' heat'.repeat(0x10000 + 8 - short)}`)]);
    writer.close();
    longEngine = openEngine(path);
    longDb = new Database(path, { readonly: true });
    longIndex = referenceIndex(longDb, lit);
    length = openPostings(longDb, lit)!.lengths[id]!;
  }, 60_000);

  afterAll(() => {
    longEngine?.close();
    longDb?.close();
    rmSync(longDir, { recursive: true, force: true });
  });

  it('ranks it by its whole length as the reference does, where a store of shorter records holds their lengths in 16 bits', () => {
    expect(openPostings(db, lit)!.lengths).toBeInstanceOf(Uint16Array);
    expect(length).toBe(0x10000 + 8);
    for (const text of ['temperature', 'heat', 'temperature heat', 'temperature OR reactor', 'heat -temperature', '"heat heat"', 'temp*']) {
      const query = `q=${encodeURIComponent(text)}`;
      const { criteria } = parseListRequest(lit, parseQueryString(query));
      const expected = referenceRank(longIndex, criteria).ids;
      if (text === 'temperature') expect(expected.indexOf(id)).toBe(expected.length - 1);
      expectPages(longEngine, query, criteria, expected, [1, 3, 10, 10_000]);
    }
  });
});

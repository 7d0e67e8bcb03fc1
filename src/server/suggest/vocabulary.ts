import type Database from 'better-sqlite3';
import { searchColumns, type Deployment } from '../../deployments/schema';
import { foldText, isCjk } from '../../formats/fold-text';
import { indexTokens } from '../../formats/query-words';
import { termScopes } from '../store/sqlite/indexer/term-rows';
import { tablesOf } from '../store/sqlite/schema';
import { storedTexts } from '../store/sqlite/stored-text';
import type { Vocabulary } from './suggest-query';
import { Suggester } from './suggester';

/**
 * A deployment's vocabulary for suggestions, built once per generation of the store (by its
 * reader, or by a connection on first use). The postings hold each word as the index keeps it (folded and
 * stemmed) with the records holding it; the spellings people type come from the records'
 * text: every field but the full text, of at most `sampleRecords` records spread over the
 * store. A spelling weighs what its indexed form does, so a rare spelling of a common stem is
 * offered as readily as the common one.
 */

const sampleRecords = 100_000;
const letters = /\p{L}+/gu;

const formOf = (word: string) => indexTokens(word)[0]?.term ?? word;

/**
 * A vocabulary as plain arrays, which a thread hands to others on a message: the spellings
 * in order with their weights. The reader of a generation builds it once
 * (store/pool/facet-reader.ts), so no worker samples the records' text again for its first
 * suggestion. The records holding a typed word's indexed form are looked up in the store
 * (`recordsHoldingIn`), not in a copy of the index's words: at a million records those are
 * over a million strings, which every worker would make for its first suggestion.
 */
export interface VocabularyData {
  /** Spellings, sorted, each with the records holding its indexed form (`weights`). */
  readonly words: readonly string[];
  readonly weights: Float64Array;
  /** The records whose text was sampled: those whose id `step` divides, up to id `through`; `records` of them by the pass that made this. */
  readonly sampled: { readonly step: number; readonly through: number; readonly records: number };
}

/**
 * The vocabulary of a deployment; given the one made for an earlier revision of the same file
 * (a write since), its spellings are kept, weighed again, and only the records written after
 * the last it sampled are sampled, at the same step: a write of a thousand records costs
 * their text, not a hundred thousand records' (seconds of a thread per generation). A record
 * changed in place keeps the spellings it had until a vocabulary is made afresh (a restart
 * on another file, or with no vocabulary kept).
 */
export function vocabularyData(db: Database.Database, deployment: Deployment, previous?: VocabularyData): VocabularyData {
  const t = tablesOf(deployment);
  const maxId = (db.prepare(`SELECT max(id) FROM ${t.records}`).pluck().get() as number | null) ?? 0;
  // Records removed since (or another file): sampled afresh.
  const earlier = previous?.sampled && previous.sampled.through <= maxId ? previous : undefined;
  const step = earlier?.sampled.step ?? Math.max(1, Math.ceil(maxId / sampleRecords));
  const columns = searchColumns.filter((column) => column !== 'fulltext');
  // Each spelling with its indexed form, weighed once all are known.
  const spellings = new Map<string, string>();
  for (const word of earlier?.words ?? []) spellings.set(word, formOf(word));
  // Words as written, each folded once: the sample's text repeats a small vocabulary millions of times.
  const seen = new Set<string>();
  let records = 0;
  for (const [, texts] of storedTexts(db, deployment, { every: step, after: earlier?.sampled.through ?? 0 })) {
    records++;
    for (const column of columns) {
      const text = texts[column];
      if (!text) continue;
      for (const [word] of text.matchAll(letters)) {
        if (word.length < 3 || word.length > 40 || seen.has(word)) continue;
        seen.add(word);
        const folded = foldText(word);
        if (spellings.has(folded) || isCjk(folded)) continue;
        spellings.set(folded, formOf(folded));
      }
    }
  }
  const held = recordsHoldingEach(db, deployment, new Set(spellings.values()));
  const entries = [...spellings]
    .map(([word, form]): [string, number] => [word, held.get(form) ?? 0])
    .filter(([, weight]) => weight > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    words: entries.map(([word]) => word),
    weights: Float64Array.from(entries, ([, weight]) => weight),
    sampled: { step, through: maxId, records },
  };
}

/**
 * The records holding each of `terms` (indexed words) over whole records, those no record
 * holds left out: the store looks each up in its dictionary, in one statement, rather than
 * this thread reading the index's every word into a map (the full text's words too, which
 * the sample never spells: many times the strings it weighs, and the reader's largest heap).
 */
function recordsHoldingEach(db: Database.Database, deployment: Deployment, terms: ReadonlySet<string>): Map<string, number> {
  const t = tablesOf(deployment);
  // In the dictionary's order, so its pages are read in order.
  const asked = JSON.stringify([...terms].sort());
  // Each term's whole-record list's row, by its number in the term dictionary (term-rows.ts).
  const rows = db
    .prepare(
      `SELECT ${t.terms}.term, ${t.postings}.docs FROM json_each(?) AS asked JOIN ${t.terms} ON ${t.terms}.term = asked.value ` +
        `JOIN ${t.postings} ON ${t.postings}.id = ${t.terms}.id * ${termScopes}`,
    )
    .raw();
  const held = new Map<string, number>();
  for (const [term, docs] of rows.iterate(asked) as Iterable<[string, number]>) held.set(term, docs);
  return held;
}

/** The records holding an indexed word (folded and stemmed) over whole records, 0 for none: one lookup in the store's postings. */
export function recordsHoldingIn(db: Database.Database, deployment: Deployment): (term: string) => number {
  const t = tablesOf(deployment);
  // Its whole-record list's row, by its number in the term dictionary (term-rows.ts).
  const docs = db.prepare(`SELECT docs FROM ${t.postings} WHERE id = (SELECT id FROM ${t.terms} WHERE term = ?) * ${termScopes}`).pluck();
  return (term) => (docs.get(term) as number | undefined) ?? 0;
}

/** The vocabulary suggestions are made from, over its data (built here or handed over) and the store it counts records in. */
export function vocabularyOf(data: VocabularyData, recordsHolding: (term: string) => number): Vocabulary {
  return {
    suggester: new Suggester(data.words, data.weights),
    recordsWith: (word) => recordsHolding(formOf(word)),
    indexFormOf: formOf,
  };
}

export const buildVocabulary = (db: Database.Database, deployment: Deployment): Vocabulary =>
  vocabularyOf(vocabularyData(db, deployment), recordsHoldingIn(db, deployment));

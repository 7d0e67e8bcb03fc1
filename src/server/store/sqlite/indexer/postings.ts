import type Database from 'better-sqlite3';
import type { Deployment } from '../../../../deployments/schema';
import { encodePostings } from '../../../engine/postings/block-postings';
import { postingsOf } from '../../../engine/postings/positions';
import { buildPairs } from './pair-postings';
import { termRow } from './term-rows';
import { tablesOf } from '../schema';
import { storedTexts } from '../stored-text';
import { InstanceGatherer, textInstances, type TextInstances } from './text-instances';

/**
 * Postings: for every token of a deployment's text, the documents that hold it and its
 * count in each, weighted by column as bm25() weighs it, over whole records and per column
 * (for the parameters that search one column, like title=), with each token's positions for
 * phrases, in the engine's codec (engine/postings/). They are the deployment's only index of
 * its text: FTS5's tokenizer splits the text to build them (sqlite/token-runs.ts, sqlite/fts5-adapter.ts) and keeps nothing.
 *
 * The engine computes bm25 exactly as FTS5's bm25() does (same formula, same order of
 * floating-point operations, the logarithm from SQLite itself), so both give the same
 * scores to the last bit and the same order; engine.test.ts holds them to that.
 *
 * A write updates the postings of the tokens it touches in its own transaction
 * (postings-update.ts), so the postings always index the stored text; a bulk load drops
 * them and builds them once when the writer closes.
 */

/**
 * A token's instances as "doc column offset doc column offset ..." (the column as its
 * position in `searchColumns`), as fts5vocab lists them: by document, column, offset.
 * Should they come otherwise, they are sorted.
 */
export function parseInstances(text: string): Int32Array {
  const values: number[] = [];
  let value = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (code === 32) {
      values.push(value);
      value = 0;
    } else {
      value = value * 10 + (code - 48);
    }
  }
  const triples = Int32Array.from(values);
  const count = triples.length / 3;
  const before = (i: number, j: number) => {
    for (let k = 0; k < 3; k++) if (triples[3 * i + k] !== triples[3 * j + k]) return triples[3 * i + k]! < triples[3 * j + k]!;
    return false;
  };
  for (let i = 1; i < count; i++) {
    if (before(i, i - 1)) {
      const order = Array.from({ length: count }, (_, n) => n).sort((x, y) => (before(x, y) ? -1 : before(y, x) ? 1 : 0));
      return Int32Array.from(order.flatMap((n) => [triples[3 * n]!, triples[3 * n + 1]!, triples[3 * n + 2]!]));
    }
  }
  return triples;
}

/**
 * Builds a deployment's postings from its records' text (stored-text.ts), in the writer's transaction (a bulk
 * load, or a deployment's first write), then the pair lists of its common tokens (chosen
 * anew, unless `common` names them). The text's tokens are FTS5's, gathered token by token
 * (text-instances.ts), a range of records at a time in the temp schema (a temporary file,
 * not the store), and dropped. `gathered` is the text of every stored record, gathered as
 * they were written (buildGatherer); without it the text is drawn from the stored rows.
 */
export function buildPostings(
  db: Database.Database,
  deployment: Deployment,
  { common, gathered }: { readonly common?: readonly string[]; readonly gathered?: Pick<InstanceGatherer, 'finish' | 'drop'> } = {},
): void {
  const t = tablesOf(deployment);
  dropPostings(db, deployment);
  let text: TextInstances;
  try {
    text = gathered ? gathered.finish() : textInstances(db, buildScratch(deployment), storedTexts(db, deployment));
  } catch (error) {
    gathered?.drop();
    throw error;
  }
  try {
    const { lengths, rows, tokens } = text;
    if (rows === 0) return; // nothing stored yet
    const insertTerm = db.prepare(`INSERT INTO ${t.terms} (term, id) VALUES (?, ?)`);
    const insert = db.prepare(`INSERT INTO ${t.postings} (id, docs, data) VALUES (?, ?, ?)`);
    const insertPositions = db.prepare(`INSERT INTO ${t.positions} (id, data) VALUES (?, ?)`);
    // Tokens are numbered in the order they come, which is the dictionary's: each table is written in key order.
    let id = 0;
    text.each((term, triples) => {
      const { lists, positions } = postingsOf(triples);
      insertTerm.run(term, id);
      for (const [column, postings] of lists) insert.run(termRow(id, column), postings.ids.length, encodePostings(postings, lengths));
      insertPositions.run(id++, positions);
    });
    buildPairs(db, deployment, lengths, rows, { common, helper: text.pairHelper });
    db.prepare(`INSERT INTO ${t.lengths} (rows, tokens, data) VALUES (?, ?, ?)`).run(rows, tokens, Buffer.from(lengths.buffer));
  } finally {
    text.drop();
  }
}

/** The scratch tables' name of a full build's text. */
const buildScratch = (deployment: Deployment) => `${tablesOf(deployment).tokenizing}_build`;

/** A gatherer of the text of a full build's records as they are written, for buildPostings. */
export function buildGatherer(db: Database.Database, deployment: Deployment): InstanceGatherer {
  return new InstanceGatherer(db, buildScratch(deployment));
}

/** Whether the deployment's postings are there to be updated (built, and not dropped by a bulk write). */
export function hasPostings(db: Database.Database, deployment: Deployment): boolean {
  return (
    db
      .prepare(`SELECT count(*) FROM ${tablesOf(deployment).lengths}`)
      .pluck()
      .get() !== 0
  );
}

/** Forgets a deployment's postings: its index is about to change. */
export function dropPostings(db: Database.Database, deployment: Deployment): void {
  const t = tablesOf(deployment);
  db.prepare(`DELETE FROM ${t.lengths}`).run();
  db.prepare(`DELETE FROM ${t.terms}`).run();
  db.prepare(`DELETE FROM ${t.postings}`).run();
  db.prepare(`DELETE FROM ${t.positions}`).run();
  db.prepare(`DELETE FROM ${t.common}`).run();
  db.prepare(`DELETE FROM ${t.pairs}`).run();
  for (const tail of [t.postingsTail, t.positionsTail, t.pairsTail]) db.prepare(`DELETE FROM ${tail}`).run();
}

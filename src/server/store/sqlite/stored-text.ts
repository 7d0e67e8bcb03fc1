import type Database from 'better-sqlite3';
import type { ApiRecord } from '../../../deployments/registry';
import type { Deployment, SearchColumn } from '../../../deployments/schema';
import { textColumns } from '../../../formats/index-text';
import { storedBodyCodec } from './record-bodies';
import { tablesOf } from './schema';

/**
 * The text of each search column of stored records, drawn from their rows (the body and the
 * full text) as the writer drew it when it wrote them: the store keeps a record's text once,
 * in its body, and what the postings were built from is drawn again when it is needed (a
 * build, a replaced record's old text, the suggestions' spellings).
 */

/** Rows read at a time: the connection is free between pages to write what was drawn from them. */
const pageRows = 512;

/** The text of the record a stored row holds. */
export function textOfRow(deployment: Deployment, record: ApiRecord, fulltext: string | null): Record<SearchColumn, string> {
  return textColumns(deployment, fulltext !== null ? { record, fulltext } : { record });
}

/**
 * Every stored record's id and text, by id, in pages (so the caller may write between them on
 * the same connection); with `every`, only the records whose id it divides, and without full
 * text; with `after`, only those of larger ids.
 */
export function* storedTexts(
  db: Database.Database,
  deployment: Deployment,
  { every, after: from = 0 }: { readonly every?: number; readonly after?: number } = {},
): Generator<[number, Record<SearchColumn, string>]> {
  const codec = storedBodyCodec(db, deployment);
  if (!codec) return;
  const { records } = tablesOf(deployment);
  const page = db.prepare<[number, number, number], [number, Buffer, Buffer | null]>(
    `SELECT id, doc, ${every ? 'NULL' : 'fulltext'} FROM ${records} WHERE id > ? AND id % ? = 0 ORDER BY id LIMIT ?`,
  );
  let after = from;
  for (;;) {
    const rows = page.raw().all(after, every ?? 1, pageRows);
    for (const [id, doc, fulltext] of rows) {
      yield [id, textOfRow(deployment, JSON.parse(codec.decode(doc)) as ApiRecord, fulltext && codec.decode(fulltext))];
    }
    if (rows.length < pageRows) return;
    after = rows[rows.length - 1]![0];
  }
}

import { openPgRecordWriter } from './postgres/pg-writer';
import { openSqliteRecordWriter, type SqliteRunOptions } from './sqlite/record-writer';
import type { RecordWriter } from './types';

/** Which store a command writes: a SQLite file (`--db`) or PostgreSQL (`--store postgres://…`). */
export type StoreLocation = { readonly db: string } | { readonly storeUrl: string };

/** The one way `import`, `generate` and `harvest` open a store for writing. */
export function openRecordWriter(location: StoreLocation, options: SqliteRunOptions = {}): Promise<RecordWriter> {
  return 'storeUrl' in location ? openPgRecordWriter(location.storeUrl) : openSqliteRecordWriter(location.db, options);
}

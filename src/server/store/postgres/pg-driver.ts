import { createRequire } from 'node:module';
import type pg from 'pg';

/**
 * The pg driver, loaded when a PostgreSQL store is first opened rather than by every start of
 * the `records` command: pg loads Node's HTTP client with it, a noticeable part of a start
 * that serves a SQLite file.
 */
let driver: typeof pg | undefined;

export const pgDriver = (): typeof pg => (driver ??= createRequire(import.meta.url)('pg') as typeof pg);

import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { parseListRequest } from '../../http/criteria';
import { parseQueryString } from '../../http/query-string';
import type { Criteria, StoredRecord } from '../types';
import { openEngine } from './query-engine';
import { ReadConnection } from './read-connection';
import { DateColumn } from './date-column';
import { openStoreWriter } from './sqlite';

/**
 * Date ranges answered from the date column held in memory (date-column.ts) select exactly
 * the records SQLite's own comparison of the stored text selects: open ends, bounds equal
 * to stored values, records without a date, and after writes that add and rewrite records.
 */

const lit = deploymentByKey('LIT')!;
const dates = ['', '1950-01-01T00:00:00Z', '1999-12-31T00:00:00Z', '1999-12-31T23:59:59Z', '2000-01-01T00:00:00Z', '2015-06-01T00:00:00Z'];
let dir: string;
let path: string;

/** Generated records whose dates repeat, sit on year edges and are sometimes empty. */
function dated(from: number, count: number, seed: number): StoredRecord[] {
  return [...generateRecords(lit, count, { seed })].map((stored, index) => ({
    ...stored,
    record: {
      ...stored.record,
      repo_id: `d${from + index}`,
      ...(index % 5 === 0 ? { publication_date: dates[index % dates.length]! } : {}),
    },
  }));
}

/** The ids the plain SQL comparison selects, ascending. */
function expected(db: Database.Database, from: string | undefined, to: string | undefined): number[] {
  const where = [from !== undefined ? 'publication_date >= ?' : '', to !== undefined ? 'publication_date < ?' : ''].filter(Boolean);
  const ids = db
    .prepare(`SELECT id FROM lit_records ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id`)
    .pluck()
    .all(...[from, to].filter((bound) => bound !== undefined)) as number[];
  return ids;
}

/** Bounds drawn from the stored values, their neighbours, bare years and open ends. */
function bounds(db: Database.Database) {
  const stored = db.prepare(`SELECT DISTINCT publication_date FROM lit_records`).pluck().all() as string[];
  const bound = fc.oneof(
    fc.constantFrom(...stored),
    fc.constantFrom(...stored).map((value) => `${value}\u0000`),
    fc.integer({ min: 1940, max: 2030 }).map(String),
    fc.constant(''),
  );
  return fc.record({ from: fc.option(bound, { nil: undefined }), to: fc.option(bound, { nil: undefined }) });
}

const criteriaOf = (from: string | undefined, to: string | undefined): Criteria => ({
  text: [],
  exact: [],
  dates: [{ field: 'publication_date', ...(from !== undefined && { from }), ...(to !== undefined && { to }) }],
  sort: 'publication_date',
  order: 'desc',
  offset: 0,
  limit: 100_000,
});

function sameAsSql(db: Database.Database): void {
  const engine = openEngine(path);
  try {
    fc.assert(
      fc.property(bounds(db), ({ from, to }) => {
        const ranked = engine.rank('LIT', criteriaOf(from, to), 100_000);
        expect({ from, to, ids: [...ranked.ids].sort((a, b) => a - b) }).toEqual({ from, to, ids: expected(db, from, to) });
        expect(ranked.total).toBe(ranked.ids.length);
      }),
      { numRuns: 150, seed: 41 },
    );
  } finally {
    engine.close();
  }
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-date-column-'));
  path = join(dir, 'store.db');
  const writer = openStoreWriter(path);
  writer.put('LIT', dated(0, 400, 5));
  writer.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('date ranges from the column in memory', () => {
  it('select exactly what SQLite selects, open ends, stored bounds and empty dates included, before and after writes', () => {
    const db = new Database(path, { readonly: true });
    try {
      sameAsSql(db);
      // Records added, and records rewritten to other dates (empty ones too): a new engine reads them.
      const writer = openStoreWriter(path);
      writer.put('LIT', dated(400, 150, 6));
      writer.put('LIT', dated(0, 120, 7).reverse());
      writer.close();
      sameAsSql(db);
    } finally {
      db.close();
    }
  });

  it('narrows a search of a word to the range, its total and its records', () => {
    const db = new Database(path, { readonly: true });
    const engine = openEngine(path);
    try {
      const { text } = parseListRequest(lit, parseQueryString('q=reactor')).criteria;
      for (const [from, to] of [
        ['1999-12-31T00:00:00Z', '2000-01-01T00:00:00Z'],
        ['1990', undefined],
        [undefined, '2000'],
      ] as const) {
        const criteria: Criteria = { ...criteriaOf(from, to), text, sort: 'relevance' };
        const all = engine.rank('LIT', criteria, 100_000);
        const inRange = new Set(expected(db, from, to));
        const matching = engine.rank('LIT', { ...criteria, dates: [] }, 100_000);
        const within = [...matching.ids].filter((id) => inRange.has(id));
        expect({ from, to, total: all.total, ids: [...all.ids] }).toEqual({ from, to, total: within.length, ids: within });
        expect(all.total).toBeGreaterThan(0);
      }
    } finally {
      engine.close();
      db.close();
    }
  });

  it('is not held where a value is not text, and compares only ASCII bounds', () => {
    const connection = ReadConnection.open(path, false);
    try {
      const column = DateColumn.read(connection, 'lit_records', 'publication_date', 1000)!;
      expect(column.range('1999', '2000')!.count()).toBeGreaterThan(0);
      expect(column.range('\u00e9', undefined)).toBeUndefined();
      expect(DateColumn.read(connection, 'lit_records', 'id', 1000)).toBeUndefined();
    } finally {
      connection.close();
    }
  });
});

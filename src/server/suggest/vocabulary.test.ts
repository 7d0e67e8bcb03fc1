import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { openStoreWriter } from '../store/sqlite/sqlite';
import { vocabularyData } from './vocabulary';

/**
 * A vocabulary made after a write from the one before it samples only the records written
 * since, and suggests as one made afresh does.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'vocabulary-'));
const path = join(dir, 'records.db');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(count: number, startId: number, seed: number) {
  const writer = openStoreWriter(path);
  try {
    writer.put('LIT', generateRecords(lit, count, { seed, startId }));
  } finally {
    writer.close();
  }
}

function read<T>(use: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

describe('a vocabulary after a write', () => {
  it('samples only the records written since the one before, and equals one made afresh', () => {
    write(300, 1, 5);
    const before = read((db) => vocabularyData(db, lit));
    expect(before.sampled.records).toBe(300);
    write(200, 1_000, 6);
    const after = read((db) => vocabularyData(db, lit, before));
    const afresh = read((db) => vocabularyData(db, lit));
    expect(after.sampled.records).toBe(200);
    expect(afresh.sampled.records).toBe(500);
    expect({ ...after, sampled: undefined }).toEqual({ ...afresh, sampled: undefined });
    expect(after.words.length).toBeGreaterThan(before.words.length);
  });

  it('is made afresh where the one before sampled records no longer there', () => {
    const later = read((db) => vocabularyData(db, lit));
    const fromElsewhere = { ...later, sampled: { ...later.sampled, through: later.sampled.through + 1 } };
    expect(read((db) => vocabularyData(db, lit, fromElsewhere)).sampled.records).toBe(500);
  });
});

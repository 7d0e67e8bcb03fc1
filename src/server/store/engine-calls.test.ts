import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { parseListRequest } from '../http/criteria';
import { parseQueryString } from '../http/query-string';
import { readUpstreamFiles } from '../import/files';
import { realData } from '../import/real-files.test-support';
import type { QueryEngine } from './engine';
import { engineAnswers } from './engine-calls';
import { openEngine } from './sqlite/query-engine';
import { openStoreWriter } from './sqlite/sqlite';
import { tablesOf } from './sqlite/schema';

/** A page read or written by the store's one dispatcher says which of its records are generated from their own rows, with no second search. */

const dc1 = deploymentByKey('DC1')!;
let dir: string;
let engine: QueryEngine;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-engine-calls-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path);
  writer.put('DC1', generateRecords(dc1, 30, { seed: 3 }));
  writer.put('DC1', readUpstreamFiles(dc1, [new URL('dc-v1-plasma-lab-209.json', realData).pathname]));
  writer.close();
  engine = openEngine(path);
});

afterAll(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The generated records among `repoIds`, as their own rows say (the store's `generated` column), read apart from the engine. */
function generatedByRow(repoIds: readonly string[]): Set<string> {
  const db = new Database(join(dir, 'records.db'), { readonly: true });
  try {
    const rows = db
      .prepare(`SELECT repo_id FROM ${tablesOf(dc1).records} WHERE generated = 1 AND repo_id IN (SELECT value FROM json_each(?))`)
      .pluck()
      .all(JSON.stringify(repoIds)) as string[];
    return new Set(rows);
  } finally {
    db.close();
  }
}

it('names exactly the generated records of a page, read or written, ranking the search once', () => {
  const { criteria } = parseListRequest(dc1, parseQueryString('rows=300'));
  let ranked = 0;
  const answers = engineAnswers({ ...engine, rank: (...args) => (ranked++, engine.rank(...args)) } satisfies QueryEngine);
  const read = answers.rankPage('DC1', criteria, 300, 0, 300);
  const rendered = answers.render('DC1', read.ids.subarray(0, 300), {
    format: 'json',
    origin: 'http://127.0.0.1',
    bibtexPrefix: 'records',
  });
  expect(ranked).toBe(1);
  const records = (JSON.parse(rendered.body.toString('utf8')) as { repo_id: string }[]).map((record) => record.repo_id);
  expect(records).toHaveLength(read.ids.length);
  const generated = generatedByRow(records);
  expect(generated.size).toBe(30);
  expect(rendered.generated).toEqual(records.filter((id) => generated.has(id)));
  expect(read.generated).toEqual(rendered.generated);
});

it('says of a record read by its repo_id whether it is generated', () => {
  const generated = [...generatedByRow(['50000001', '1562055'])];
  expect(generated).toEqual(['50000001']);
  expect(engineAnswers(engine).get('DC1', '50000001')).toMatchObject({ generated: true, record: { repo_id: '50000001' } });
  expect(engineAnswers(engine).get('DC1', '1562055')).toMatchObject({ generated: false, record: { repo_id: '1562055' } });
});

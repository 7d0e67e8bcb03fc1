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
import { openEngine } from './sqlite/query-engine';
import { generatedCriteria, renderDocs } from './rendered-page';
import { openStoreWriter } from './sqlite/sqlite';

/** A page written by a store's worker says which of its records are generated from their own rows, with no second search. */

const dc1 = deploymentByKey('DC1')!;
let dir: string;
let engine: QueryEngine;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'records-rendered-'));
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

it('names exactly the generated records of a page, ranking the search once', () => {
  const { criteria } = parseListRequest(dc1, parseQueryString('rows=1000'));
  const { ids } = engine.rank('DC1', criteria, 300);
  const page = ids.subarray(0, 300);
  let ranked = 0;
  const counting: QueryEngine = { ...engine, rank: (...args) => (ranked++, engine.rank(...args)) };
  const rendered = renderDocs(counting, 'DC1', page, { format: 'json', origin: 'http://127.0.0.1', bibtexPrefix: 'records' });
  const records = (JSON.parse(rendered.body.toString('utf8')) as { repo_id: string }[]).map((record) => record.repo_id);
  expect(records).toHaveLength(page.length);
  expect(ranked).toBe(0);
  // The search for generated records among them, as the API's `origin=generated` answers it.
  const marked = engine.fetch('DC1', engine.rank('DC1', generatedCriteria(records), records.length).ids);
  const generated = new Set(marked.docs.map((doc) => (JSON.parse(doc) as { repo_id: string }).repo_id));
  expect(generated.size).toBe(30);
  expect(rendered.generated).toEqual(records.filter((id) => generated.has(id)));
});

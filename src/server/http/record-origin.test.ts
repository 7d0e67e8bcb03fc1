import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generatedRecordsHeader, parseGeneratedIds, recordOriginHeader } from '../../formats/extension-headers';
import { generateRecords } from '../corpus/generate';
import { readUpstreamFiles } from '../import/files';
import { realData } from '../import/real-files.test-support';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import type { Criteria, RecordStore } from '../store/types';
import { startServer, type RunningServer } from './server';

const dc1 = deploymentByKey('DC1')!;
let dir: string;
let store: RecordStore;
let server: RunningServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'records-origin-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path);
  writer.put('DC1', generateRecords(dc1, 20, { seed: 1 }));
  writer.put('DC1', readUpstreamFiles(dc1, [new URL('dc-v1-plasma-lab-209.json', realData).pathname]));
  writer.close();
  store = openStore(path);
  server = await startServer({ store, port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('marks a generated demo record, and only that, with X-Record-Origin on the record endpoint', async () => {
  const generated = await fetch(`${server.url}${dc1.basePath}/records/50000001`);
  expect(generated.status).toBe(200);
  expect(generated.headers.get(recordOriginHeader)).toBe('generated');
  expect(generated.headers.get('access-control-expose-headers')).toContain(recordOriginHeader);
  const body = (await generated.json()) as Record<string, unknown>[];
  // Store-only: the record itself carries no such field.
  expect(Object.keys(body[0]!)).not.toContain('origin');
  expect(JSON.stringify(body)).not.toMatch(/generated/i);

  const real = await fetch(`${server.url}${dc1.basePath}/records/1562055`);
  expect(real.status).toBe(200);
  expect(real.headers.has(recordOriginHeader)).toBe(false);
});

it('no parameter can filter by it: the store-only key is out of the API’s reach', async () => {
  const response = await fetch(`${server.url}${dc1.basePath}/records?origin=generated`);
  expect(response.status).toBe(400);
});

it('names the generated records of a page of search results in X-Generated-Records, real ones never', async () => {
  const response = await fetch(`${server.url}${dc1.basePath}/records?rows=1000`);
  const records = (await response.json()) as { repo_id: string }[];
  const named = parseGeneratedIds(response.headers.get(generatedRecordsHeader));
  expect(records).toHaveLength(20 + 189);
  expect([...named].sort()).toEqual(
    records
      .map((record) => record.repo_id)
      .filter((id) => id.startsWith('5000'))
      .sort(),
  );
  expect(named.size).toBe(20);
  expect(response.headers.get('access-control-expose-headers')).toContain(generatedRecordsHeader);

  const realOnly = await fetch(`${server.url}${dc1.basePath}/records?repo_id=1562055`);
  expect(realOnly.headers.has(generatedRecordsHeader)).toBe(false);
});

it('the search feed says of each generated record, and of no real one, that it is a generated demo record', async () => {
  const response = await fetch(`${server.url}${dc1.basePath}/feed?rows=1000`);
  expect(response.status).toBe(200);
  const feed = new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(await response.text()).feed as {
    entry: { id: string; summary?: string; category?: { '@_term': string; '@_label': string } }[];
  };
  const marked = feed.entry.filter((entry) => entry.category?.['@_term'] === 'generated-demo-record');
  const ids = (entries: typeof feed.entry) => entries.map((entry) => entry.id.split('/').pop()!).sort();
  expect(ids(marked)).toEqual(ids(feed.entry.filter((entry) => entry.id.split('/').pop()!.startsWith('5000'))));
  expect(marked).toHaveLength(20);
  for (const entry of marked) expect(entry.summary).toMatch(/^Generated demo record: /);
  for (const entry of feed.entry.filter((candidate) => !marked.includes(candidate)))
    expect(entry.summary ?? '').not.toMatch(/Generated demo record/);
});

describe('which records are generated is read with them, never searched for again', () => {
  let searches: Criteria[];
  let counted: RunningServer;
  beforeAll(async () => {
    searches = [];
    // Without `page`: its pages are written by the HTTP layer from `search`, so every search an answer needs is seen here.
    const counting: RecordStore = {
      ...store,
      page: undefined,
      revision: store.revision,
      search: (key, criteria) => (searches.push(criteria), store.search(key, criteria)),
    };
    counted = await startServer({ store: counting, port: 0, host: '127.0.0.1' });
  });
  afterAll(() => counted.close());

  const searchesFor = async (path: string) => {
    searches = [];
    const response = await fetch(`${counted.url}${path}`);
    expect(response.status).toBe(200);
    const body = await response.text();
    return { count: searches.length, response, body };
  };

  it('a page of results costs one search, grouped or not, and names its generated records', async () => {
    for (const query of ['rows=1000', 'rows=50&group=work']) {
      const { count, response } = await searchesFor(`${dc1.basePath}/records?${query}`);
      expect(count, query).toBe(1);
      const named = parseGeneratedIds(response.headers.get(generatedRecordsHeader));
      expect(named.size, query).toBeGreaterThan(0);
      for (const id of named) expect(id, query).toMatch(/^5000/);
    }
  });

  it('a record, on the record endpoint and by unAPI, costs no search and is marked when generated', async () => {
    const record = await searchesFor(`${dc1.basePath}/records/50000001`);
    expect(record.count).toBe(0);
    expect(record.response.headers.get(recordOriginHeader)).toBe('generated');
    const unapi = await searchesFor('/unapi?id=DC1:50000001&format=ris');
    expect(unapi.count).toBe(0);
    expect(unapi.body).toMatch(/Generated demo record/);
  });
});

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { readUpstreamFiles } from '../import/files';
import { harvest } from './harvest';
import { storedRecords } from './source.test-support';

/**
 * Real upstream records (the shipped DC1 file, in the upstream's names) served the way the
 * upstream pages them: 50 a page at most, relative `next` links, the whole count in
 * X-Total-Count. Harvesting them gives exactly the records `records import` makes of the
 * same file.
 */

const dc1 = deploymentByKey('DC1')!;
const file = fileURLToPath(new URL('../../../data/real/dc-v1-geothermal-and-more-250.json', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'records-harvest-upstream-'));
const maxRows = 50;
let server: Server;
let base: string;

beforeAll(async () => {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { entry_date?: string }[];
  const sorted = [...raw].sort((a, b) => String(a.entry_date).localeCompare(String(b.entry_date)));
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://upstream.invalid');
    const rows = Number(url.searchParams.get('rows') ?? maxRows);
    if (url.pathname !== '/api/dc/v1/records' || rows > maxRows || url.searchParams.get('sort') !== 'entry_date') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 400, statusMessage: 'Bad Request', errorDescription: `rows at most ${maxRows}` }));
      return;
    }
    const page = Number(url.searchParams.get('page') ?? '1');
    const slice = sorted.slice((page - 1) * rows, page * rows);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-total-count': String(sorted.length) };
    if (page * rows < sorted.length)
      headers.link = `</api/dc/v1/records?sort=entry_date&order=asc&page=${page + 1}&rows=${rows}>; rel="next"`;
    res.writeHead(200, headers);
    res.end(JSON.stringify(slice));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/dc/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

it('harvests real upstream-shaped records to exactly what importing the same file gives', async () => {
  const mirror = join(dir, 'mirror.db');
  const report = await harvest({ deployment: dc1, baseUrl: base, dbPath: mirror, userAgent: 'records-explorer-test' });
  const imported = readUpstreamFiles(dc1, [file]);
  expect(report).toMatchObject({ complete: true, distinct: imported.length, reportedLast: 250, pages: Math.ceil(250 / maxRows) });
  const harvested = storedRecords(mirror, dc1);
  expect(harvested.size).toBe(imported.length);
  for (const { record } of imported) expect(harvested.get(record.repo_id), record.repo_id).toEqual(record);
});

/**
 * A record with a title of a megabyte (one unbroken "word" of it) on a server of its own,
 * which the app (served by the suite's server) is pointed at through config.json: a page
 * listing it under "Similar records" stays as wide as the screen, and its own page asks for
 * similar records with a query of ordinary length.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { generateRecords } from '../src/server/corpus/generate';
import { startServer, type RunningServer } from '../src/server/http/server';
import { openStore, openStoreWriter } from '../src/server/store/sqlite/sqlite';
import type { RecordStore } from '../src/server/store/types';
import { gotoApp } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;
const startId = 81_000_001;
const hugeId = '81000900';
const plainId = '81000901';
const hugeTitle = `Quasiperiodic plasmoid ${'q'.repeat(1024 * 1024)}`;

let work: string;
let store: RecordStore;
let server: RunningServer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'records-hostile-record-'));
  const dbPath = join(work, 'hostile.db');
  const writer = openStoreWriter(dbPath);
  try {
    const [huge, plain, ...others] = [...generateRecords(lit, 12, { seed: 31, startId })];
    writer.put(lit.key, [
      { ...huge!, record: { ...huge!.record, repo_id: hugeId, title: hugeTitle } },
      { ...plain!, record: { ...plain!.record, repo_id: plainId, title: 'Quasiperiodic plasmoid chains in the edge' } },
      ...others,
    ]);
  } finally {
    writer.close();
  }
  store = openStore(dbPath);
  server = await startServer({ store, port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
  await store?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

async function useHostileServer(page: Page): Promise<void> {
  await page.route('**/config.json', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ deployments: { LIT: { baseUrl: `${server.url}${lit.basePath}` } } }),
    }),
  );
}

const pageWidth = (page: Page) =>
  page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));

for (const [name, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  test(`${name}: a megabyte title under "Similar records" keeps the page as wide as the screen`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);
    await useHostileServer(page);
    await gotoApp(page, `/${lit.slug}/records/${plainId}`);
    const similar = page.getByRole('region', { name: 'Similar records' });
    const hugeLink = similar.getByRole('link').filter({ hasText: 'Quasiperiodic plasmoid' });
    await hugeLink.waitFor();
    const width = await pageWidth(page);
    expect(width.scroll).toBeLessThanOrEqual(width.client);
    const box = (await hugeLink.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.height).toBeLessThan(200);
    await screenshot(page, `lit-similar-huge-title-${name}`);
    await expectNoAxeViolations(page, `similar records with a megabyte title (${name})`);
  });
}

test('the megabyte-titled record asks for similar records with a short query', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  await useHostileServer(page);
  const searches: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin === server.url && url.pathname === `${lit.basePath}/records` && url.searchParams.has('q')) searches.push(request.url());
  });
  const answered = page.waitForResponse(
    (response) => response.url().startsWith(`${server.url}${lit.basePath}/records?`) && new URL(response.url()).searchParams.has('q'),
  );
  await gotoApp(page, `/${lit.slug}/records/${hugeId}`);
  const response = await answered;
  expect(response.status()).toBe(200);
  expect(searches.length).toBeGreaterThan(0);
  for (const url of searches) expect(url.length).toBeLessThan(2048);
  const width = await pageWidth(page);
  expect(width.scroll).toBeLessThanOrEqual(width.client);
});

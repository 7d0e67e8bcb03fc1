/**
 * Private mirror mode from the app's side: a second server, started here with an access
 * token over a small store of its own, and the app (served by the suite's server) given a
 * config.json that points LIT at it. With the right token the app searches, opens a record
 * and exports it, every API request carrying `Authorization: Bearer <token>`; with a wrong
 * one it says what the server said instead of showing a blank page.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ApiRecord } from '../src/deployments/registry';
import { deploymentByKey } from '../src/deployments/registry';
import { generateRecords } from '../src/server/corpus/generate';
import { startServer, type RunningServer } from '../src/server/http/server';
import { openStore, openStoreWriter } from '../src/server/store/sqlite/sqlite';
import type { RecordStore } from '../src/server/store/types';
import { gotoApp, searchBox } from './support/app';
import { useBrowser } from './support/browser';
import { screenshot } from './support/checks';

const ui = useBrowser({ acceptDownloads: true });
const lit = deploymentByKey('LIT')!;
const token = 'e2e-private-token-4f1c9a';
/** Far from the suite's own ids, so a record here cannot be confused with one there. */
const startId = 80_000_001;
const corpusSize = 45;

let work: string;
let store: RecordStore;
let mirror: RunningServer;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'records-private-'));
  const dbPath = join(work, 'private.db');
  const writer = openStoreWriter(dbPath);
  try {
    writer.put(lit.key, [...generateRecords(lit, corpusSize, { seed: 23, startId })]);
  } finally {
    writer.close();
  }
  store = openStore(dbPath);
  mirror = await startServer({ store, port: 0, host: '127.0.0.1', token });
});

afterAll(async () => {
  await mirror?.close();
  await store?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const mirrorBase = () => `${mirror.url}${lit.basePath}`;

/** The mirror's API, asked directly (with the token unless told otherwise). */
async function mirrorGet(path: string, withToken = true): Promise<globalThis.Response> {
  return fetch(`${mirrorBase()}${path}`, {
    headers: { Accept: 'application/json', ...(withToken ? { Authorization: `Bearer ${token}` } : {}) },
  });
}

/** Serves the app a config.json that sends LIT to the mirror with `configToken`. */
async function useMirrorConfig(page: Page, configToken: string): Promise<void> {
  await page.route('**/config.json', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ deployments: { LIT: { baseUrl: mirrorBase(), token: configToken } } }),
    }),
  );
}

/** Every GET the page (or its download worker) sends to the mirror. */
function mirrorRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.context().on('request', (request) => {
    if (request.url().startsWith(mirror.url) && request.method() === 'GET') seen.push(request);
  });
  return seen;
}

/** The number of records the results say they hold, whether the server groups versions ("N records; …") or not ("N results"). */
async function countShown(page: Page): Promise<number | undefined> {
  const text = (
    (await page
      .getByRole('status')
      .filter({ hasText: /(results?|records?)\b|No results/ })
      .first()
      .textContent()) ?? ''
  ).trim();
  if (text.startsWith('No results')) return 0;
  const count = /^([\d,]+) (results?|records?)\b/.exec(text)?.[1];
  return count === undefined ? undefined : Number(count.replace(/,/g, ''));
}

test('the mirror refuses requests without the token', async () => {
  const refused = await mirrorGet('/records', false);
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { statusCode: number }).statusCode).toBe(401);
  const allowed = await mirrorGet('/records?rows=1');
  expect(allowed.status).toBe(200);
  expect(allowed.headers.get('x-total-count')).toBe(String(corpusSize));
});

test('with the token in config.json the app searches, opens a record and exports it', async () => {
  const { page } = ui;
  await useMirrorConfig(page, token);
  const requests = mirrorRequests(page);

  // A word of a title in the mirror, and how many records it matches there.
  const [sample] = (await (await mirrorGet('/records?rows=1')).json()) as ApiRecord[];
  const term = String(sample!.title).match(/\p{L}{5,}/u)![0];
  const searched = await mirrorGet(`/records?q=${encodeURIComponent(term)}`);
  const total = Number(searched.headers.get('x-total-count'));
  expect(total).toBeGreaterThan(0);

  await gotoApp(page, `/${lit.slug}`);
  await expect.poll(() => countShown(page)).toBe(corpusSize);
  await searchBox(page).fill(term);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect.poll(() => countShown(page)).toBe(total);
  await screenshot(page, 'lit-private-mirror-results');

  // Every result is a mirror record, and opening one fetches it from the mirror.
  const titles = page.locator('article').getByRole('heading').getByRole('link');
  const firstTitle = ((await titles.first().textContent()) ?? '').trim();
  await titles.first().click();
  await page.getByRole('heading', { level: 1, name: firstTitle }).waitFor();
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  expect(Number(id)).toBeGreaterThanOrEqual(startId);

  // The record's BibTeX comes from the mirror too.
  await page.locator('summary', { hasText: 'Export' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^BibTeX(?! \(full\))/ }).click()]);
  const path = await download.path();
  const { readFile } = await import('node:fs/promises');
  expect(await readFile(path, 'utf8')).toContain(`_${id},`);

  const api = requests.filter((request) => new URL(request.url()).pathname.startsWith(lit.basePath));
  expect(api.map((request) => new URL(request.url()).pathname)).toEqual(
    expect.arrayContaining([`${lit.basePath}/records`, `${lit.basePath}/records/${id}`]),
  );
  for (const request of api) {
    expect(await request.headerValue('authorization'), request.url()).toBe(`Bearer ${token}`);
  }
  const accepts = await Promise.all(api.map((request) => request.headerValue('accept')));
  expect(accepts).toContain('application/x-bibtex');
});

test('a whole-result download runs through the mirror with the token too', async () => {
  const { page } = ui;
  await useMirrorConfig(page, token);
  // Nobody answers the save dialog headless: without it the app saves through <a download>.
  await page.context().addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  const requests = mirrorRequests(page);
  await gotoApp(page, `/${lit.slug}`);
  await expect.poll(() => countShown(page)).toBe(corpusSize);

  const section = page.getByRole('region', { name: 'Download all results' });
  await section.getByLabel('Format').selectOption('json');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: new RegExp(`^Download ${corpusSize} records\\b`) }).click(),
  ]);
  const { readFile } = await import('node:fs/promises');
  const records = JSON.parse(await readFile(await download.path(), 'utf8')) as ApiRecord[];
  expect(records).toHaveLength(corpusSize);
  expect(records.every((record) => Number(record.repo_id) >= startId)).toBe(true);

  // The download's own pages (largest page size) were asked for with the token.
  const pages = requests.filter((request) => new URL(request.url()).searchParams.get('rows') === '1000');
  expect(pages.length).toBeGreaterThan(0);
  for (const request of pages) expect(await request.headerValue('authorization'), request.url()).toBe(`Bearer ${token}`);
});

test('a wrong token shows the server’s 401 description, not a blank page', async () => {
  const { page } = ui;
  await useMirrorConfig(page, 'not-the-token');
  const refused = await mirrorGet('/records', false);
  const { errorDescription } = (await refused.json()) as { errorDescription: string };

  await gotoApp(page, `/${lit.slug}`);
  const alert = page.getByRole('alert').filter({ hasText: errorDescription });
  await alert.waitFor();
  expect(await alert.textContent()).toContain('This server needs a valid access token.');
  expect(await alert.textContent()).toContain('401');
  // Trying again with the same configuration cannot help, so it is not offered.
  expect(await alert.getByRole('button', { name: 'Try again' }).count()).toBe(0);
  // The rest of the app is there: heading, search form, deployment switcher.
  expect(await page.getByRole('heading', { level: 1, name: 'Research literature v1' }).isVisible()).toBe(true);
  expect(await searchBox(page).isVisible()).toBe(true);
  await screenshot(page, 'lit-private-mirror-wrong-token');

  // A record page says the same.
  await gotoApp(page, `/${lit.slug}/records/${startId}`);
  await page.getByRole('alert').filter({ hasText: errorDescription }).waitFor();
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('The record could not be loaded');
});

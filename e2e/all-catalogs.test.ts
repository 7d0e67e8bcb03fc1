/**
 * The all-catalogs search at /all: every deployment searched at once through its own API,
 * each catalog's exact count (its X-Total-Count) and best results in a group of its own.
 * The patents catalog is served here by a second, token-protected server that the test
 * stops in the middle of the search: the other five are shown meanwhile, and the stopped one
 * says it could not be reached, with Try again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deploymentByKey, deployments, displayName } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { generateRecords } from '../src/server/corpus/generate';
import { startServer, type RunningServer } from '../src/server/http/server';
import { openStore, openStoreWriter } from '../src/server/store/sqlite/sqlite';
import type { RecordStore } from '../src/server/store/types';
import { apiList } from './support/api';
import { gotoApp } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const pat = deploymentByKey('PAT')!;
const lit = deploymentByKey('LIT')!;
const dc1 = deploymentByKey('DC1')!;
const token = 'e2e-patents-token-7d2e';
const others = deployments.filter((deployment) => deployment !== pat);

let work: string;
let store: RecordStore;
let patents: RunningServer;
/** A word that matches records in at least four catalogs, and each catalog's count of it (before the patents server stops). */
let term: string;
let totals: Map<Deployment, number>;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'records-all-'));
  const dbPath = join(work, 'patents.db');
  const writer = openStoreWriter(dbPath);
  try {
    writer.put(pat.key, [...generateRecords(pat, 60, { seed: 31, startId: 70_000_001 })]);
  } finally {
    writer.close();
  }
  store = openStore(dbPath);
  patents = await startServer({ store, port: 0, host: '127.0.0.1', token });
  ({ term, totals } = await wordOfSeveralCatalogs());
});

afterAll(async () => {
  await patents?.close();
  await store?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const patentsBase = () => `${patents.url}${pat.basePath}`;

/** config.json sends the patents catalog to the second server, with its own token. */
async function usePatentsServer(page: Page): Promise<void> {
  await page.route('**/config.json', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ deployments: { PAT: { baseUrl: patentsBase(), token } } }),
    }),
  );
}

async function patentsTotal(q: string): Promise<number> {
  const response = await fetch(`${patentsBase()}/records?q=${encodeURIComponent(q)}&rows=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  return Number(response.headers.get('x-total-count'));
}

/** A word that matches records in at least four catalogs of the suite's server and in the patents server. */
async function wordOfSeveralCatalogs(): Promise<{ term: string; totals: Map<Deployment, number> }> {
  for (const term of ['plasma', 'system', 'energy', 'method', 'solar']) {
    const totals = new Map<Deployment, number>();
    for (const deployment of others) totals.set(deployment, (await apiList(deployment, { q: term, rows: 1 })).total);
    totals.set(pat, await patentsTotal(term));
    if ([...totals.values()].filter((total) => total > 0).length >= 4 && totals.get(pat)! > 0) return { term, totals };
  }
  throw new Error('no word matches four catalogs');
}

const group = (page: Page, deployment: Deployment) => page.getByRole('region', { name: displayName(deployment), exact: true });
const countText = (total: number) => (total === 0 ? 'No results' : `${total.toLocaleString('en')} ${total === 1 ? 'result' : 'results'}`);

test('each catalog’s exact count and best results, grouped; the patents server stopped mid-search', async () => {
  const { page } = ui;
  await usePatentsServer(page);
  const sent: Request[] = [];
  page.on('request', (request) => sent.push(request));
  // The patents search is held until the test has stopped its server.
  let held: Route | undefined;
  const arrived = new Promise<void>((resolve) => {
    void page.route(`${patents.url}/**`, (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      held = route;
      resolve();
    });
  });

  await gotoApp(page, '/');
  await page.waitForURL((current) => current.pathname === '/all');
  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(term);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL((current) => current.searchParams.get('q') === term);
  await arrived;

  // The five other catalogs answer while the patents one is still out.
  for (const deployment of others) {
    const total = totals.get(deployment)!;
    await expect.poll(() => group(page, deployment).getByText(countText(total), { exact: true }).count()).toBe(1);
    if (total > 0) {
      const titles = group(page, deployment).getByRole('listitem').getByRole('link');
      await expect.poll(() => titles.count()).toBe(Math.min(5, total));
      // Labelled with its catalog.
      await expect.poll(() => group(page, deployment).getByRole('listitem').first().textContent()).toContain(displayName(deployment));
    }
  }
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Searching 6 catalogs' }).textContent()).toContain('5 answered');
  await expectNoAxeViolations(page, '/all while one catalog is still searching');

  await patents.close();
  await held!.continue();
  const failed = group(page, pat);
  await failed.getByRole('alert').filter({ hasText: 'could not be reached' }).waitFor();
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'catalogs' }).textContent())
    .toMatch(/of 6 catalogs; 1 could not be searched\./);
  expect(await failed.getByRole('button', { name: 'Try again' }).count()).toBe(1);
  // The others are still all there.
  for (const deployment of others.filter((deployment) => totals.get(deployment)! > 0)) {
    expect(await group(page, deployment).getByRole('listitem').count()).toBeGreaterThan(0);
  }
  await expectNoAxeViolations(page, '/all with a failed catalog');
  await screenshot(page, 'all-catalogs-one-failed-desktop');

  // The token went to the patents server only.
  for (const request of sent) {
    const authorization = await request.headerValue('authorization');
    if (request.url().startsWith(patents.url)) expect(authorization, request.url()).toBe(`Bearer ${token}`);
    else expect(authorization, request.url()).toBeNull();
  }

  // Try again asks the patents catalog once more; here the server answers again (through the route).
  await page.unroute(`${patents.url}/**`);
  await page.route(`${patents.url}/**`, async (route) => {
    const local = new URL(route.request().url());
    const response = await route.fetch({ url: new URL(`${local.pathname}${local.search}`, page.url()).href, headers: {} });
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
  await failed.getByRole('button', { name: 'Try again' }).click();
  const localTotal = (await apiList(pat, { q: term, rows: 1 })).total;
  await expect.poll(() => failed.getByText(countText(localTotal), { exact: true }).count()).toBe(1);
});

test('one click continues in a single catalog with the same criteria, naming what it drops', async () => {
  const { page } = ui;
  const withFulltext = await apiList(lit, { q: term, has_fulltext: 'true', rows: 1 });
  const inDc1 = await apiList(dc1, { q: term, rows: 1 });
  expect(inDc1.total).toBeGreaterThan(0);
  await page.setViewportSize(phone);
  await gotoApp(page, `/all?q=${encodeURIComponent(term)}&has_fulltext=true`);

  // Applied where the catalog has it, said where not.
  await expect.poll(() => group(page, lit).getByText(countText(withFulltext.total), { exact: true }).count()).toBe(1);
  await group(page, dc1).getByText('Not applied here (this catalog has no such criterion): Full text available.').waitFor();
  expect(await group(page, lit).getByText('Not applied here').count()).toBe(0);
  await expect.poll(() => group(page, dc1).getByText(countText(inDc1.total), { exact: true }).count()).toBe(1);
  await expectNoAxeViolations(page, '/all on a phone');
  await screenshot(page, 'all-catalogs-phone');

  await group(page, dc1)
    .getByRole('link', { name: `All ${countText(inDc1.total)} in ${displayName(dc1)}` })
    .click();
  await page.waitForURL((current) => current.pathname === `/${dc1.slug}`);
  expect([...new URL(page.url()).searchParams]).toEqual([['q', term]]);
  await page
    .getByRole('status')
    .filter({ hasText: 'Full text available was not supported by Dataset catalog v1 and was removed.' })
    .waitFor();
  // A grouped page counts records beside works ("12 records · 11 works").
  await page
    .getByRole('status')
    .filter({ hasText: new RegExp(`^(${countText(inDc1.total)}|${inDc1.total.toLocaleString('en')} records?\\b)`) })
    .waitFor();
  await page.setViewportSize(desktop);
});

test('keyboard: search from the box and open a result', async () => {
  const { page } = ui;
  await gotoApp(page, '/all');
  await page.getByRole('searchbox', { name: 'Search', exact: true }).focus();
  await page.keyboard.type(term);
  await page.keyboard.press('Enter');
  await page.waitForURL((current) => current.searchParams.get('q') === term);
  const first = group(page, lit).getByRole('listitem').first().getByRole('link');
  await first.waitFor();
  const title = ((await first.textContent()) ?? '').trim();
  await first.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  expect(new URL(page.url()).pathname).toMatch(new RegExp(`^/${lit.slug}/records/`));
});

test('a fielded box: a field only some catalogs have is applied there, answered by an equivalent or named elsewhere; a misspelt one is said beside the box', async () => {
  const { page } = ui;
  const doi = '10.11578/1367164';
  const inLit = await apiList(lit, { q: term, doi, rows: 1 });
  const inDc1 = await apiList(dc1, { q: term, identifier: doi, rows: 1 });
  await gotoApp(page, `/all?q=${encodeURIComponent(`${term} doi:${doi}`)}`);
  await expect.poll(() => group(page, lit).getByText(countText(inLit.total), { exact: true }).count()).toBe(1);
  await expect.poll(() => group(page, dc1).getByText(countText(inDc1.total), { exact: true }).count()).toBe(1);
  await group(page, dc1).getByText('Searched here by its own field: doi: as Identifier.').waitFor();
  expect(await group(page, lit).getByText('Searched here by its own field').count()).toBe(0);

  const litAlone = await apiList(lit, { q: term, rows: 1 });
  await gotoApp(page, `/all?q=${encodeURIComponent(`${term} mime_type:video/mp4`)}`);
  await expect.poll(() => group(page, lit).getByText(countText(litAlone.total), { exact: true }).count()).toBe(1);
  await group(page, lit).getByText('Not applied here (this catalog has no such criterion): Media type.').waitFor();

  await page.getByRole('searchbox', { name: 'Search', exact: true }).fill(`${term} auhtor:Smith`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: '“auhtor:” is not a search field. Did you mean author:?' }).waitFor();
  expect(await page.getByRole('region').count()).toBe(0);
  await expectNoAxeViolations(page, '/all with a misspelt field');
});

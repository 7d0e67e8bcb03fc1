/**
 * Issue 24, the search box: fielded terms become the deployment's parameters and chips, a
 * misspelt field gets a hint, a box with no words says so and runs no search, a deployment
 * switch keeps product_type, a quote left open is closed with a notice beside the box, and
 * a record's entities read as text in the venue line.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { parseAuthor } from '../src/formats/authors';
import { entityTitle, hostileIds } from './setup/hostile-records';
import { apiList } from './support/api';
import { gotoApp, resultLinks, searchBox, searchParamsOf, searchPath, waitForResults } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, picture, screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;
const mm = deploymentByKey('MM')!;

const box = (page: Page) => searchBox(page);
const chips = (page: Page) => page.getByRole('region', { name: 'Active filters' });

async function submit(page: Page, text: string): Promise<void> {
  await box(page).fill(text);
  await box(page).press('Enter');
}

/** The full page, and what fits the screen (the box and its message) as a second picture. */
async function screenshots(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  await picture(`${name}-view`, (path) => page.screenshot({ path, animations: 'disabled' }));
}

/** Requests the page made for a search (`/records`), from now on. */
function recordRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (/\/api\/[a-z]+\/v\d+\/records(\?|$)/.test(request.url())) seen.push(request.url());
  });
  return seen;
}

/** A surname of a record that matches `q`, so the fielded search finds something real. */
async function surnameFor(q: string): Promise<string> {
  const { records } = await apiList(lit, { q, rows: 20 });
  for (const record of records) {
    const first = Array.isArray(record.authors) ? (record.authors[0] as string | undefined) : undefined;
    const family = first ? parseAuthor(first).family : '';
    if (/^[A-Za-z]{3,}$/.test(family)) return family;
  }
  throw new Error(`no record for ${q} has a plain surname`);
}

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  describe(`at ${label} width`, () => {
    test('fielded terms become parameters and removable chips; the box keeps the free words', async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      const surname = await surnameFor('energy');
      await gotoApp(page, searchPath(lit));
      await waitForResults(page);
      await submit(page, `energy author:${surname} year:1900-2100 type:"Journal Article"`);
      await expect.poll(() => searchParamsOf(page).get('author')).toBe(surname);
      const params = searchParamsOf(page);
      expect([...params]).toEqual([
        ['q', 'energy'],
        ['author', surname],
        ['publication_date_start', '01/01/1900'],
        ['publication_date_end', '12/31/2100'],
        ['product_type', 'Journal Article'],
      ]);
      const total = await waitForResults(page);
      expect(total).toBeGreaterThan(0);
      expect(await box(page).inputValue()).toBe('energy');
      await expect.poll(() => chips(page).getByText(`Author: ${surname}`).count()).toBe(1);
      await expect.poll(() => chips(page).getByText('Published: 1900–2100').count()).toBe(1);
      await expect.poll(() => chips(page).getByText('Product type: Journal Article').count()).toBe(1);
      await expectNoAxeViolations(page, `fielded query chips (${label})`);
      await screenshots(page, `search-box-fielded-${label}`);

      // A chip goes with the keyboard alone.
      await chips(page)
        .getByRole('button', { name: `Remove Author: ${surname}` })
        .focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => searchParamsOf(page).has('author')).toBe(false);
      expect(await waitForResults(page)).toBeGreaterThanOrEqual(total);
    });

    test('a misspelt field names the nearest one and runs no search', async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      await gotoApp(page, searchPath(lit, { q: 'plasma' }));
      await waitForResults(page);
      const requests = recordRequests(page);
      await submit(page, 'plasma autor:Smith');
      const hint = page.getByText('“autor:” is not a search field. Did you mean author:?');
      await hint.waitFor({ state: 'visible' });
      expect(searchParamsOf(page).get('q')).toBe('plasma');
      expect(await box(page).getAttribute('aria-invalid')).toBe('true');
      expect(await box(page).evaluate((element) => element === document.activeElement)).toBe(true);
      // The hint is the box's description, so a screen reader hears it on the focused box.
      const describedBy = await box(page).getAttribute('aria-describedby');
      expect(await page.locator(`#${describedBy}`).textContent()).toContain('Did you mean author:?');
      expect(requests).toEqual([]);
      await expectNoAxeViolations(page, `unknown field hint (${label})`);
      await screenshots(page, `search-box-unknown-field-${label}`);
    });

    test('an unbalanced quote is searched closed at the end, and the box says so', async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      await gotoApp(page, searchPath(lit, { q: 'energy' }));
      await waitForResults(page);
      expect(await page.locator('#search-quote-notice').count()).toBe(0);
      await submit(page, 'energy "solar cell');
      await expect.poll(() => searchParamsOf(page).get('q')).toBe('energy "solar cell');
      const { total } = await apiList(lit, { q: 'energy "solar cell"' });
      expect(await waitForResults(page)).toBe(total);
      const notice = page.getByText('A quote had no closing quote, so it was closed at the end: searched for the phrase "solar cell".');
      await notice.waitFor({ state: 'visible' });
      expect(await box(page).getAttribute('aria-invalid')).toBeNull();
      expect(await box(page).getAttribute('aria-describedby')).toBe('search-quote-notice');
      await expectNoAxeViolations(page, `open quote notice (${label})`);
      await screenshots(page, `search-box-open-quote-${label}`);
    });

    test('a box with no words says so and runs no search', async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      const requests = recordRequests(page);
      // From a link: nothing is fetched.
      await gotoApp(page, searchPath(lit, { q: '🔥' }));
      await page.getByText('“🔥” has no words to search for.').first().waitFor({ state: 'visible' });
      await page.getByText('Nothing was searched for.').waitFor({ state: 'visible' });
      expect(await resultLinks(page).count()).toBe(0);
      expect(requests).toEqual([]);
      await expectNoAxeViolations(page, `no words (${label})`);
      await screenshots(page, `search-box-no-words-${label}`);
      // Typed: the same message, and the URL stays.
      for (const query of ['*', 'NOT', 'OR', '%', '""']) {
        await submit(page, query);
        await page.getByText(`“${query}” has no words to search for.`).first().waitFor({ state: 'visible' });
        expect(searchParamsOf(page).get('q')).toBe('🔥');
      }
      expect(requests).toEqual([]);
    });
  });
}

test('a link with fields in q is read as the search box reads it', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(lit, { q: 'title:energy year:2000-2030' }));
  await expect
    .poll(() => [...searchParamsOf(page)])
    .toEqual([
      ['title', 'energy'],
      ['publication_date_start', '01/01/2000'],
      ['publication_date_end', '12/31/2030'],
    ]);
  const { total } = await apiList(lit, { title: 'energy', publication_date_start: '01/01/2000', publication_date_end: '12/31/2030' });
  expect(await waitForResults(page)).toBe(total);
});

test('the syntax help lists the deployment’s fields from its table', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(lit));
  await page.getByText('Query syntax').click();
  const fields = page.getByRole('list', { name: `Fields of ${lit.name}` });
  // The list loads when the help is first opened.
  await fields.waitFor();
  for (const name of ['title:', 'author:', 'subject:', 'doi:', 'identifier:', 'year:', 'type:']) {
    expect(await fields.getByText(name, { exact: true }).count(), name).toBe(1);
  }
  await expectNoAxeViolations(page, 'syntax help');
  await screenshots(page, 'search-box-syntax-help-desktop');
});

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  test(`switching LIT to Multimedia keeps product_type (${label})`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);
    await gotoApp(page, searchPath(lit, { product_type: 'Journal Article' }));
    await waitForResults(page);
    await page.getByLabel('Deployment').selectOption(mm.slug);
    await page.waitForURL((current) => current.pathname === `/${mm.slug}`);
    expect([...searchParamsOf(page)]).toEqual([['product_type', 'Journal Article']]);
    const { total } = await apiList(mm, { product_type: 'Journal Article' });
    expect(await waitForResults(page)).toBe(total);
    await expect.poll(() => chips(page).getByText('Product type: Journal Article').count()).toBe(1);
    expect(await page.locator('.notice').textContent()).not.toMatch(/product_type|Product type/);
    await expectNoAxeViolations(page, `switch keeps product type (${label})`);
    await screenshots(page, `switch-keeps-product-type-${label}`);
  });
}

test('a venue written with entities reads as text everywhere the app shows it', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(lit, { q: '"Entities ampersands in the venue line"' }));
  await waitForResults(page);
  const result = page.locator('article').filter({ has: page.getByRole('link', { name: 'Entities & ampersands in the venue line' }) });
  const meta = result.locator('.result__meta');
  await expect.poll(() => meta.textContent()).toContain('Physical Review & Letters');
  expect(await page.locator('#root').textContent()).not.toContain('&amp;');
  // The same value as a chip, from the record page's journal link or typed.
  await gotoApp(page, searchPath(lit, { journal_name: 'Physical Review &amp; Letters' }));
  await expect.poll(() => chips(page).textContent()).toContain('Physical Review & Letters');
  expect(await page.locator('#root').textContent()).not.toContain('&amp;');
  // The record page and its document title.
  await gotoApp(page, `/lit/records/${hostileIds.entities}`);
  await expect.poll(() => page.title()).toContain(entityTitle.replace('&amp;', '&'));
  await expect.poll(async () => (await page.locator('#root').textContent()) ?? '').toContain('Physical Review & Letters');
  expect(await page.locator('#root').textContent()).not.toContain('&amp;');
  await expectNoAxeViolations(page, 'entities record');
});

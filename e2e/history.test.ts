/** History and saved searches: kept in the browser, surviving reloads, with "new since last visit". */
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { dayOfTimestamp } from '../src/formats/dates';
import { apiList, findSearchTerm } from './support/api';
import { gotoApp, search, searchParamsOf, waitForResults } from './support/app';
import { phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;

test('a saved search survives a reload and offers what was entered since the last visit', async () => {
  const { page } = ui;
  const { term } = await findSearchTerm(lit);
  await gotoApp(page, `/${lit.slug}`);
  await page.evaluate(() => localStorage.clear());
  await search(page, term);

  const toggle = page.getByRole('button', { name: /History and saved searches/ });
  await toggle.click();
  await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
  // Saving without a name says why and keeps focus in the form.
  await page.getByRole('button', { name: 'Save search' }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Give the search a name' }).count()).toBe(1);
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.id))
    .toBe(await page.getByLabel('Name for this search').getAttribute('id'));
  await page.getByLabel('Name for this search').fill('My search');
  await page.getByRole('button', { name: 'Save search' }).click();
  await expect.poll(() => page.getByRole('status').filter({ hasText: 'Saved “My search”.' }).count()).toBe(1);
  await expectNoAxeViolations(page, 'history panel with a saved search');
  await screenshot(page, 'history-saved-light');

  // Subscribe: beside the search and on the saved search, the same Atom feed of it.
  const feedHrefs = await page
    .getByRole('link', { name: /Subscribe/ })
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  expect(feedHrefs).toHaveLength(2);
  for (const href of feedHrefs) {
    expect(new URL(href).pathname).toBe(`${lit.basePath}/feed`);
    expect(new URL(href).searchParams.get('q')).toBe(term);
  }
  const feed = await fetch(feedHrefs[0]!);
  expect(feed.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
  expect(await feed.text()).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');

  // The last visit is set back, as if the search had been saved a while ago.
  const since = '2010-06-15T12:00:00.000Z';
  await page.evaluate((lastVisit) => {
    const stored = JSON.parse(localStorage.getItem('records-explorer:history')!);
    stored.saved[0].lastVisit = lastVisit;
    localStorage.setItem('records-explorer:history', JSON.stringify(stored));
  }, since);
  await page.reload();
  await page.getByRole('button', { name: /History and saved searches \(1 saved\)/ }).click();
  const recent = page.getByRole('list').filter({ hasText: term }).first();
  await expect.poll(() => recent.count()).toBe(1);

  await page.getByRole('link', { name: /^New since/ }).click();
  await page.waitForURL((current) => current.searchParams.get('entry_date_start') === '06/15/2010');
  const params = searchParamsOf(page);
  expect(params.get('q')).toBe(term);
  expect(params.get('sort')).toBe('entry_date');
  const expected = await apiList(lit, { q: term, entry_date_start: '06/15/2010', sort: 'entry_date', order: 'desc' });
  expect(await waitForResults(page)).toBe(expected.total);
  for (const record of expected.records) {
    const day = dayOfTimestamp(record.entry_date as string)!;
    expect(day.year * 10_000 + day.month * 100 + day.day).toBeGreaterThanOrEqual(20100615);
  }
  // Opening it moved the last visit to now.
  const lastVisit = await page.evaluate(() => JSON.parse(localStorage.getItem('records-explorer:history')!).saved[0].lastVisit as string);
  expect(new Date(lastVisit).getTime()).toBeGreaterThan(Date.now() - 60_000);
});

test('the history panel works at phone width with 44 px targets', async () => {
  const { page } = ui;
  await page.setViewportSize(phone);
  await gotoApp(page, `/${lit.slug}?q=energy`);
  await waitForResults(page);
  const toggle = page.getByRole('button', { name: /History and saved searches/ });
  await toggle.click();
  const box = await toggle.boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  await page.getByRole('link', { name: 'energy', exact: true }).first().waitFor();
  await expectNoAxeViolations(page, 'history panel at phone width');
  await screenshot(page, 'history-phone-light');
});

/** State in the URL: reload round-trip, back/forward, and the deployment switcher. */
import { expect, test } from 'vitest';
import { deploymentByKey, deployments, displayName } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { apiList, findSearchTerm } from './support/api';
import {
  gotoApp,
  openAdvanced,
  pagination,
  resultLinks,
  search,
  searchBox,
  searchParamsOf,
  searchPath,
  setControl,
  waitForPage,
  waitForResults,
} from './support/app';
import { useBrowser } from './support/browser';
import { screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;
const enr = deploymentByKey('ENR')!;
const mm = deploymentByKey('MM')!;

async function ids(): Promise<string[]> {
  return resultLinks(ui.page).evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
}

function optionLabel(deployment: Deployment): string {
  return displayName(deployment);
}

test('URL round-trip: criteria and page survive a reload; back and forward restore', async () => {
  const { page } = ui;
  const { term } = await findSearchTerm(lit);
  const criteria = { q: term, title: term, publication_date_start: '01/01/1980', has_fulltext: 'true', rows: 10 };
  const expected = await apiList(lit, criteria);
  expect(expected.total, `enough results for two pages of 10 (${JSON.stringify(criteria)})`).toBeGreaterThan(10);

  await gotoApp(page, `/${lit.slug}`);
  await searchBox(page).fill(term);
  await openAdvanced(page);
  await setControl(page, 'Title', term);
  // A date picker fills ISO; the URL carries the deployment's format.
  await page.getByLabel('Published on or after', { exact: true }).fill('1980-01-01');
  const booleanOptions = await page.getByLabel('Full text available', { exact: true }).locator('option').allTextContents();
  expect(booleanOptions.map((text) => text.trim())).toEqual(['Any', 'Yes', 'No']);
  await page.getByLabel('Full text available', { exact: true }).selectOption({ label: 'Yes' });
  await setControl(page, 'Results per page', '10');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL((current) => current.searchParams.get('title') === term && current.searchParams.get('rows') === '10');
  expect(await waitForResults(page)).toBe(expected.total);
  const params = searchParamsOf(page);
  expect(params.get('q')).toBe(term);
  expect(params.get('publication_date_start')).toBe('01/01/1980');
  expect(params.get('has_fulltext')).toBe('true');
  const pageOne = await ids();
  expect(pageOne).toHaveLength(10);

  await pagination(page).getByRole('link', { name: 'Next page' }).click();
  await page.waitForURL((current) => current.searchParams.get('page') === '2');
  await waitForPage(page, 2);
  await expect.poll(ids).not.toEqual(pageOne);
  const pageTwo = await ids();
  const urlOnPageTwo = page.url();

  // Reload: same URL, same results, same form values.
  await page.reload({ waitUntil: 'domcontentloaded' });
  expect(page.url()).toBe(urlOnPageTwo);
  await waitForResults(page);
  await waitForPage(page, 2);
  expect(await ids()).toEqual(pageTwo);
  expect(await searchBox(page).inputValue()).toBe(term);
  await openAdvanced(page);
  expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe(term);
  expect(await page.getByLabel('Results per page', { exact: true }).inputValue()).toBe('10');
  expect(await page.getByLabel('Published on or after', { exact: true }).inputValue()).toBe('1980-01-01');
  expect(
    await page
      .getByLabel('Full text available', { exact: true })
      .evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text.trim()),
  ).toBe('Yes');

  // History: back to page 1, forward to page 2.
  await page.goBack();
  await page.waitForURL((current) => (current.searchParams.get('page') ?? '1') === '1');
  await waitForPage(page, 1);
  await expect.poll(ids).toEqual(pageOne);
  await page.goForward();
  await page.waitForURL((current) => current.searchParams.get('page') === '2');
  await waitForPage(page, 2);
  await expect.poll(ids).toEqual(pageTwo);
});

test('the root opens the all-catalogs search; each catalog keeps its own route', async () => {
  const { page } = ui;
  await gotoApp(page, '/');
  await page.waitForURL((current) => current.pathname === '/all');
  await page.getByRole('search', { name: 'Search all catalogs' }).getByRole('searchbox', { name: 'Search', exact: true }).waitFor();
  await gotoApp(page, `/${lit.slug}`);
  // The box becomes a combobox once the type-ahead's code has come.
  await searchBox(page.getByRole('search', { name: `Search ${lit.name}` })).waitFor();
});

test('deployment switcher: options, date conversion and the dropped-criteria notice', async () => {
  const { page } = ui;
  const { term } = await findSearchTerm(lit);
  await gotoApp(page, searchPath(lit, { q: term, publication_date_start: '01/15/2020', has_fulltext: 'true' }));
  await waitForResults(page);

  const switcher = page.getByRole('combobox', { name: 'Deployment' });
  const options = (await switcher.locator('option').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
  expect(options).toHaveLength(deployments.length + 1);
  expect(options[0]).toBe('All catalogs');
  for (const deployment of deployments) {
    expect(options.some((option) => option.startsWith(optionLabel(deployment)))).toBe(true);
  }
  expect(options.find((option) => option.startsWith(optionLabel(deploymentByKey('DC0')!)))).toContain('(deprecated release candidate)');

  // LIT → ENR: the date changes format, has_fulltext (LIT only) is dropped with a notice.
  const enrOption = options.find((option) => option.startsWith(optionLabel(enr)))!;
  await switcher.selectOption({ label: enrOption });
  await page.waitForURL((current) => current.pathname === `/${enr.slug}`);
  const params = searchParamsOf(page);
  expect(params.get('publication_date_start')).toBe('01-15-2020');
  expect(params.get('has_fulltext')).toBeNull();
  expect(params.get('q')).toBe(term);
  const notice = page.getByRole('status').filter({ hasText: 'not supported by' });
  await notice.waitFor({ state: 'visible' });
  expect(await notice.textContent()).toContain('Full text available');
  await waitForResults(page);
  await screenshot(page, 'switcher-lit-to-enr-notice');
  await openAdvanced(page);
  expect(await page.getByLabel('Published on or after', { exact: true }).inputValue()).toBe('2020-01-15');

  // ENR → MM: back to slashes; nothing dropped this time.
  await switcher.selectOption({ label: options.find((option) => option.startsWith(optionLabel(mm)))! });
  await page.waitForURL((current) => current.pathname === `/${mm.slug}`);
  expect(searchParamsOf(page).get('publication_date_start')).toBe('01/15/2020');
  await waitForResults(page);

  // MM → all catalogs: the date in ISO, which every catalog reads; and back to DC0 in its own format.
  await switcher.selectOption({ label: 'All catalogs' });
  await page.waitForURL((current) => current.pathname === '/all');
  expect([...searchParamsOf(page)]).toEqual([
    ['q', term],
    ['publication_date_start', '2020-01-15'],
  ]);
  await switcher.selectOption({ label: options.find((option) => option.startsWith(optionLabel(deploymentByKey('DC0')!)))! });
  await page.waitForURL((current) => current.pathname === `/${deploymentByKey('DC0')!.slug}`);
  expect(searchParamsOf(page).get('publication_date_start')).toBe('01-15-2020');
  await waitForResults(page);
});

test('a search from the box resets the page to 1', async () => {
  const { page } = ui;
  const { term } = await findSearchTerm(lit);
  await gotoApp(page, searchPath(lit, { q: term, page: 2 }));
  await waitForPage(page, 2);
  const { records } = await apiList(lit, { q: term, rows: 5 });
  const other =
    (
      String(records[0]?.title ?? '')
        .toLowerCase()
        .match(/\p{L}{5,}/gu) ?? []
    ).find((word) => word !== term) ?? `${term.slice(0, 4)}*`;
  await search(page, other);
  expect(searchParamsOf(page).get('page') ?? '1').toBe('1');
});

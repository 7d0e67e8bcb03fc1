/**
 * One work, one result (issue 39 item 5): the shipped DC1 records hold "ARM: CO2 Flux Data:
 * 4m samples" twice (upstream duplicates, a DOI each). The app shows it once with "2 versions",
 * the more complete record leading, the other one click away by keyboard; All catalogs the
 * same; a server that refuses `group` gets its results shown ungrouped.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { gotoApp, resultCount, resultTitles, searchPath, waitForResults } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;
const armTitle = 'ARM: CO2 Flux Data: 4m samples';

/** The result (article) whose title is the ARM dataset's. */
const armResult = (page: Page) => page.locator('article').filter({ has: page.getByRole('heading', { name: armTitle, exact: true }) });

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  test(`${label}: the ARM dataset entered twice is one result with 2 versions, the other opened by keyboard`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);
    await gotoApp(page, searchPath(dc1, { q: 'CO2 flux' }));
    const total = await waitForResults(page);
    expect((await resultTitles(page)).filter((title) => title === armTitle)).toHaveLength(1);
    // The count says what it counts: the records, and the works they are.
    await expect.poll(() => resultCount(page).textContent()).toBe(`${total} records · ${total - 1} works`);

    const result = armResult(page);
    // The more complete record (1342140 names its contributing organisations) leads.
    expect(await result.getByRole('heading').getByRole('link').getAttribute('href')).toBe(`/${dc1.slug}/records/1342140`);
    const toggle = result.getByRole('button', { name: '2 versions of this work' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const others = result.getByRole('list', { name: `Other versions of ${armTitle}` });
    expect(await others.isVisible()).toBe(false);
    await expectNoAxeViolations(page, `version group, closed (${label})`);

    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    await others.waitFor({ state: 'visible' });
    const version = others.getByRole('link', { name: armTitle });
    expect(await version.getAttribute('href')).toBe(`/${dc1.slug}/records/1342397`);
    expect(await others.textContent()).toContain('Record 1342397');
    expect(await others.textContent()).toContain('DOI 10.5439/1342397');
    await expectNoAxeViolations(page, `version group, open (${label})`);
    await result.scrollIntoViewIfNeeded();
    await screenshot(page, `work-versions-open-${label}`);

    // Tab reaches the other version's link, and Enter opens its record.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(`/${dc1.slug}/records/1342397`);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(armTitle);
    expect(new URL(page.url()).pathname).toBe(`/${dc1.slug}/records/1342397`);
  });
}

test('Select all on a grouped page selects each work once, its leading record', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(dc1, { q: 'CO2 flux' }));
  const total = await waitForResults(page);
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  const bar = page.getByRole('region', { name: 'Selection' });
  await bar
    .getByRole('status')
    .filter({ hasText: `${total - 1} selected` })
    .waitFor();
  expect(await armResult(page).getByRole('checkbox').isChecked()).toBe(true);
});

test('All catalogs lists the ARM dataset once in the dataset catalog, with its other version', async () => {
  const { page } = ui;
  await gotoApp(page, '/all?q=CO2%20flux');
  const group = page.getByRole('region', { name: 'Dataset catalog v1' });
  const titles = group.getByRole('link', { name: armTitle });
  const toggle = group.getByRole('button', { name: '2 versions of this work' });
  await toggle.waitFor();
  // The group's own link, and the other version's once the list is open.
  expect(await titles.count()).toBe(1);
  await toggle.click();
  await expect.poll(() => titles.count()).toBe(2);
  await expectNoAxeViolations(page, 'all catalogs with a version group (desktop)');
  await screenshot(page, 'work-versions-all-catalogs-desktop');
  await page.setViewportSize(phone);
  await expectNoAxeViolations(page, 'all catalogs with a version group (phone)');
  await screenshot(page, 'work-versions-all-catalogs-phone');
});

test('a server that refuses group (400) has its results shown ungrouped, as records', async () => {
  const { page } = ui;
  const asked: string[] = [];
  // A spec server answers an unknown parameter with the spec's 400; the same search without it goes through.
  await page.route(
    (url) => url.pathname.endsWith('/records') && url.searchParams.has('group'),
    (route) => {
      asked.push(route.request().url());
      return route.fulfill({
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 400, statusMessage: 'Bad Request', errorDescription: "Unknown parameter 'group'." }),
      });
    },
  );
  await gotoApp(page, searchPath(dc1, { q: 'CO2 flux' }));
  const total = await waitForResults(page);
  expect(asked).toHaveLength(1);
  expect((await resultTitles(page)).filter((title) => title === armTitle)).toHaveLength(2);
  expect(await page.getByRole('button', { name: /versions of this work/ }).count()).toBe(0);
  await expect.poll(() => resultCount(page).textContent()).toBe(`${total} results`);
});

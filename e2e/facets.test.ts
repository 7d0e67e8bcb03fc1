/** Facets, chips and results first: filtering by clicking, on every deployment, with and without /facets. */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deployments, deploymentByKey } from '../src/deployments/registry';
import { facetsResponseSchema } from '../src/formats/facets-response';
import { apiList } from './support/api';
import { gotoApp, openAdvanced, resultCount, searchParamsOf, searchPath, setControl, waitForResults } from './support/app';
import { phone, url, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;

const filters = (page: Page) => page.locator('.facets');
const chips = (page: Page) => page.getByRole('region', { name: 'Active filters' });

test.each(deployments.map((deployment) => [deployment.key, deployment] as const))(
  '%s: tick a facet value, see its chip and count, remove it',
  async (_key, deployment) => {
    const { page } = ui;
    await gotoApp(page, searchPath(deployment));
    const everything = await waitForResults(page);
    // The server's own counts for this search: tick the language with the fewest records.
    const facets = facetsResponseSchema.parse(await (await fetch(url(`${deployment.basePath}/facets?facet=language`))).json());
    const value = facets.facets[0]!.values.at(-1)!;
    const other = facets.facets[0]!.values[0]!;
    expect(value.count).toBeLessThan(everything);

    const fieldset = filters(page).getByRole('group', { name: 'Language' });
    const itemOf = (name: string) =>
      fieldset.getByRole('listitem').filter({ has: page.locator('.facets__label').getByText(name, { exact: true }) });
    const item = itemOf(value.value);
    const checkbox = item.getByRole('checkbox');
    await expect.poll(() => item.locator('label').textContent()).toBe(`${value.value}${value.count.toLocaleString('en')}`);
    await checkbox.click();
    // This server combines facets: the value is a facet.language criterion, and the other languages stay listed with their counts.
    await expect.poll(() => searchParamsOf(page).getAll('facet.language')).toEqual([value.value]);
    expect(await waitForResults(page)).toBe(value.count);
    await expect.poll(() => itemOf(other.value).locator('label').textContent()).toBe(`${other.value}${other.count.toLocaleString('en')}`);
    await expect.poll(() => chips(page).getByText(`Language: ${value.value}`).count()).toBe(1);
    // Focus stays on the checkbox for the next choice; the count is announced by the live region.
    await expect.poll(() => checkbox.evaluate((element) => element === document.activeElement)).toBe(true);
    await expect.poll(() => checkbox.isChecked()).toBe(true);
    if (deployment.key === 'LIT') {
      await expectNoAxeViolations(page, 'facet applied');
      await screenshot(page, 'facets-applied-desktop');
    }

    await chips(page)
      .getByRole('button', { name: `Remove Language: ${value.value}` })
      .click();
    await expect.poll(() => searchParamsOf(page).has('facet.language')).toBe(false);
    expect(await waitForResults(page)).toBe(everything);
    await expect.poll(() => chips(page).count()).toBe(0);
  },
);

test('product type and decade facets combine; Clear all removes every filter', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(lit));
  await waitForResults(page);
  const type = filters(page).getByRole('group', { name: 'Product type' }).getByRole('checkbox').first();
  await type.click();
  await expect.poll(() => searchParamsOf(page).getAll('facet.product_type').length).toBe(1);
  await waitForResults(page);
  const decade = filters(page).getByRole('group', { name: 'Publication decade' }).getByRole('checkbox').first();
  const decadeText = await decade.evaluate((element) => element.closest('label')?.querySelector('.facets__label')?.textContent ?? '');
  await decade.click();
  await expect.poll(() => searchParamsOf(page).getAll('facet.publication_decade')).toEqual([decadeText]);
  const total = await waitForResults(page);
  const [productType] = searchParamsOf(page).getAll('facet.product_type');
  const decadeStart = Number(decadeText.slice(0, 4));
  const { total: api } = await apiList(lit, {
    product_type: productType!,
    publication_date_start: `01/01/${decadeStart}`,
    publication_date_end: `12/31/${decadeStart + 9}`,
  });
  expect(total).toBe(api);
  await expect.poll(() => chips(page).getByText(`Publication decade: ${decadeText}`).count()).toBe(1);
  await chips(page).getByRole('button', { name: 'Clear all filters' }).click();
  await expect.poll(() => [...searchParamsOf(page).keys()]).toEqual([]);
});

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', phone],
] as const) {
  test(`results come first at ${label} width after applying an advanced criterion`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);
    await gotoApp(page, searchPath(lit, { q: 'energy' }));
    await waitForResults(page);
    await openAdvanced(page);
    // Exact-match fields suggest the values the search's records have.
    const suggested = page.locator(`datalist#${await page.getByLabel('Language', { exact: true }).getAttribute('list')} option`);
    await expect
      .poll(() => suggested.evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)))
      .toContain('English');
    await setControl(page, 'Language', 'English');
    await page.getByRole('button', { name: 'Apply criteria' }).click();
    await expect.poll(() => searchParamsOf(page).get('language')).toBe('English');
    await waitForResults(page);
    // The panel closed after Apply; the criterion is a chip; the first result is on screen.
    await expect.poll(() => page.getByRole('button', { name: 'Advanced search' }).getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => chips(page).getByText('Language: English').count()).toBe(1);
    const first = page.locator('article').first();
    const box = (await first.boundingBox())!;
    await screenshot(page, `results-first-${label}`);
    expect(box.y + 20, `first result at ${Math.round(box.y)} px`).toBeLessThan(viewport.height);
    await expectNoAxeViolations(page, `results first, ${label}`);
  });
}

test('sort and page size beside the count start the search again from page 1', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(lit, { q: 'energy', page: 2 }));
  await waitForResults(page);
  await page.getByLabel('Per page', { exact: true }).selectOption('50');
  await expect.poll(() => searchParamsOf(page).get('rows')).toBe('50');
  expect(searchParamsOf(page).has('page')).toBe(false);
  await page.locator('.results__settings').getByLabel('Sort by').selectOption('title');
  await expect.poll(() => searchParamsOf(page).get('sort')).toBe('title');
  await waitForResults(page);
});

test('against a server without /facets: known values counted lazily, search and paging unchanged', async () => {
  const { page } = ui;
  const facetRequests: string[] = [];
  await page.route('**/config.json', async (route) => {
    const config = await (await route.fetch()).json();
    for (const entry of Object.values<Record<string, unknown>>(config.deployments)) entry.facets = false;
    await route.fulfill({ json: config });
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/facets')) facetRequests.push(request.url());
  });
  await gotoApp(page, searchPath(lit, { q: 'energy' }));
  await waitForResults(page);
  // No product type (its parameter is this server's extension), no counts until asked.
  await expect.poll(() => filters(page).getByText('Product type').count()).toBe(0);
  const fulltext = filters(page).locator('details', { hasText: 'Full text available' });
  await expect.poll(() => fulltext.locator('.facets__count').count()).toBe(0);
  await fulltext.locator('summary').click();
  const { total: withFulltext } = await apiList(lit, { q: 'energy', has_fulltext: 'true' });
  await expect.poll(() => fulltext.getByRole('listitem').first().textContent()).toContain(withFulltext.toLocaleString('en'));
  await expectNoAxeViolations(page, 'lazy facet counts');
  await screenshot(page, 'facets-lazy-desktop');
  await page.getByRole('link', { name: 'Next page' }).first().click();
  await expect.poll(() => searchParamsOf(page).get('page')).toBe('2');
  await waitForResults(page);
  expect(facetRequests).toEqual([]);
  expect(await resultCount(page).isVisible()).toBe(true);
});

test('at phone width the filters open as a sheet: focus inside, Escape returns to Filters, "Show N results" to the results', async () => {
  const { page } = ui;
  await page.setViewportSize(phone);
  await gotoApp(page, searchPath(lit, { q: 'energy' }));
  const total = await waitForResults(page);
  const opener = page.getByRole('button', { name: 'Filters' });
  const sheet = page.getByRole('dialog', { name: 'Filters' });
  expect(await sheet.isVisible()).toBe(false);
  await opener.click();
  await expect.poll(() => sheet.getByRole('group', { name: 'Language' }).isVisible()).toBe(true);
  // Focus stays in the sheet: tabbing backwards from its first control never reaches the page behind.
  for (let step = 0; step < 6; step++) {
    await page.keyboard.press('Shift+Tab');
    expect(
      await page.evaluate(
        () => !document.activeElement || document.activeElement === document.body || Boolean(document.activeElement.closest('dialog')),
      ),
    ).toBe(true);
  }
  await expectNoAxeViolations(page, 'filters sheet open on a phone');
  await screenshot(page, 'facets-sheet-phone');
  await page.keyboard.press('Escape');
  await expect.poll(() => sheet.isVisible()).toBe(false);
  await expect.poll(() => opener.evaluate((element) => element === document.activeElement)).toBe(true);

  await opener.click();
  const show = sheet.getByRole('button', { name: `Show ${total.toLocaleString('en')} results` });
  await show.click();
  await expect.poll(() => sheet.isVisible()).toBe(false);
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('results');
  const heading = (await page.locator('#results').boundingBox())!;
  expect(heading.y).toBeGreaterThanOrEqual(0);
  expect(heading.y).toBeLessThan(phone.height);
});

for (const [label, viewport] of [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', phone],
] as const) {
  test(`one person is one author row at ${label} width: its spellings listed, ticking it finds them all`, async () => {
    const { page } = ui;
    const dc1 = deploymentByKey('DC1')!;
    await page.setViewportSize(viewport);
    await gotoApp(page, searchPath(dc1, { q: 'Fredrickson' }));
    await waitForResults(page);
    const query = new URLSearchParams({ q: 'Fredrickson', facet: 'author', facet_contains: 'fredrickson, e' });
    const answer = facetsResponseSchema.parse(await (await fetch(url(`${dc1.basePath}/facets?${query.toString()}`))).json());
    const rows = answer.facets[0]!.values.filter(({ value }) => value.startsWith('Fredrickson, E'));
    // The real DC1 records write him six ways; they are one row.
    expect(rows).toHaveLength(1);
    const person = rows[0]!;
    expect(person.variants).toEqual(expect.arrayContaining(['Fredrickson, E. D.', 'Fredrickson, E.D.', 'Fredrickson, Eric']));

    if (label === 'phone') await page.getByRole('button', { name: 'Filters' }).click();
    const authors = page.locator('.facets').getByRole('group', { name: 'Author' });
    const item = authors.getByRole('listitem').filter({ has: page.locator('.facets__label').getByText(person.value, { exact: true }) });
    const others = person.variants!.filter((spelling) => spelling !== person.value);
    await expect.poll(() => item.locator('.facets__variants').textContent()).toBe(`Also written ${others.join('; ')}`);
    const checkbox = item.getByRole('checkbox');
    // The spellings are the checkbox's description, so a screen reader says them with it.
    await expect
      .poll(() => checkbox.evaluate((element) => document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent))
      .toBe(`Also written ${others.join('; ')}`);
    await expectNoAxeViolations(page, `author spellings, ${label}`);
    await screenshot(page, `facets-author-spellings-${label}`);

    await checkbox.click();
    await expect.poll(() => searchParamsOf(page).getAll('facet.author')).toEqual([person.value]);
    if (label === 'phone') await page.locator('.facets-sheet__show').click();
    expect(await waitForResults(page)).toBe(person.count);
    // Each spelling alone finds the same records: the server folds them to one name.
    for (const spelling of person.variants!) {
      const { total } = await apiList(dc1, { q: 'Fredrickson', author_name: spelling });
      expect(total, spelling).toBe(person.count);
    }
  });
}

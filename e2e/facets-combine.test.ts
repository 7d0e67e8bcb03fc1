/**
 * Facets that combine (issue 24): two values of one facet OR'd, a value excluded, a facet's
 * search box, "Show more" in count order, the year chart and a range chosen by keyboard and
 * by pointer, the phone sheet, the selection bar in view; and single-select facets against
 * a server without the extension. Real DC1 records (`q=plasma`).
 */
import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { facetsResponseSchema } from '../src/formats/facets-response';
import { gotoApp, searchParamsOf, searchPath, waitForResults } from './support/app';
import { desktop, phone, url, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;

type Entries = [string, string][];

/** X-Total-Count of a search given as entries (names may repeat). */
async function apiTotal(deployment: Deployment, entries: Entries): Promise<number> {
  const response = await fetch(url(`${deployment.basePath}/records?${new URLSearchParams(entries)}`), {
    headers: { accept: 'application/json' },
  });
  expect(response.status).toBe(200);
  return Number(response.headers.get('x-total-count'));
}

async function apiFacets(deployment: Deployment, entries: Entries) {
  const response = await fetch(url(`${deployment.basePath}/facets?${new URLSearchParams(entries)}`));
  expect(response.status).toBe(200);
  return facetsResponseSchema.parse(await response.json());
}

const entriesOf = (page: Page): Entries => [...searchParamsOf(page)];
const chips = (page: Page) => page.getByRole('region', { name: 'Active filters' });
const group = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
const row = (facet: Locator, value: string) =>
  facet.getByRole('listitem').filter({ has: facet.page().locator('.facets__label').getByText(value, { exact: true }) });
const countIn = async (item: Locator) => Number(((await item.locator('.facets__count').textContent()) ?? '').replace(/,/g, ''));
const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

/** Ticks a value and waits for the search (and its results) to hold it. */
async function tick(page: Page, label: string, facet: string, value: string) {
  await row(group(page, label), value).getByRole('checkbox').click();
  await expect.poll(() => searchParamsOf(page).getAll(`facet.${facet}`).includes(value)).toBe(true);
  return waitForResults(page);
}

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  // A person's whole path through four facets, each state checked with axe: longer than one view's budget on a busy machine.
  test(
    `${label}: narrow "plasma" to two product types, exclude a laboratory found by the facet's search, pick 2010–2015 by keyboard`,
    { timeout: 150_000 },
    async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      await gotoApp(page, searchPath(dc1, { q: 'plasma' }));
      const everything = await waitForResults(page);
      if (label === 'phone') {
        await page.getByRole('button', { name: 'Filters' }).click();
        await page.getByRole('dialog', { name: 'Filters' }).waitFor();
      }

      // Two values of one facet: OR'd, and the other values keep their own exact counts.
      const types = group(page, 'Product type');
      await expect.poll(() => types.getByRole('checkbox').count()).toBeGreaterThan(2);
      const dataset = await countIn(row(types, 'Dataset'));
      expect(dataset).toBe(
        await apiTotal(dc1, [
          ['q', 'plasma'],
          ['facet.product_type', 'Dataset'],
        ]),
      );
      const afterOne = await tick(page, 'Product type', 'product_type', 'Dataset');
      expect(afterOne).toBe(dataset);
      expect(afterOne).toBeLessThan(everything);
      await expect.poll(() => isFocused(row(types, 'Dataset').getByRole('checkbox'))).toBe(true);
      const software = row(types, 'Software');
      await expect
        .poll(() => countIn(software))
        .toBe(
          await apiTotal(dc1, [
            ['q', 'plasma'],
            ['facet.product_type', 'Software'],
          ]),
        );
      const softwareCount = await countIn(software);
      await software.getByRole('checkbox').click();
      await expect.poll(() => searchParamsOf(page).getAll('facet.product_type')).toEqual(['Dataset', 'Software']);
      expect(await waitForResults(page)).toBe(dataset + softwareCount);
      await expect.poll(() => chips(page).getByText('Product type: Software', { exact: true }).count()).toBe(1);
      await expectNoAxeViolations(page, `two values in one facet, ${label}`);

      // The facet's search box looks through every value; the number found is announced.
      const orgs = group(page, 'Research organisation');
      await orgs.getByRole('searchbox', { name: 'Search research organisation values' }).fill('oak ridge');
      const found = await apiFacets(dc1, [...entriesOf(page), ['facet', 'research_org'], ['facet_contains', 'oak ridge']]);
      const ornl = found.facets[0]!.values[0]!.value;
      expect(ornl).toMatch(/Oak Ridge/);
      const distinct = found.facets[0]!.distinct;
      await expect
        .poll(() => orgs.getByRole('status').textContent())
        .toBe(`${distinct} ${distinct === 1 ? 'value contains' : 'values contain'} “oak ridge”`);
      await expect
        .poll(() => orgs.locator('.facets__label').allTextContents())
        .toEqual(found.facets[0]!.values.map((value) => value.value));
      await expectNoAxeViolations(page, `facet search, ${label}`);
      await screenshot(page, `facets-search-${label}`);

      // Excluded: its own chip, the control pressed, the value still listed.
      const exclude = orgs.getByRole('button', { name: `Exclude ${ornl}`, exact: true });
      await exclude.click();
      await expect.poll(() => searchParamsOf(page).getAll('exclude.research_org')).toEqual([ornl]);
      const excludedTotal = await waitForResults(page);
      expect(excludedTotal).toBe(await apiTotal(dc1, entriesOf(page)));
      await expect.poll(() => exclude.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => isFocused(exclude)).toBe(true);
      await expect.poll(() => chips(page).getByText(`Research organisation: not ${ornl}`, { exact: true }).count()).toBe(1);
      await expectNoAxeViolations(page, `an exclusion, ${label}`);

      // The year chart: a range chosen with the slider's thumbs, by keyboard.
      const first = page.getByRole('slider', { name: 'First year' });
      const last = page.getByRole('slider', { name: 'Last year' });
      await first.waitFor();
      await expect(page.getByRole('img', { name: /^Records per year/ }).count()).resolves.toBe(1);
      const moveTo = async (thumb: Locator, year: number) => {
        await thumb.focus();
        const now = Number(await thumb.getAttribute('aria-valuenow'));
        const key = year > now ? 'ArrowRight' : 'ArrowLeft';
        for (let step = 0; step < Math.abs(year - now); step++) await page.keyboard.press(key);
        await expect.poll(() => thumb.getAttribute('aria-valuetext')).toMatch(new RegExp(`^${year}, [\\d,]+ records?$`));
      };
      await moveTo(first, 2010);
      await expect.poll(() => searchParamsOf(page).get('publication_date_start')).toBe('01/01/2010');
      await moveTo(last, 2015);
      await expect.poll(() => searchParamsOf(page).get('publication_date_end')).toBe('12/31/2015');
      expect(searchParamsOf(page).get('publication_date_start')).toBe('01/01/2010');
      const narrowed = await waitForResults(page);
      await expect.poll(() => isFocused(last)).toBe(true);
      await expect.poll(() => chips(page).getByText('Published: 2010–2015', { exact: true }).count()).toBe(1);
      // Years outside the range stay drawn, so the range can be widened again.
      await expect.poll(() => first.getAttribute('aria-valuemin')).not.toBe('2010');
      expect(narrowed).toBe(
        await apiTotal(dc1, [
          ['q', 'plasma'],
          ['facet.product_type', 'Dataset'],
          ['facet.product_type', 'Software'],
          ['exclude.research_org', ornl],
          ['publication_date_start', '01/01/2010'],
          ['publication_date_end', '12/31/2015'],
        ]),
      );
      // The text alternative lists the years with their counts.
      await page.getByText('Records per year as a table').click();
      await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBeGreaterThan(1);
      await expectNoAxeViolations(page, `year chart with a range, ${label}`);
      await screenshot(page, `facets-done-${label}`);

      if (label === 'phone') {
        // "Show N results" closes the sheet and leads back to the results, their heading focused.
        const sheet = page.getByRole('dialog', { name: 'Filters' });
        await sheet.getByRole('button', { name: `Show ${narrowed.toLocaleString('en')} ${narrowed === 1 ? 'result' : 'results'}` }).click();
        await expect.poll(() => sheet.isVisible()).toBe(false);
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('results');
        const heading = (await page.locator('#results').boundingBox())!;
        expect(heading.y).toBeGreaterThanOrEqual(0);
        expect(heading.y).toBeLessThan(phone.height);
        await expectNoAxeViolations(page, 'results after the sheet, phone');
        await screenshot(page, 'facets-done-results-phone');
      }

      // The URL holds the state: back steps out of the range, forward restores it, a reload keeps it all.
      await page.goBack();
      await expect.poll(() => searchParamsOf(page).get('publication_date_end')).not.toBe('12/31/2015');
      await page.goForward();
      await expect.poll(() => searchParamsOf(page).get('publication_date_end')).toBe('12/31/2015');
      await page.reload({ waitUntil: 'domcontentloaded' });
      expect(await waitForResults(page)).toBe(narrowed);
      await expect.poll(() => chips(page).getByRole('listitem').count()).toBe(4);
    },
  );
}

test('the year chart: a range dragged across the bars, and typed From/To years', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(dc1, { q: 'plasma' }));
  await waitForResults(page);
  const chart = page.getByRole('img', { name: /^Records per year/ });
  await chart.waitFor();
  const first = Number(await page.getByRole('slider', { name: 'First year' }).getAttribute('aria-valuemin'));
  const last = Number(await page.getByRole('slider', { name: 'Last year' }).getAttribute('aria-valuemax'));
  // Measured before each gesture: a chip above the layout moves the chart down once a range is set.
  const at = async (year: number) => {
    const box = (await chart.boundingBox())!;
    return { x: box.x + (year - first + 0.5) * (box.width / (last - first + 1)), y: box.y + box.height / 2 };
  };
  const start = await at(2012);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move((await at(2013)).x, start.y, { steps: 3 });
  await page.mouse.move((await at(2014)).x, start.y, { steps: 3 });
  await page.mouse.up();
  await expect
    .poll(() => [searchParamsOf(page).get('publication_date_start'), searchParamsOf(page).get('publication_date_end')])
    .toEqual(['01/01/2012', '12/31/2014']);
  await waitForResults(page);
  await expect.poll(() => chips(page).getByText('Published: 2012–2014', { exact: true }).count()).toBe(1);

  // Two clicks: the first and the last year.
  const from = await at(2016);
  await page.mouse.click(from.x, from.y);
  await expect.poll(() => page.getByText('From 2016: click the last year.').count()).toBe(1);
  const to = await at(2018);
  await page.mouse.click(to.x, to.y);
  await expect.poll(() => searchParamsOf(page).get('publication_date_start')).toBe('01/01/2016');
  expect(searchParamsOf(page).get('publication_date_end')).toBe('12/31/2018');
  await waitForResults(page);

  await page.getByLabel('From', { exact: true }).fill('2019');
  await page.getByLabel('To', { exact: true }).fill('2021');
  await page.getByRole('button', { name: 'Apply years' }).click();
  await expect.poll(() => searchParamsOf(page).get('publication_date_start')).toBe('01/01/2019');
  expect(searchParamsOf(page).get('publication_date_end')).toBe('12/31/2021');
  const total = await waitForResults(page);
  expect(total).toBe(
    await apiTotal(dc1, [
      ['q', 'plasma'],
      ['publication_date_start', '01/01/2019'],
      ['publication_date_end', '12/31/2021'],
    ]),
  );
  await page.getByLabel('From', { exact: true }).fill('2030');
  await page.getByLabel('To', { exact: true }).fill('2001');
  await page.getByRole('button', { name: 'Apply years' }).click();
  await expect.poll(() => page.getByText('From 2030 is after To 2001: enter the earlier year in From.').count()).toBe(1);
  expect(searchParamsOf(page).get('publication_date_start')).toBe('01/01/2019');
  await page.getByLabel('From', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Apply years' }).click();
  await expect.poll(() => page.getByText('Enter each year as four digits, such as 2010.').count()).toBe(1);
  await page.getByRole('button', { name: 'Any year' }).click();
  await expect.poll(() => searchParamsOf(page).has('publication_date_start')).toBe(false);
});

test('"Show more" continues in count order; chosen values stay listed with their counts', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(dc1, { q: 'plasma' }));
  await waitForResults(page);
  const subjects = group(page, 'Subject');
  await expect.poll(() => subjects.getByRole('listitem').count()).toBe(10);
  await subjects.getByRole('button', { name: 'Show more subject values' }).click();
  await expect.poll(() => subjects.getByRole('listitem').count()).toBeGreaterThan(10);
  const counts = await subjects.locator('.facets__count').allTextContents();
  const numbers = counts.map((text) => Number(text.replace(/,/g, '')));
  expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
  const api = await apiFacets(dc1, [
    ['q', 'plasma'],
    ['facet', 'subject'],
    ['facet_limit', '30'],
  ]);
  expect(await subjects.locator('.facets__label').allTextContents()).toEqual(
    api.facets[0]!.values.slice(0, numbers.length).map((value) => value.value),
  );

  // A value from far down the list, once chosen, is listed first with its own count.
  // The author facet is listed like the others, largest counts first.
  const authors = await apiFacets(dc1, [
    ['q', 'plasma'],
    ['facet', 'author'],
  ]);
  const topAuthor = authors.facets[0]!.values[0]!;
  expect(await countIn(row(group(page, 'Author'), topAuthor.value))).toBe(topAuthor.count);

  const far = api.facets[0]!.values[numbers.length - 1]!;
  await row(subjects, far.value).getByRole('checkbox').click();
  await expect.poll(() => searchParamsOf(page).getAll('facet.subject')).toEqual([far.value]);
  await waitForResults(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await waitForResults(page);
  const pinned = row(group(page, 'Subject'), far.value);
  await expect.poll(() => pinned.getByRole('checkbox').isChecked()).toBe(true);
  expect(await countIn(pinned)).toBe(far.count);
});

test('against a server without the extension (no "combinable"), facets stay single-select', async () => {
  const { page } = ui;
  await page.route('**/facets?**', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    delete body.combinable;
    await route.fulfill({ response, json: body });
  });
  await gotoApp(page, searchPath(dc1, { q: 'plasma' }));
  await waitForResults(page);
  const types = group(page, 'Product type');
  await expect.poll(() => types.getByRole('checkbox').count()).toBeGreaterThan(2);
  expect(await page.getByRole('slider').count()).toBe(0);
  expect(await types.getByRole('button', { name: /^Exclude/ }).count()).toBe(0);
  await row(types, 'Dataset').getByRole('checkbox').click();
  await expect.poll(() => searchParamsOf(page).getAll('product_type')).toEqual(['Dataset']);
  await waitForResults(page);
  // As before: the spec's own parameter, and the facet then lists only the ticked value.
  expect([...searchParamsOf(page).keys()].some((name) => name.startsWith('facet.'))).toBe(false);
  await expect.poll(() => types.getByRole('checkbox').count()).toBe(1);
  await row(types, 'Dataset').getByRole('checkbox').click();
  await expect.poll(() => searchParamsOf(page).has('product_type')).toBe(false);
  await waitForResults(page);
});

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  test(`${label}: the selection bar stays in view while ticking results, and never hides the last one`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);
    await gotoApp(page, searchPath(lit, { q: 'energy' }));
    await waitForResults(page);
    const boxes = page.locator('article').getByRole('checkbox');
    const bar = page.getByRole('region', { name: 'Selection' });
    for (let index = 0; index < 5; index++) {
      await boxes.nth(index).check();
      await bar
        .getByRole('status')
        .filter({ hasText: `${index + 1} selected` })
        .waitFor();
    }
    const inView = async () => {
      const box = (await bar.boundingBox())!;
      return box.y >= 0 && box.y + box.height <= viewport.height + 0.5;
    };
    await expect.poll(inView).toBe(true);
    const fifth = (await boxes.nth(4).boundingBox())!;
    const barBox = (await bar.boundingBox())!;
    expect(fifth.y + fifth.height <= barBox.y || fifth.y >= barBox.y + barBox.height, 'the bar does not cover the ticked checkbox').toBe(
      true,
    );
    await expectNoAxeViolations(page, `selection bar in view, ${label}`);
    await screenshot(page, `selection-bar-in-view-${label}`);
    // At the end of the page the bar sits after the last content, covering nothing.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(inView).toBe(true);
    const download = (await page.getByRole('heading', { name: 'Download all results' }).boundingBox())!;
    expect(download.y + download.height).toBeLessThanOrEqual((await bar.boundingBox())!.y);
  });
}

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  test(`${label}: when a changed search's counts fail, the filters stay with a facet's typed search, and "Try again" brings the new counts`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);
    await gotoApp(page, searchPath(dc1, { q: 'plasma' }));
    await waitForResults(page);
    if (label === 'phone') {
      await page.getByRole('button', { name: 'Filters' }).click();
      await page.getByRole('dialog', { name: 'Filters' }).waitFor();
    }
    // The filter column's own request (all facets, no `facet=`) fails, as a busy server's would, retries included.
    let failing = true;
    await page.route(/\/facets\?/, (route) =>
      failing && !new URL(route.request().url()).searchParams.has('facet')
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"status":"Service Unavailable","message":"busy"}' })
        : route.fallback(),
    );
    await tick(page, 'Product type', 'product_type', 'Dataset');
    const orgs = group(page, 'Research organisation');
    const search = orgs.getByRole('searchbox', { name: 'Search research organisation values' });
    await search.fill('oak ridge');
    await expect.poll(() => orgs.getByRole('status').textContent()).toMatch(/“oak ridge”$/);
    const notice = page.getByRole('alert').filter({ hasText: 'The counts below are from before your last change' });
    await notice.waitFor();
    expect(await search.inputValue()).toBe('oak ridge');
    await expect.poll(() => row(group(page, 'Product type'), 'Dataset').getByRole('checkbox').isChecked()).toBe(true);
    await expectNoAxeViolations(page, `counts that failed to update, ${label}`);
    await screenshot(page, `facets-stale-${label}`);

    failing = false;
    await notice.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => notice.count()).toBe(0);
    const datasets = await apiTotal(dc1, [
      ['q', 'plasma'],
      ['facet.product_type', 'Dataset'],
    ]);
    await expect.poll(() => countIn(row(group(page, 'Product type'), 'Dataset'))).toBe(datasets);
    expect(await search.inputValue()).toBe('oak ridge');
  });
}

// As a tablet turned or a window resized does; Chromium's full-page screenshots can also report
// a 1-px window for a moment, which is how a lost search showed up in CI.
test("a facet's typed search outlives a change of layout: the window narrowed to a phone's and widened again", async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  await gotoApp(page, searchPath(dc1, { q: 'plasma' }));
  await waitForResults(page);
  const searchOf = () => group(page, 'Research organisation').getByRole('searchbox', { name: 'Search research organisation values' });
  const labels = () => group(page, 'Research organisation').locator('.facets__label').allTextContents();
  await searchOf().fill('oak ridge');
  await expect.poll(() => group(page, 'Research organisation').getByRole('status').textContent()).toMatch(/“oak ridge”$/);
  const found = await labels();
  expect(found.every((value) => /oak ridge/i.test(value))).toBe(true);

  // Narrow: the filters move into the sheet, where the search is as it was left.
  await page.setViewportSize(phone);
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByRole('dialog', { name: 'Filters' }).waitFor();
  expect(await searchOf().inputValue()).toBe('oak ridge');
  await expect.poll(labels).toEqual(found);
  await expectNoAxeViolations(page, 'a facet search kept in the sheet, phone');

  // Wide again: the column shows it too.
  await page.setViewportSize(desktop);
  await expect.poll(() => page.getByRole('dialog', { name: 'Filters' }).count()).toBe(0);
  expect(await searchOf().inputValue()).toBe('oak ridge');
  await expect.poll(labels).toEqual(found);
});

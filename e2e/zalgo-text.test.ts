/**
 * Text under stacks of combining marks ("zalgo", seeded by the global setup in
 * setup/hostile-records.ts) in a title, the authors and the description: wherever the record
 * is listed — results, All catalogs, Similar records, and the server-sent search page a
 * reader without script gets — it takes a bounded number of lines and the page stays as wide
 * as the screen, at desktop and phone width.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { gotoApp } from './support/app';
import { desktop, phone, url, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';
import { hostileIds, zalgoWord } from './setup/hostile-records';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;

const pageSize = (page: Page) =>
  page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
    scrollHeight: document.documentElement.scrollHeight,
  }));

/** The element's height and right edge as laid out (what it clips takes no room). */
const extent = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return { height: box.height, right: box.right };
  });

async function expectBounded(page: Page, item: Locator, maxHeight: number, name: string) {
  await item.waitFor();
  const { height, right } = await extent(item);
  const size = await pageSize(page);
  expect(height, `${name}: height`).toBeLessThanOrEqual(maxHeight);
  expect(right, `${name}: right edge`).toBeLessThanOrEqual(size.clientWidth);
  expect(size.scrollWidth, `${name}: page width`).toBeLessThanOrEqual(size.clientWidth);
}

for (const [name, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  test(`${name}: zalgo text takes a few lines in results, All catalogs and Similar records`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);

    await gotoApp(page, `/${lit.slug}?q=${zalgoWord}`);
    const result = page.locator('article').filter({ has: page.locator(`a[href="/${lit.slug}/records/${hostileIds.zalgo}"]`) });
    await expectBounded(page, result, 700, 'result');
    await screenshot(page, `zalgo-results-${name}`);
    await expectNoAxeViolations(page, `results holding zalgo text (${name})`);

    await gotoApp(page, `/all?q=${zalgoWord}`);
    const group = page.getByRole('region', { name: new RegExp(lit.name) });
    const entry = group.locator('li').filter({ has: page.locator(`a[href="/${lit.slug}/records/${hostileIds.zalgo}"]`) });
    await expectBounded(page, entry, 400, 'All catalogs');
    await screenshot(page, `zalgo-all-${name}`);

    await gotoApp(page, `/${lit.slug}/records/${hostileIds.zalgoCompanion}`);
    const similar = page
      .getByRole('region', { name: 'Similar records' })
      .locator('li')
      .filter({ has: page.locator(`a[href="/${lit.slug}/records/${hostileIds.zalgo}"]`) });
    await expectBounded(page, similar, 250, 'Similar records');
    await screenshot(page, `zalgo-similar-${name}`);
  });

  test(`${name}: the server-sent search page without script keeps zalgo text to a few lines`, async () => {
    const context = await ui.browser.newContext({ javaScriptEnabled: false, viewport });
    try {
      const page = await context.newPage();
      await page.goto(url(`/${lit.slug}?q=${zalgoWord}`));
      const item = page.locator('.server-results li').filter({ has: page.locator(`a[href="/${lit.slug}/records/${hostileIds.zalgo}"]`) });
      await expectBounded(page, item, 250, 'server page');
      expect((await pageSize(page)).scrollHeight).toBeLessThan(4 * viewport.height);
      await screenshot(page, `zalgo-server-page-${name}`);
    } finally {
      await context.close();
    }
  });
}

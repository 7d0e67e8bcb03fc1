/**
 * Issue 38 item 8, the smaller things a person notices: a refusal every catalog gives alike is
 * said once, with no "Try again" that cannot succeed; the Cite dialog opens at once, before
 * its code and the citation engine have arrived; the style finder's buttons are named with
 * commas between title and fields; History holds one fielded search once, in the chips' words;
 * on a phone the selection bar leaves the screen to the results.
 */
import type { Page, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deploymentByKey, deployments } from '../src/deployments/registry';
import { gotoApp, searchBox } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, picture, screenshot } from './support/checks';

const ui = useBrowser();
const widths = [
  ['desktop', desktop],
  ['phone', phone],
] as const;

async function atWidth(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
}

describe('All catalogs: a refusal every catalog gives', () => {
  for (const [label, size] of widths) {
    test(`${label}: is said once beside the box, with no Try again`, async () => {
      const { page } = ui;
      await atWidth(page, size);
      const answered: number[] = [];
      const catalogs = new Set<string>();
      page.on('response', (response) => {
        const list = /\/api\/[a-z]+\/v[\d.]+\/records\?/.exec(response.url());
        if (!list) return;
        answered.push(response.status());
        catalogs.add(list[0]);
      });
      await gotoApp(page, `/all?q=${'plasma '.repeat(200).trim()}`);
      // While some catalogs are still answering, the alert counts those that refused so far.
      const alert = page.getByRole('alert').filter({ hasText: 'Every catalog refused this search: q is too long' });
      await alert.waitFor();
      // Each catalog refused (a refused grouped page is asked once more without `group`); the
      // browser's response events may reach the test after the page has drawn the alert.
      await expect.poll(() => catalogs.size).toBe(deployments.length);
      expect(answered.every((status) => status === 400)).toBe(true);
      expect(await page.getByText('q is too long').count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Try again' }).count()).toBe(0);
      expect(await searchBox(page).getAttribute('aria-invalid')).toBe('true');
      await screenshot(page, `all-refused-${label}`);
      await expectNoAxeViolations(page, `all catalogs refused (${label})`);
    });
  }
});

describe('the Cite dialog', () => {
  const dc1 = deploymentByKey('DC1')!;
  for (const [label, size] of widths) {
    test(`${label}: opens at once, saying it is loading, while its code is still on its way`, async () => {
      const { page } = ui;
      await atWidth(page, size);
      await gotoApp(page, `/${dc1.slug}/records/1562055`);
      const cite = page.getByRole('button', { name: 'Cite', exact: true });
      await cite.waitFor();
      // Every script asked for from now on (the dialog's chunk, the citation engine) is held.
      const held: Route[] = [];
      let holding = true;
      await page.route(/\/assets\/.*\.js$/, (route) => (holding ? void held.push(route) : route.continue()));
      await cite.click();
      const dialog = page.getByRole('dialog', { name: 'Cite' });
      await dialog.waitFor();
      expect(await dialog.getByRole('status').textContent()).toBe('Loading the citation styles…');
      expect(held.length, 'the dialog is shown while its code is held').toBeGreaterThan(0);
      expect(await page.getByRole('region', { name: 'Citations' }).count()).toBe(0);
      await screenshot(page, `cite-loading-${label}`);
      await expectNoAxeViolations(page, `Cite dialog loading (${label})`);

      holding = false;
      for (const route of held) await route.continue();
      const citations = page.getByRole('region', { name: 'Citations' });
      await citations.waitFor();
      expect(await citations.innerText()).toContain('Suppression of Alfvén modes');
      expect(await page.getByRole('dialog', { name: 'Cite' }).count()).toBe(1);

      // The style finder names each style with commas, not run together ("Naturescience").
      await dialog.getByRole('searchbox', { name: 'Find another style' }).fill('nature');
      const nature = dialog
        .getByRole('list', { name: 'Matching styles' })
        .getByRole('button', { name: 'Nature, science, generic-base, numeric', exact: true });
      await nature.waitFor();
      await screenshot(page, `cite-style-names-${label}`);
      await expectNoAxeViolations(page, `style finder (${label})`);

      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await cite.evaluate((element) => element === document.activeElement), 'focus back on Cite').toBe(true);
    });
  }
});

describe('History', () => {
  const lit = deploymentByKey('LIT')!;
  for (const [label, size] of widths) {
    test(`${label}: one fielded search is one entry, in the words of the filter chips`, async () => {
      const { page } = ui;
      await atWidth(page, size);
      await gotoApp(page, `/${lit.slug}`);
      await page.evaluate(() => localStorage.clear());
      const box = searchBox(page);
      await box.fill('type:"Journal Article" solar cell');
      await box.press('Enter');
      await page.waitForURL((url) => url.searchParams.get('product_type') === 'Journal Article');
      const chips = page.getByRole('region', { name: 'Active filters' });
      await chips.getByText('Product type: Journal Article').waitFor();
      // The same search reached with its criteria in the other order (a shared link).
      await gotoApp(page, `/${lit.slug}?product_type=Journal%20Article&q=solar%20cell`);
      await chips.getByText('Product type: Journal Article').waitFor();

      await page.getByRole('button', { name: /History and saved searches/ }).click();
      const recent = page.getByRole('heading', { name: 'Recent searches' }).locator('xpath=following-sibling::ol[1]').getByRole('listitem');
      await recent.first().waitFor();
      expect(await recent.count()).toBe(1);
      expect(await recent.getByRole('link').textContent()).toBe('solar cell · Product type: Journal Article');
      await screenshot(page, `history-chip-words-${label}`);
      await expectNoAxeViolations(page, `history (${label})`);
    });
  }
});

describe('the selection bar', () => {
  const lit = deploymentByKey('LIT')!;
  for (const [label, size] of widths) {
    test(`${label}: stays compact while the results scroll, its notes behind "Selected"`, async () => {
      const { page } = ui;
      await atWidth(page, size);
      await gotoApp(page, `/${lit.slug}?q=plasma`);
      await page.evaluate(() => localStorage.clear());
      await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
      const bar = page.getByRole('region', { name: 'Selection' });
      await bar.waitFor();
      await page.mouse.wheel(0, 400);
      const box = (await bar.boundingBox())!;
      if (size === phone) expect(box.height, 'the bar’s height on a 390×844 screen').toBeLessThanOrEqual(0.15 * phone.height);
      await screenshot(page, `selection-bar-${label}`);
      if (size === phone) await picture(`selection-bar-${label}-view`, (path) => page.screenshot({ path }));
      for (const name of ['Clear selection', 'Cite selected', 'Export selected'])
        expect(await bar.getByRole('button', { name }).count()).toBe(1);
      await expectNoAxeViolations(page, `selection bar (${label})`);
      const toggle = bar.getByRole('button', { name: /^Selected \(\d+/ });
      await toggle.click();
      await bar.getByRole('list').first().waitFor();
      await expectNoAxeViolations(page, `selection bar opened (${label})`);
    });
  }
});

/**
 * Issue 39, finding a work the way a researcher remembers it: a year in the box reads as the
 * year of publication (a chip says so, and makes it a word again), at desktop and phone width.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { gotoApp, resultLinks, searchParamsOf, searchPath, waitForResults } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;

const chips = (page: Page) => page.getByRole('region', { name: 'Active filters' });
const hrefs = async (page: Page) =>
  (await resultLinks(page).evaluateAll((links) => links.map((link) => link.getAttribute('href')))).join(' ');

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  describe(`at ${label} width`, () => {
    test('surname, a word and the year find the work (DC1 1367912, published 2017); the year chip makes it a word', async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      await gotoApp(page, searchPath(dc1, { q: 'Lim pressure 2017' }));
      expect(await waitForResults(page)).toBeGreaterThan(0);
      expect(await hrefs(page)).toContain('/records/1367912');
      const chip = chips(page).getByText('Published 2017, or the word 2017');
      await expect.poll(() => chip.count()).toBe(1);
      await expectNoAxeViolations(page, `year chip (${label})`);
      await screenshot(page, `find-work-year-${label}`);

      await chips(page).getByRole('button', { name: 'Only the word 2017' }).click();
      await expect.poll(() => searchParamsOf(page).get('q')).toBe('Lim pressure "2017"');
      await waitForResults(page);
      expect(await hrefs(page)).not.toContain('/records/1367912');
      expect(await chips(page).getByText('Published 2017, or the word 2017').count()).toBe(0);
    });

    test("a slip that finds nothing shows the suggestion's results at once, saying so, and searches as typed on request", async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      await gotoApp(page, searchPath(dc1, { q: 'tempearture pressure' }));
      await expect.poll(() => searchParamsOf(page).get('q')).toBe('temperature pressure');
      expect(await waitForResults(page)).toBeGreaterThan(0);
      const notice = page.getByRole('status').filter({ hasText: 'Showing results for' });
      await expect
        .poll(() => notice.textContent())
        .toBe('Showing results for temperature pressure — search instead for tempearture pressure');
      await expectNoAxeViolations(page, `spelling replaced (${label})`);
      await screenshot(page, `find-work-spelling-${label}`);

      await notice.getByRole('link', { name: 'tempearture pressure' }).click();
      await expect.poll(() => searchParamsOf(page).get('q')).toBe('tempearture pressure');
      expect(await waitForResults(page)).toBe(0);
      const offer = page.getByText('Did you mean');
      await expect.poll(() => offer.textContent()).toBe('Did you mean temperature pressure?');
      await expectNoAxeViolations(page, `did you mean (${label})`);

      // A single misspelt word, two slips from the records' spelling.
      await gotoApp(page, searchPath(dc1, { q: 'geotermla' }));
      await expect.poll(() => searchParamsOf(page).get('q')).toBe('geothermal');
      expect(await waitForResults(page)).toBeGreaterThan(0);
    });
  });
}

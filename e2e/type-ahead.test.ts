/**
 * Issue 39, type-ahead: typing in the search box or the author field offers the mirror's
 * values with their record counts (one row per person), chosen by keyboard alone, and the
 * search it leads to finds what the count said; at desktop and phone width, with axe.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { apiList } from './support/api';
import { gotoApp, openAdvanced, searchBox, searchParamsOf, searchPath, waitForResults } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;

/** The options of the listbox a combobox controls, once it shows some. */
async function optionsOf(page: Page, name: string) {
  const listbox = page.getByRole('listbox', { name });
  await listbox.getByRole('option').first().waitFor({ state: 'visible' });
  return listbox.getByRole('option');
}

const countOf = (text: string) => Number(/([\d,]+) records?$/.exec(text.trim())![1]!.replace(/,/g, ''));

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  describe(`at ${label} width`, () => {
    test('the search box offers Fredrickson as one person with a count; Down and Enter run that search', async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      await gotoApp(page, searchPath(dc1));
      await waitForResults(page);
      const box = searchBox(page);
      await box.click();
      await page.keyboard.type('fredr');
      const options = await optionsOf(page, 'Suggestions');
      // The list may still show what an earlier letter offered until the last request answers.
      await expect.poll(() => options.count()).toBe(1);
      const text = (await options.first().textContent())!;
      expect(text).toMatch(/^Fredrickson, E.* · Author/);
      await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => page.getByRole('status').filter({ hasText: '1 suggestion' }).count()).toBe(1);
      await expectNoAxeViolations(page, `type-ahead in the box (${label})`);
      await screenshot(page, `type-ahead-box-${label}`);

      await page.keyboard.press('ArrowDown');
      const optionId = await options.first().getAttribute('id');
      await expect.poll(() => box.getAttribute('aria-activedescendant')).toBe(optionId);
      expect(await options.first().getAttribute('aria-selected')).toBe('true');
      await page.keyboard.press('Enter');
      await expect.poll(() => searchParamsOf(page).get('author_name')).toMatch(/^Fredrickson, E/);
      expect(searchParamsOf(page).get('q')).toBeNull();
      expect(await waitForResults(page)).toBe(countOf(text));
    });

    test('the author field offers people as they are grouped; Escape closes, and a chosen one is searched', async () => {
      const { page } = ui;
      await page.setViewportSize(viewport);
      await gotoApp(page, searchPath(dc1, { q: 'plasma' }));
      await waitForResults(page);
      await openAdvanced(page);
      const author = page.getByRole('combobox', { name: 'Author', exact: true });
      await author.click();
      await page.keyboard.type('Diallo, A');
      const options = await optionsOf(page, 'Author suggestions');
      const text = (await options.first().textContent())!;
      expect(text).toMatch(/^Diallo, A/);
      await expectNoAxeViolations(page, `type-ahead in the author field (${label})`);
      await screenshot(page, `type-ahead-author-${label}`);

      await page.keyboard.press('Escape');
      await expect.poll(() => author.getAttribute('aria-expanded')).toBe('false');
      await page.keyboard.press('ArrowDown');
      await expect.poll(() => author.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
      await expect.poll(() => searchParamsOf(page).get('author_name')).toMatch(/^Diallo, A/);
      // The rest of the search stays; the text typed for the author is gone.
      expect(searchParamsOf(page).get('q')).toBe('plasma');
      expect(searchParamsOf(page).get('author')).toBeNull();
      await waitForResults(page);
    });
  });
}

test('the search box offers a journal by its first letters; choosing it lists that journal’s records', async () => {
  const { page } = ui;
  const lit = deploymentByKey('LIT')!;
  await page.setViewportSize(desktop);
  const [withJournal] = (await apiList(lit, { rows: '100' })).records.filter((record) => record.journal_name);
  const journal = String(withJournal!.journal_name);
  await gotoApp(page, searchPath(lit));
  await waitForResults(page);
  await searchBox(page).click();
  await page.keyboard.type(journal.slice(0, 8));
  const options = await optionsOf(page, 'Suggestions');
  const option = options.filter({ hasText: `${journal} · Journal` });
  await expect.poll(() => option.count()).toBe(1);
  const text = (await option.textContent())!;
  await option.click();
  await expect.poll(() => searchParamsOf(page).get('journal')?.toLowerCase()).toBe(journal.toLowerCase());
  expect(await waitForResults(page)).toBe(countOf(text));
});

test('typing while the type-ahead is still loading goes on in it, with its suggestions', async () => {
  const { page } = ui;
  // The combobox's code comes late (a slow network): the first letters go into the plain field.
  await page.route('**/assets/TypeAhead-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  await gotoApp(page, searchPath(dc1));
  await waitForResults(page);
  await searchBox(page).click();
  await page.keyboard.type('fredr', { delay: 120 });
  const options = await optionsOf(page, 'Suggestions');
  await expect.poll(() => options.count()).toBe(1);
  expect(await options.first().textContent()).toMatch(/^Fredrickson, E.* · Author/);
  expect(await searchBox(page).inputValue()).toBe('fredr');
});

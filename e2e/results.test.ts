/**
 * The results list: numbered pages, jump to a page and a page past the last; scroll and focus
 * restored by "Back to results"; select all on a page and the Selected view; matched words,
 * phrases, prefixes and advanced criteria highlighted; the theme switch.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { apiList, findSearchTerm } from './support/api';
import { gotoApp, pageOf, pagination, resultLinks, searchParamsOf, searchPath, waitForPage, waitForResults } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;

/** Takes a screenshot at desktop and at phone width (restoring the desktop size). */
async function screenshots(page: Page, name: string): Promise<void> {
  await screenshot(page, `${name}-desktop`);
  const size = page.viewportSize()!;
  await page.setViewportSize(phone);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(size);
}

describe('paging', () => {
  test('a page past the last says so and links the last page, which the server’s last names', async () => {
    const { page } = ui;
    const { term, total } = await findSearchTerm(lit);
    const lastPage = Math.ceil(total / 20);
    await gotoApp(page, searchPath(lit, { q: term, page: 999 }));
    const nav = pagination(page);
    const notice = nav.getByText(`Page 999 is past the last page (${lastPage}).`);
    await notice.waitFor();
    expect(await nav.textContent()).not.toContain('of 999');
    await expectNoAxeViolations(page, 'a page past the last');
    await screenshots(page, 'results-past-last');

    await nav.getByRole('link', { name: `Go to page ${lastPage}` }).click();
    await page.waitForURL((current) => current.searchParams.get('page') === String(lastPage));
    await waitForPage(page, lastPage);
    expect(await pageOf(page)).toEqual({ page: lastPage, of: lastPage });
    expect(await resultLinks(page).count()).toBe(total - (lastPage - 1) * 20);
  });

  test('numbered pages and jump to a page', async () => {
    const { page } = ui;
    const { term, total } = await findSearchTerm(lit);
    const lastPage = Math.ceil(total / 20);
    await gotoApp(page, searchPath(lit, { q: term }));
    await waitForResults(page);
    const nav = pagination(page);
    expect(await nav.getByRole('link', { name: 'Page 2', exact: true }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: `Page ${lastPage}`, exact: true }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: `Page ${lastPage + 1}`, exact: true }).count()).toBe(0);

    await nav.getByRole('link', { name: 'Page 2', exact: true }).click();
    await waitForPage(page, 2);
    const second = (await apiList(lit, { q: term, page: 2 })).records.map((record) => String(record.repo_id));
    await expect.poll(async () => (await resultLinks(page).first().getAttribute('href'))?.endsWith(`/records/${second[0]}`)).toBe(true);

    const jump = nav.getByLabel('Go to page');
    await jump.fill(String(lastPage));
    await jump.press('Enter');
    await page.waitForURL((current) => current.searchParams.get('page') === String(lastPage));
    await waitForPage(page, lastPage);
    expect(searchParamsOf(page).get('q')).toBe(term);
    // Beyond the last page the field refuses the number and the page stays.
    await jump.fill(String(lastPage + 5));
    await jump.press('Enter');
    expect(await jump.evaluate((input) => (input as HTMLInputElement).validity.rangeOverflow)).toBe(true);
    expect(searchParamsOf(page).get('page')).toBe(String(lastPage));
    await expectNoAxeViolations(page, 'numbered pages on the last page');
    await screenshots(page, 'results-numbered-pages');
  });
});

for (const [label, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  test(`${label}: Back to results shows the record where it was, focus on its link`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);
    const { term } = await findSearchTerm(lit);
    await gotoApp(page, searchPath(lit, { q: term }));
    await waitForResults(page);
    const link = resultLinks(page).nth(14);
    await link.scrollIntoViewIfNeeded();
    const before = await page.evaluate(() => window.scrollY);
    // Scrolled at once, not by a wheel: a wheel's scroll animates, and a position read while it
    // still moved (it can stand still for two frames on a busy machine) was not the one the app
    // kept when the link was followed.
    await page.evaluate(() => window.scrollBy({ top: 200, behavior: 'instant' }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(Math.max(before, 500));
    // What the reader sees: where the record's link is on the screen.
    const linkTop = async () => (await link.boundingBox())!.y;
    const left = await linkTop();
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL((current) => current.pathname.includes('/records/'));
    await page.getByRole('link', { name: 'Back to results' }).click();
    await page.waitForURL((current) => current.searchParams.get('q') === term);
    await waitForResults(page);
    await expect.poll(async () => Math.abs((await linkTop()) - left)).toBeLessThanOrEqual(5);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(href);
    expect(Math.abs((await linkTop()) - left)).toBeLessThanOrEqual(5);
    // A part above the link laid out late, in a browser that does not anchor scrolling (Safari):
    // the link stays where the reader left it.
    await page.evaluate(() => {
      for (const element of [document.documentElement, document.body]) element.style.overflowAnchor = 'none';
      const late = document.createElement('div');
      late.style.height = '300px';
      document.querySelector('article')!.before(late);
    });
    await expect.poll(async () => Math.abs((await linkTop()) - left)).toBeLessThanOrEqual(5);
  });
}

test('select all on this page, the Selected view and removing from it', async () => {
  const { page } = ui;
  const { term } = await findSearchTerm(lit);
  await gotoApp(page, searchPath(lit, { q: term, rows: 5 }));
  await waitForResults(page);
  const all = page.getByRole('checkbox', { name: 'Select all on this page' });
  const boxes = page.locator('article').getByRole('checkbox');
  expect(await boxes.count()).toBe(5);

  // One ticked: the page is partly selected.
  await boxes.first().check();
  await expect.poll(() => all.evaluate((input) => (input as HTMLInputElement).indeterminate)).toBe(true);
  expect(await all.isChecked()).toBe(false);
  await all.check();
  await expect.poll(async () => (await Promise.all((await boxes.all()).map((box) => box.isChecked()))).every(Boolean)).toBe(true);
  expect(await all.evaluate((input) => (input as HTMLInputElement).indeterminate)).toBe(false);

  const open = page.getByRole('button', { name: /^Selected \(5\b/ });
  await open.click();
  expect(await open.getAttribute('aria-expanded')).toBe('true');
  const list = page.getByRole('region', { name: 'Selected records' });
  const titles = (await resultLinks(page).allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
  const listed = (await list.getByRole('link').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
  expect(listed).toEqual(titles);
  await expectNoAxeViolations(page, 'the Selected view');
  await screenshots(page, 'results-selected-view');

  // Remove the second: it leaves the list, its checkbox unticks, focus stays in the list.
  await list.getByRole('button', { name: `Remove ${titles[1]}` }).click();
  await expect.poll(() => page.getByRole('button', { name: /^Selected \(4\b/ }).count()).toBe(1);
  expect(await boxes.nth(1).isChecked()).toBe(false);
  await expect.poll(() => all.evaluate((input) => (input as HTMLInputElement).indeterminate)).toBe(true);
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(`Remove ${titles[2]}`);
  // From the mixed state a click selects the whole page again, the next one none of it.
  await all.check();
  await expect.poll(() => page.getByRole('button', { name: /^Selected \(5\b/ }).count()).toBe(1);
  await all.uncheck();
  await expect.poll(() => page.getByRole('button', { name: /^Selected \(/ }).count()).toBe(0);
});

describe('highlighting', () => {
  async function marksIn(page: Page): Promise<string[]> {
    return page.locator('article mark').allTextContents();
  }

  test('a word, in its other forms too', async () => {
    const { page } = ui;
    const { term } = await findSearchTerm(lit);
    await gotoApp(page, searchPath(lit, { q: term }));
    await waitForResults(page);
    await expect.poll(async () => (await page.locator('.result__title mark').count()) > 0).toBe(true);
    for (const text of await marksIn(page)) expect(text.toLowerCase()).toContain(term.slice(0, 4));
    await expectNoAxeViolations(page, 'highlighted results');
    await screenshots(page, 'results-highlight-word');
  });

  test('a phrase, as one mark', async () => {
    const { page } = ui;
    const { term } = await findSearchTerm(lit);
    const { records } = await apiList(lit, { q: term, rows: 20 });
    const phrase = records
      .map((record) => /\b(\p{L}{4,}) (\p{L}{4,})\b/u.exec(String(record.title ?? ''))?.[0])
      .find((found): found is string => Boolean(found))!;
    await gotoApp(page, searchPath(lit, { q: `"${phrase}"` }));
    await waitForResults(page);
    await expect.poll(async () => (await marksIn(page)).some((text) => text.toLowerCase() === phrase.toLowerCase())).toBe(true);
  });

  test('a prefix', async () => {
    const { page } = ui;
    const { term } = await findSearchTerm(lit);
    const prefix = term.slice(0, 4);
    await gotoApp(page, searchPath(lit, { title: `${prefix}*` }));
    await waitForResults(page);
    await expect.poll(async () => (await page.locator('.result__title mark').count()) > 0).toBe(true);
    for (const text of await page.locator('.result__title mark').allTextContents())
      expect(text.toLowerCase().startsWith(prefix)).toBe(true);
  });

  test('an advanced criterion marks the field it searches: author= in the author line', async () => {
    const { page } = ui;
    const { term } = await findSearchTerm(lit);
    const { records } = await apiList(lit, { q: term, rows: 20 });
    const surname = records
      .flatMap((record) => (Array.isArray(record.authors) ? record.authors : []))
      .map((author) => /^\s*(\p{L}{4,}),/u.exec(String(author))?.[1])
      .find((found): found is string => Boolean(found))!;
    await gotoApp(page, searchPath(lit, { q: term, author: surname }));
    await waitForResults(page);
    const authorMarks = page.locator('.result__authors mark');
    await expect
      .poll(async () => (await authorMarks.allTextContents()).some((text) => text.toLowerCase() === surname.toLowerCase()))
      .toBe(true);
    // The author's name is no title word, so the title marks only the q word.
    for (const text of await page.locator('.result__title mark').allTextContents())
      expect(text.toLowerCase()).not.toBe(surname.toLowerCase());
    await screenshots(page, 'results-highlight-author');
  });

  test('the snippet shows the passage that matched, not always the start', async () => {
    const { page } = ui;
    // A word from deep inside a long description.
    const { records } = await apiList(lit, { rows: 200 });
    const firstAfter = (text: string) =>
      (text.slice(600).match(/\b\p{L}{9,}\b/gu) ?? []).filter((word) => text.toLowerCase().indexOf(word.slice(0, 6).toLowerCase()) > 600);
    const found = records
      .map((record) => ({ record, words: firstAfter(String(record.description ?? '')) }))
      .find(({ words }) => words.length > 0)!;
    const word = found.words[0]!;
    await gotoApp(page, searchPath(lit, { q: word, repo_id: found.record.repo_id }));
    await waitForResults(page);
    const snippet = page.locator('.result__description');
    await expect.poll(() => snippet.locator('mark').count()).toBeGreaterThan(0);
    expect((await snippet.textContent())!.startsWith('…')).toBe(true);
  });
});

test('the theme switch applies and survives a reload', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(lit));
  const select = page.getByLabel('Theme');
  expect(await select.inputValue()).toBe('system');
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await background()).toBe('rgb(255, 255, 255)');
  await select.selectOption('dark');
  await expect.poll(background).toBe('rgb(18, 20, 23)');
  await page.reload();
  await page.getByLabel('Theme').waitFor();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
  expect(await page.getByLabel('Theme').inputValue()).toBe('dark');
  expect(await background()).toBe('rgb(18, 20, 23)');
  await expectNoAxeViolations(page, 'the dark theme chosen');
  await screenshots(page, 'theme-dark-chosen');
  // Back to the system's (light, in this browser).
  await page.getByLabel('Theme').selectOption('system');
  await expect.poll(background).toBe('rgb(255, 255, 255)');
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
});

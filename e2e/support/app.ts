/** The app's UI contract, as locators and small actions shared by the specs. */
import type { Locator, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import { deploymentBySlug } from '../../src/deployments/registry';
import type { Deployment } from '../../src/deployments/schema';
import { url } from './browser';

/** The count announced: results, or records where a grouped page counts works beside them ("436 records · 431 works"). */
export const countPattern = /(\d[\d,]*) (?:results?|records?)\b|No results/;

/** The live region announcing the number of results. */
export function resultCount(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: countPattern }).first();
}

export function pagination(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Pagination' }).first();
}

/** Title links of the results, in order. */
export function resultLinks(page: Page): Locator {
  return page.locator('article').getByRole('heading').getByRole('link');
}

export async function resultTitles(page: Page): Promise<string[]> {
  return (await resultLinks(page).allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
}

/** X-Total-Count the API gives for the search the page's URL describes (its criteria are API parameters). */
async function expectedTotal(page: Page): Promise<number | undefined> {
  const current = new URL(page.url());
  const deployment = deploymentBySlug(current.pathname.split('/')[1] ?? '');
  if (!deployment) return undefined;
  const response = await fetch(url(`${deployment.basePath}/records${current.search}`), { headers: { accept: 'application/json' } });
  const total = Number(response.headers.get('x-total-count'));
  return response.ok && Number.isFinite(total) ? total : undefined;
}

async function shownCount(page: Page): Promise<number | 'busy' | 'no count'> {
  if ((await page.locator('[aria-busy="true"]').count()) > 0) return 'busy';
  const status = resultCount(page);
  if ((await status.count()) === 0 || !(await status.isVisible())) return 'no count';
  const match = countPattern.exec((await status.textContent()) ?? '');
  return match?.[1] ? Number(match[1].replace(/,/g, '')) : 0;
}

/**
 * Waits until the results of the search in the page's URL are shown (not the previous
 * ones the app keeps on screen while loading) and returns the announced count, which must
 * be the API's X-Total-Count for the same criteria.
 */
export async function waitForResults(page: Page): Promise<number> {
  const expected = await expectedTotal(page);
  let count: number | 'busy' | 'no count' = 'no count';
  await expect
    .poll(
      async () => {
        count = await shownCount(page);
        return expected === undefined ? typeof count === 'number' : count === expected;
      },
      { timeout: 15_000, interval: 100, message: `results of ${page.url()} (expected ${expected ?? 'a count'})` },
    )
    .toBe(true);
  if (typeof count === 'number' && count > 0) await resultLinks(page).first().waitFor({ state: 'visible' });
  return count as unknown as number;
}

/** "Page N of M" of the pagination navigation. */
export async function pageOf(page: Page): Promise<{ page: number; of: number }> {
  // innerText, not textContent: the status line and the page numbers are apart.
  const text = await pagination(page).innerText();
  const match = /Page\s+([\d,]+)\s+of\s+([\d,]+)/.exec(text);
  if (!match) throw new Error(`no "Page N of M" in the pagination: ${JSON.stringify(text)}`);
  return { page: Number(match[1]!.replace(/,/g, '')), of: Number(match[2]!.replace(/,/g, '')) };
}

/** Waits for the pagination to say "Page n of …". */
export async function waitForPage(page: Page, n: number): Promise<void> {
  await expect.poll(async () => (await pageOf(page).catch(() => undefined))?.page, { timeout: 15_000 }).toBe(n);
}

export function searchParamsOf(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

export async function gotoApp(page: Page, path: string): Promise<Response | null> {
  return page.goto(url(path), { waitUntil: 'domcontentloaded' });
}

/** The app's search route with criteria in the query string. */
export function searchPath(deployment: Deployment, params: Record<string, string | number> = {}): string {
  const query = new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)]));
  const text = query.toString();
  return `/${deployment.slug}${text ? `?${text}` : ''}`;
}

/**
 * A catalog's search box: a combobox where the server offers type-ahead (the local server),
 * a plain search box where it does not.
 */
export function searchBox(within: Page | Locator): Locator {
  return within.getByRole('combobox', { name: 'Search', exact: true }).or(within.getByRole('searchbox', { name: 'Search', exact: true }));
}

/** Types a query in the main box and submits it with the Search button. */
export async function search(page: Page, term: string): Promise<number> {
  await searchBox(page).fill(term);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.waitForURL((current) => current.searchParams.get('q') === term);
  return waitForResults(page);
}

/** Opens the advanced panel if it is closed. */
export async function openAdvanced(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Advanced search' });
  // Type-ahead values listed under the box cover the button, and may open (their answer
  // arriving) between closing them and the click: close and click until the panel is open.
  const listing = page.locator('[role="combobox"][aria-expanded="true"]');
  await expect
    .poll(
      async () => {
        if ((await toggle.getAttribute('aria-expanded')) === 'true') return true;
        if ((await listing.count()) > 0) await listing.first().press('Escape');
        await toggle.click({ timeout: 2_000 }).catch(() => undefined);
        return (await toggle.getAttribute('aria-expanded')) === 'true';
      },
      { timeout: 30_000 },
    )
    .toBe(true);
}

/** Sets a form control by its label, whatever kind of control it is. */
export async function setControl(page: Page, label: string, value: string): Promise<void> {
  const control = page.getByLabel(label, { exact: true });
  const tag = await control.evaluate((element) => element.tagName.toLowerCase());
  if (tag === 'select') await control.selectOption(value);
  else await control.fill(value);
}

/** The record page's authors under its title (the first ones of a long list, until it is unfolded). */
export function recordAuthors(page: Page): Locator {
  return page.getByRole('list', { name: 'Authors', exact: true });
}

/** The text of the record page's abstract, under the heading its field's label gives it ("Description"). */
export function recordAbstract(page: Page): Locator {
  return page.getByRole('region', { name: 'Description', exact: true }).locator('.record__abstract-text');
}

/** Values of the <dt>/<dd> pairs of the record page. */
export async function definitionList(page: Page): Promise<Map<string, string>> {
  const pairs = await page.locator('dl').evaluateAll((lists) =>
    lists.flatMap((list) =>
      [...list.querySelectorAll('dt')].map((term) => {
        const values: string[] = [];
        for (let next = term.nextElementSibling; next && next.tagName === 'DD'; next = next.nextElementSibling) {
          values.push((next as HTMLElement).innerText);
        }
        return [term.innerText.trim(), values.join('\n').trim()] as const;
      }),
    ),
  );
  return new Map(pairs);
}

/** Accessible name of the link action of each link rel on the record page. */
export const linkActionNames = { citation: 'Citation page', fulltext: 'Full text', media: 'Media file' } as const;

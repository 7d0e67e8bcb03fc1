/**
 * Accessibility and looks: axe-core on the search and record pages of every deployment
 * in the light and the dark theme, full-page screenshots at desktop and phone sizes, and
 * the keyboard path through the skip link.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deployments, deploymentBySlug } from '../src/deployments/registry';
import { findSearchTerm } from './support/api';
import { gotoApp, resultLinks, searchPath, waitForResults } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { axeViolations, formatViolations, screenshot } from './support/checks';

const ui = useBrowser();
const themes = ['light', 'dark'] as const;

/**
 * Waits until the page is drawn at `width` in `theme`: the window has the width, the colour
 * scheme matches, and a frame has been rendered since (React's answer to a resize included).
 */
async function drawn(page: Page, width: number, theme: (typeof themes)[number]): Promise<void> {
  await page.waitForFunction(
    ([expectedWidth, dark]) => window.innerWidth === expectedWidth && window.matchMedia('(prefers-color-scheme: dark)').matches === dark,
    [width, theme === 'dark'] as const,
  );
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * Checks the page as it is now in both themes: axe at desktop size, then screenshots at
 * desktop and phone sizes. Returns the axe reports of the themes that had violations.
 */
async function checkPage(page: Page, name: string): Promise<string[]> {
  const failures: string[] = [];
  for (const theme of themes) {
    await page.setViewportSize(desktop);
    await page.emulateMedia({ colorScheme: theme });
    await drawn(page, desktop.width, theme);
    const violations = await axeViolations(page);
    if (violations.length > 0) failures.push(formatViolations(`${name} (${theme})`, violations));
    await screenshot(page, `${name}-${theme}-desktop`);
    await page.setViewportSize(phone);
    await drawn(page, phone.width, theme);
    await screenshot(page, `${name}-${theme}-phone`);
  }
  await page.setViewportSize(desktop);
  await page.emulateMedia({ colorScheme: 'light' });
  return failures;
}

describe.each(deployments.map((deployment) => [deployment.key, deployment] as const))('%s', (_key, deployment) => {
  test('search and record pages: no axe violations in either theme; screenshots', async () => {
    const { page } = ui;
    const { term } = await findSearchTerm(deployment);
    // Ten results keep axe and the full-page screenshots quick while showing a real page.
    await gotoApp(page, searchPath(deployment, { q: term, rows: 10 }));
    await waitForResults(page);
    const failures = await checkPage(page, `${deployment.slug}-search`);

    await resultLinks(page).first().click();
    await page.waitForURL((current) => current.pathname.startsWith(`/${deployment.slug}/records/`));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.locator('dl').first().waitFor();
    failures.push(...(await checkPage(page, `${deployment.slug}-record`)));

    if (failures.length > 0) throw new Error(failures.join('\n\n'));
  });
});

describe('other pages', () => {
  test('advanced panel, empty results, not found: no axe violations; screenshots', async () => {
    const { page } = ui;
    const lit = deploymentBySlug('lit')!;
    const failures: string[] = [];

    await gotoApp(page, searchPath(lit, { q: 'zzzzqqqq' }));
    expect(await waitForResults(page)).toBe(0);
    failures.push(...(await checkPage(page, 'lit-no-results')));

    await page.getByRole('button', { name: 'Advanced search' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Advanced search' }).getAttribute('aria-expanded')).toBe('true');
    failures.push(...(await checkPage(page, 'lit-advanced')));

    await gotoApp(page, '/lit/records/no-such-record-000');
    await page.getByRole('heading', { name: 'Record not found' }).waitFor();
    failures.push(...(await checkPage(page, 'lit-record-not-found')));

    // A DC1 id opened in the literature catalog: the page says where the record is.
    const dc1 = deploymentBySlug('dc')!;
    await gotoApp(page, '/lit/records/1562055');
    await page.getByRole('heading', { name: 'Record not found' }).waitFor();
    const elsewhere = page.getByRole('status').getByRole('link', { name: /Suppression of Alfv/ });
    await elsewhere.waitFor();
    failures.push(...(await checkPage(page, 'lit-record-elsewhere')));
    await elsewhere.click();
    await page.getByRole('heading', { name: /Suppression of Alfv/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/${dc1.slug}/records/1562055`);

    if (failures.length > 0) throw new Error(failures.join('\n\n'));
  });
});

describe('the accessibility check itself', () => {
  test('reports what axe finds on a page: an unnamed button, an image without a text alternative, text too faint to read', async () => {
    const { page } = ui;
    await page.setContent(
      '<!doctype html><html lang="en"><head><title>Faults</title></head><body><main><h1>Faults</h1>' +
        '<img src="data:,"><button></button><p style="color:#bbb;background:#fff">faint</p></main></body></html>',
    );
    const found = (await axeViolations(page)).map((violation) => violation.id).sort();
    expect(found).toEqual(['button-name', 'color-contrast', 'image-alt']);
  });
});

describe('keyboard', () => {
  test('Tab from the top reaches the skip link first; Enter moves focus to the results', async () => {
    const { page } = ui;
    const lit = deploymentBySlug('lit')!;
    const { term } = await findSearchTerm(lit);
    await gotoApp(page, searchPath(lit, { q: term }));
    await waitForResults(page);

    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return { tag: element?.tagName, text: element?.textContent?.trim(), href: element?.getAttribute('href') };
    });
    expect(focused).toMatchObject({ tag: 'A', text: 'Skip to results' });
    // Visible when focused, so sighted keyboard users see where they are.
    expect(await page.getByRole('link', { name: 'Skip to results' }).isVisible()).toBe(true);
    await screenshot(page, 'lit-skip-link-focused');

    await page.keyboard.press('Enter');
    const target = focused.href?.startsWith('#') ? focused.href.slice(1) : undefined;
    expect(target, 'skip link points to an element id').toBeTruthy();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(target);
    // The focused target holds the results or comes right before them.
    const placement = await page.evaluate(() => {
      const active = document.activeElement!;
      const article = document.querySelector('article');
      if (!article) return 'no results';
      if (active.contains(article)) return 'contains';
      return active.compareDocumentPosition(article) & Node.DOCUMENT_POSITION_FOLLOWING ? 'before' : 'after';
    });
    expect(['contains', 'before']).toContain(placement);

    // The next Tab stop is in the main content, not back in the header or the form.
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => {
      const element = document.activeElement!;
      const article = document.querySelector('article')!;
      return {
        inMain: !!element.closest('main'),
        beforeResults: !article.contains(element) && !!(element.compareDocumentPosition(article) & Node.DOCUMENT_POSITION_FOLLOWING),
        tag: element.tagName,
        text: element.textContent?.trim().slice(0, 60),
      };
    });
    expect(next.inMain, `Tab after the skip stays in <main>: ${JSON.stringify(next)}`).toBe(true);
  });
});

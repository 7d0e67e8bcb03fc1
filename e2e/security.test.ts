/**
 * Issue 6, in the browser: record text holding markup or script is shown as the text it
 * is, and a link target that is not http(s) never becomes a link. The hostile records are
 * seeded by the global setup (setup/hostile-records.ts). Every page here also runs under
 * the server's Content-Security-Policy without a single violation.
 */
import type { Page, Response } from 'playwright-core';
import { beforeEach, describe, expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { hostileIds, hostileTitleText, richHostileTitle } from './setup/hostile-records';
import { apiRecord } from './support/api';
import { gotoApp, recordAbstract, recordAuthors, resultLinks, searchPath, waitForResults } from './support/app';
import { useBrowser } from './support/browser';
import { screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;

const squeeze = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** CSP violations the page itself saw (the fixture also fails a test on CSP console errors). */
beforeEach(async () => {
  await ui.context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sample})`);
    });
  });
});

/** What script in the record could have done, had it run or become markup. */
async function expectNothingRan(page: Page): Promise<void> {
  const state = await page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    violations: (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? ['no listener'],
    // Elements the record's text would have created, had it been parsed as HTML: the text
    // model keeps only allow-listed tags (em, sub, …), never with an attribute of the record's.
    injected: document.querySelectorAll(
      'img[src="x"], #root script, #root [onclick], #root [onmouseover], #root [style], a[href^="javascript:" i], a[href^="data:" i]',
    ).length,
    inlineScripts: [...document.scripts].filter((script) => !script.src).length,
  }));
  expect(state).toEqual({ pwned: undefined, violations: [], injected: 0, inlineScripts: 0 });
}

describe('served HTML', () => {
  test('a strict Content-Security-Policy, nosniff and a Referrer-Policy on the app page', async () => {
    const { page } = ui;
    const response = (await gotoApp(page, `/lit/records/${hostileIds.markup}`)) as Response;
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers['content-type']).toMatch(/^text\/html/);
    const csp = headers['content-security-policy'];
    expect(csp, 'Content-Security-Policy header').toBeTruthy();
    const directives = new Map(
      csp!
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((words) => words[0])
        .map(([name, ...sources]) => [name!.toLowerCase(), sources] as const),
    );
    const scriptSrc = directives.get('script-src') ?? directives.get('default-src');
    expect(scriptSrc, 'script-src (or default-src)').toBeDefined();
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(scriptSrc).not.toContain('*');
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBeTruthy();

    // The app itself runs under that policy without tripping it.
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Hostile title' }).waitFor();
    await expectNothingRan(page);
  });
});

describe('record text is text', () => {
  test('a record page keeps script and unknown markup as text, and emphasis as emphasis', async () => {
    const { page } = ui;
    const record = await apiRecord(lit, hostileIds.markup);
    expect(record.title).toBe(hostileTitleText);
    await gotoApp(page, `/lit/records/${hostileIds.markup}`);

    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(async () => squeeze(await heading.textContent())).toBe(squeeze(hostileTitleText));
    // The tab title is the record title too, as text.
    await expect.poll(() => page.title()).toContain('<script>window.__pwned=1</script> Hostile title');

    const authors = recordAuthors(page);
    // The person's name and affiliation as a reader sees them: markup read, the script link gone.
    expect(squeeze(await authors.textContent())).toContain('Bold, Eve');
    expect(squeeze(await authors.textContent())).toContain('Org');
    // Its only links are the app's own searches for the person, never the record's script link.
    const hrefs = await authors.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) expect(href).toMatch(/^\/lit\?author=/);
    const description = recordAbstract(page);
    // Emphasis is emphasis; the script is text, shown as typed.
    expect(squeeze(await description.textContent())).toBe('Plain emphasis and <script>window.__pwned=1</script> must show as typed.');
    expect(await description.locator('em').textContent()).toBe('emphasis');

    await expectNothingRan(page);
    await screenshot(page, 'lit-hostile-record');
  });

  test('search results show the same record as text', async () => {
    const { page } = ui;
    await gotoApp(page, searchPath(lit, { title: 'Hostile' }));
    expect(await waitForResults(page)).toBeGreaterThanOrEqual(1);
    const result = page.locator('article').filter({ has: page.getByRole('link', { name: 'Hostile title' }) });
    await result.waitFor();
    expect(squeeze(await resultLinks(page).first().textContent())).toBe(squeeze(hostileTitleText));
    expect(squeeze(await result.locator('.result__authors').textContent())).toBe('Bold, Eve');
    expect(squeeze(await result.locator('.result__description').textContent())).toContain(
      'emphasis and <script>window.__pwned=1</script> must show as typed.',
    );
    // The selection checkbox is named by the title, which stays text as well.
    expect(await page.getByRole('checkbox', { name: `Select ${squeeze(hostileTitleText)}` }).count()).toBe(1);
    await expectNothingRan(page);
    await screenshot(page, 'lit-hostile-results');
  });
});

describe('allow-listed markup keeps its structure and loses everything else', () => {
  test('handlers, styles and script links inside kept tags, nested and unclosed tags', async () => {
    const { page } = ui;
    await gotoApp(page, `/lit/records/${hostileIds.richMarkup}`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(async () => squeeze(await heading.textContent())).toBe('CO2 trap nested unclosed sup');
    await expect.poll(() => page.title()).toContain('CO₂ trap nested unclosed sup');
    expect(await heading.locator('sub').textContent()).toBe('2');
    expect(await heading.locator('sup').textContent()).toBe('sup');
    expect(await heading.locator('b > i').textContent()).toBe('nested');
    // Every element the record's text made carries no attribute but a web link's href.
    const attributes = await page.evaluate(() =>
      [
        ...document.querySelectorAll(
          '.record__title *, .record__authors li *, .record__publication *, .record__abstract-text *, dl.record-fields dd *',
        ),
      ]
        .flatMap((element) =>
          [...element.attributes].map((attribute) => `${element.tagName.toLowerCase()}[${attribute.name}=${attribute.value}]`),
        )
        .filter(
          (entry) =>
            !/^a\[(href=https:\/\/example\.org\/ok|rel=noopener noreferrer)\]$/.test(entry) &&
            !/^(time|a)\[/.test(entry) &&
            !/class=/.test(entry),
        ),
    );
    expect(attributes).toEqual([]);
    const description = recordAbstract(page);
    expect(await description.locator('ul > li').allTextContents()).toEqual(['one', 'two']);
    expect(await description.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
      'https://example.org/ok',
    ]);
    expect(squeeze(await description.textContent())).toContain('still text');
    await page.getByRole('heading', { level: 1 }).locator('sub').hover();
    await expectNothingRan(page);
    await screenshot(page, 'lit-hostile-rich-markup');
    expect(richHostileTitle).toContain('onmouseover');
  });
});

describe('only http(s) targets become links', () => {
  test('javascript: and data: citation and full-text targets are shown, not linked', async () => {
    const { page } = ui;
    const record = await apiRecord(lit, hostileIds.scriptLinks);
    const targets = (record.links as { rel: string; href: string }[]).map((link) => link.href);
    expect(targets.some((href) => href.startsWith('javascript:'))).toBe(true);
    expect(targets.some((href) => href.startsWith('data:'))).toBe(true);

    await gotoApp(page, `/lit/records/${hostileIds.scriptLinks}`);
    await page.getByRole('heading', { level: 1, name: String(record.title) }).waitFor();
    const actions = page.getByRole('list', { name: 'Links' });
    await actions.waitFor();

    // The actions are named, but neither is a link.
    expect(await page.getByRole('link', { name: 'Citation page' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Full text' }).count()).toBe(0);
    expect(squeeze(await actions.textContent())).toContain('Citation page');
    expect(squeeze(await actions.textContent())).toContain('Full text');
    // Each raw target is there to read, as text.
    for (const href of targets) {
      await expect.poll(async () => (await actions.locator('code').allTextContents()).includes(href), { message: href }).toBe(true);
    }
    // No element of the page's body points at a script or data URL (the head's icon is `data:,`).
    const hrefs = await page.evaluate(() =>
      [...document.body.querySelectorAll('[href], [src], [action], [formaction]')].map(
        (element) =>
          element.getAttribute('href') ??
          element.getAttribute('src') ??
          element.getAttribute('action') ??
          element.getAttribute('formaction') ??
          '',
      ),
    );
    expect(hrefs.filter((href) => /^\s*(javascript|data|vbscript):/i.test(href))).toEqual([]);

    // Clicking the named action does nothing it could not do as text.
    await actions.getByText('Full text').click();
    await expectNothingRan(page);
    expect(new URL(page.url()).pathname).toBe(`/lit/records/${hostileIds.scriptLinks}`);
    await screenshot(page, 'lit-hostile-links');
  });
});

/**
 * Issue 26, any CSL style: the Cite dialog finds a style of the official CSL repository by
 * name or field, loads only that style's file when it is chosen, cites in it, and offers it
 * again under "Recent styles", at desktop and phone width, with axe.
 */
import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { gotoApp } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;

/** What the app fetched of the shipped CSL files (the index, style files, locales). */
function cslRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/^\/csl(-styles|-locales)?\//.test(path)) seen.push(path);
  });
  return seen;
}

async function openCite(page: Page) {
  await page.getByRole('button', { name: 'Cite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Cite' });
  await dialog.waitFor();
  // The dialog shown while its code loads has no style choice yet.
  await dialog.getByLabel('Citation style').waitFor();
  return dialog;
}

/** The finder's count of matches, announced as it changes. */
const finderStatus = (dialog: Locator) => dialog.locator('.cite-style-finder__status[aria-live="polite"]').textContent();

const citationText = async (page: Page) =>
  (
    (await page
      .getByRole('region', { name: 'Citations' })
      .innerText()
      .catch(() => '')) ?? ''
  )
    .replace(/\s+/g, ' ')
    .trim();

const prl =
  '[1] E. D. Fredrickson et al., Suppression of Alfvén Modes on NSTX-U with Outboard Beam Injection, Princeton Plasma Physics Lab. (PPPL) (2017), https://doi.org/10.11578/1562055.';

for (const [width, viewport] of [
  ['desktop', desktop],
  ['phone', phone],
] as const) {
  test(`DC1 1562055 (${width}): its related article, then "physical review" found, chosen, cited, and offered again under Recent styles`, async () => {
    const { page } = ui;
    await page.setViewportSize(viewport);
    const requests = cslRequests(page);
    await gotoApp(page, `/${dc1.slug}/records/1562055`);
    // The related article the record is referenced by.
    const article = page.getByRole('region', { name: 'Related works' }).getByRole('link', { name: 'DOI 10.1103/PhysRevLett.118.265001' });
    expect(await article.getAttribute('href')).toBe('https://doi.org/10.1103/PhysRevLett.118.265001');

    const dialog = await openCite(page);
    await expect.poll(() => citationText(page), { message: 'the APA citation' }).toMatch(/^Fredrickson, E\. D\./);
    // Nothing of the CSL repository was fetched before anyone looked for a style.
    expect(requests).toEqual([]);

    const find = dialog.getByRole('searchbox', { name: 'Find another style' });
    await find.fill('physical review');
    const results = dialog.getByRole('list', { name: 'Matching styles' });
    await results.waitFor();
    await expect.poll(() => finderStatus(dialog)).toMatch(/^\d+ styles match/);
    const prlButton = results.getByRole('button', { name: /^Physical Review Letters\b/ });
    expect(await prlButton.textContent()).toContain('physics');
    expect(requests).toEqual(['/csl-styles/index.json']);
    await expectNoAxeViolations(page, `style search results (${width})`);
    await screenshot(page, `cite-style-search-${width}`);

    await prlButton.click();
    await expect.poll(() => citationText(page), { message: 'the Physical Review Letters citation' }).toBe(prl);
    const select = dialog.getByLabel('Citation style');
    expect(await select.inputValue()).toBe('csl:physical-review-letters');
    // Focus is on the style now chosen, and the results are gone.
    expect(await select.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await results.count()).toBe(0);
    // One style file: Physical Review Letters is a dependent style, rendered by the APS's file.
    expect(requests).toEqual(['/csl-styles/index.json', '/csl-styles/american-physics-society.csl']);
    await expectNoAxeViolations(page, `Physical Review Letters citation (${width})`);
    await screenshot(page, `cite-style-physical-review-${width}`);

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.reload();
    const reopened = await openCite(page);
    const recent = reopened.locator('optgroup[label="Recent styles"] option');
    expect(await recent.allTextContents()).toEqual(['Physical Review Letters']);
    expect(await reopened.getByLabel('Citation style').inputValue()).toBe('csl:physical-review-letters');
    await expect.poll(() => citationText(page), { message: 'the remembered style’s citation after a reload' }).toBe(prl);
    await expectNoAxeViolations(page, `recent styles (${width})`);
    await screenshot(page, `cite-style-recent-${width}`);
  });
}

test('by keyboard: a field finds its styles, Enter chooses the first, and a British style cites in its own locale', async () => {
  const { page } = ui;
  const requests = cslRequests(page);
  await gotoApp(page, `/${dc1.slug}/records/1562055`);
  const dialog = await openCite(page);
  const find = dialog.getByRole('searchbox', { name: 'Find another style' });
  await find.focus();
  await page.keyboard.type('nature');
  await dialog
    .getByRole('list', { name: 'Matching styles' })
    .getByRole('button', { name: /^Nature\b/ })
    .first()
    .waitFor();
  await page.keyboard.press('Enter');
  // Nature asks for en-GB, which citation-js does not ship: the shipped locale is fetched.
  await expect
    .poll(() => citationText(page))
    .toBe(
      '1. Fredrickson, E. D. et al. Suppression of Alfvén modes on NSTX-U with outboard beam injection. Princeton Plasma Physics Lab. (PPPL) https://doi.org/10.11578/1562055 (2017).',
    );
  expect(requests).toEqual(['/csl-styles/index.json', '/csl-styles/nature.csl', '/csl-locales/locales-en-GB.xml']);

  // A field: chemistry lists the American Chemical Society's style.
  await find.fill('chemistry');
  await dialog.getByRole('list', { name: 'Matching styles' }).waitFor();
  await expect.poll(() => finderStatus(dialog)).toMatch(/^[\d,]+ styles match; the first 25 are shown\.$/);
  await find.fill('american chemical society');
  await dialog.getByRole('button', { name: /^ACS Guide 2022 revision/ }).click();
  await expect.poll(() => citationText(page)).toMatch(/^\(1\) Fredrickson, E\. D\.; Belova, E\. V\.;/);

  // Escape clears a search first, and only then closes the dialog.
  await find.fill('zzzz qqqq');
  await expect.poll(() => finderStatus(dialog)).toBe('No style matches “zzzz qqqq”.');
  await find.press('Escape');
  expect(await find.inputValue()).toBe('');
  expect(await dialog.isVisible()).toBe(true);
  const recent = await dialog.locator('optgroup[label="Recent styles"] option').allTextContents();
  expect(recent).toEqual(['ACS Guide 2022 revision', 'Nature']);
});

test('DC1 1562055: its related article is cited in Physical Review style from the Related works section', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  await gotoApp(page, `/${dc1.slug}/records/1562055`);
  const related = page.getByRole('region', { name: 'Related works' });
  await related.getByRole('button', { name: 'Cite this work' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cite' });
  await dialog.waitFor();
  await dialog.getByRole('searchbox', { name: 'Find another style' }).fill('physical review');
  await dialog
    .getByRole('list', { name: 'Matching styles' })
    .getByRole('button', { name: /^Physical Review Letters\b/ })
    .click();
  // The article as the upstream's curated relation describes it: its authors (the three the
  // upstream keeps, then "et al."), title, journal, volume and year (the relation gives no
  // article number, and no comma is left waiting for one).
  await expect
    .poll(() => citationText(page), { message: 'the related article in Physical Review Letters' })
    .toBe(
      '[1] E. D. Fredrickson, E. V. Belova, D. J. Battaglia, et al., Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection, Physical Review Letters 118 (2017).',
    );
  await expectNoAxeViolations(page, 'the related article cited');
  await screenshot(page, 'cite-related-article-desktop');
  // As what it is: a journal article with its journal, volume and number, its authors going on.
  await dialog.getByLabel('Citation style').selectOption({ label: 'BibTeX (full)' });
  await expect.poll(() => citationText(page), { message: 'the related article in BibTeX (full)' }).toMatch(/^@article\{/);
  const bibtex = await citationText(page);
  expect(bibtex).toContain('author = {Fredrickson, E. D. and Belova, E. V. and Battaglia, D. J. and others}');
  expect(bibtex).toContain('journal = {Physical Review Letters}, volume = {118}, number = {26}');
  await dialog.getByLabel('Citation style').selectOption({ label: 'APA (7th edition)' });
  await expect
    .poll(() => citationText(page), { message: 'the related article in APA' })
    .toMatch(/^Fredrickson, E\. D\., Belova, E\. V\., Battaglia, D\. J\., et al\. \(2017\)\./);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  // Focus returns to the button that opened the dialog.
  expect(await related.getByRole('button', { name: 'Cite this work' }).evaluate((element) => element === document.activeElement)).toBe(
    true,
  );
});

/** Real upstream records (data/real) read as the upstream meant them: entities, sub/superscripts, lists. */
import { expect, test } from 'vitest';
import { deploymentByKey, deployments } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { apiList } from './support/api';
import { gotoApp, recordAbstract, resultLinks, searchPath, waitForResults } from './support/app';
import type { Locator } from 'playwright-core';
import { phone, url, useBrowser } from './support/browser';
import { readClipboard } from './support/clipboard';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;

const description = recordAbstract;

test('DC1 1562055: an entity in the title reads as the letter, on the page and in the tab', async () => {
  const { page } = ui;
  await gotoApp(page, `/${dc1.slug}/records/1562055`);
  const heading = page.getByRole('heading', { level: 1 });
  await expect.poll(() => heading.textContent()).toBe('Suppression of Alfvén modes on NSTX-U with outboard beam injection');
  // The server sends the heading too: the tab's title is the app's, once it runs.
  await expect.poll(() => page.title()).toMatch(/^Suppression of Alfvén modes/);
  expect(await page.getByText('&eacute;').count()).toBe(0);
  await expectNoAxeViolations(page, 'DC1 1562055');
});

test('DC1 1562038: superscripts are superscripts', async () => {
  const { page } = ui;
  await gotoApp(page, `/${dc1.slug}/records/1562038`);
  const text = description(page);
  await text.waitFor();
  expect(await text.locator('sup').allTextContents()).toEqual(expect.arrayContaining(['13', '-3']));
  expect(await text.textContent()).not.toContain('<sup>');
  await expectNoAxeViolations(page, 'DC1 1562038');
  await screenshot(page, 'real-dc1-1562038');
});

test('LIT 1864845: line breaks and a list, at desktop and phone width', async () => {
  const { page } = ui;
  await gotoApp(page, `/${lit.slug}/records/1864845`);
  const text = description(page);
  await text.waitFor();
  expect(await text.locator('br').count()).toBeGreaterThan(0);
  expect(await text.locator('ul > li').count()).toBeGreaterThan(1);
  expect(await text.textContent()).not.toMatch(/<(br|ul|li)>/);
  await expectNoAxeViolations(page, 'LIT 1864845');
  await screenshot(page, 'real-lit-1864845-desktop');
  await page.setViewportSize(phone);
  await screenshot(page, 'real-lit-1864845-phone');
});

test('search results show real titles without raw markup, and folded searches find them', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(dc1, { title: 'alfven' }));
  expect(await waitForResults(page)).toBeGreaterThan(0);
  const titles = await resultLinks(page).allTextContents();
  expect(titles).toContain('Suppression of Alfvén modes on NSTX-U with outboard beam injection');
  for (const title of titles) expect(title).not.toMatch(/<\/?(sub|sup|i|p|br)>|&[a-z]+;/i);
  await expectNoAxeViolations(page, 'DC1 results for title=alfven');
  // `alfven` and `Alfvén` find the record written `Alfv&eacute;n`; a tag name is no word.
  for (const q of ['alfven', 'Alfvén']) {
    const found = await apiList(dc1, { q, rows: 100 });
    expect(
      found.records.map((record) => record.repo_id),
      q,
    ).toContain('1562055');
  }
  const sup = await apiList(dc1, { q: 'sup', rows: 100 });
  expect(sup.records.map((record) => record.repo_id)).not.toContain('1562038');
});

async function titleWithSubscript(): Promise<{ deployment: Deployment; id: string } | undefined> {
  for (const deployment of deployments) {
    for (const q of ['adsorption', 'nanoparticles']) {
      const found = await apiList(deployment, { q, rows: 100 }).catch(() => undefined);
      const record = found?.records.find((candidate) => /<sub>\d<\/sub>/.test(String(candidate.title)));
      if (record) return { deployment, id: record.repo_id };
    }
  }
  return undefined;
}

const citeDialog = async (page: typeof ui.page) => {
  await ui.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url('/')).origin });
  await page.getByRole('button', { name: 'Cite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Cite' });
  await dialog.waitFor();
  await dialog.getByLabel('Citation style').selectOption({ label: 'APA (7th edition)' });
  return { dialog, citations: dialog.getByRole('region', { name: 'Citations' }) };
};

const copyFrom = async (page: typeof ui.page, dialog: Locator) => {
  await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
  await dialog.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  return readClipboard(page);
};

test('Cite dialog of DC1 1562038 and of a title with a formula: plain text without tags, <sub> elements in the HTML', async () => {
  const { page } = ui;
  await gotoApp(page, `/${dc1.slug}/records/1562038`);
  let { dialog, citations } = await citeDialog(page);
  await expect.poll(() => citations.textContent(), { timeout: 15_000 }).toContain('[Data set]. Princeton Plasma Physics Lab. (PPPL).');
  let clipboard = await copyFrom(page, dialog);
  // APA writes the title in sentence case, its names and the en dash kept.
  expect(clipboard.text).toMatch(
    /^Weller, M\. E\., .* \(2018\)\. Electron-density-sensitive line ratios of Fe XIII–XVI from laboratory sources compared to CHIANTI/,
  );
  expect(clipboard.text).not.toMatch(/<\/?[a-z]+[\s>]|&[a-z]+;|&#/i);
  expect(clipboard.html).toMatch(/<i>Electron-density-sensitive/);
  await expectNoAxeViolations(page, 'Cite dialog of DC1 1562038');
  await screenshot(page, 'cite-dc1-1562038');
  await page.keyboard.press('Escape');

  // No real title has sub- or superscript markup (1562038 has it in its description, which
  // no style cites): some generated ones do ("…: CO<sub>2</sub> & H<sub>2</sub>O co-adsorption").
  const formula = await titleWithSubscript();
  expect(formula, 'a generated record titled with a <sub> formula').toBeDefined();
  await gotoApp(page, `/${formula!.deployment.slug}/records/${formula!.id}`);
  ({ dialog, citations } = await citeDialog(page));
  await expect.poll(() => citations.locator('sub').allTextContents(), { timeout: 15_000 }).toContain('2');
  expect(await citations.textContent()).not.toContain('<sub>');
  clipboard = await copyFrom(page, dialog);
  expect(clipboard.html).toMatch(/[A-Z][a-z]?<sub>\d<\/sub>/);
  expect(clipboard.text).toMatch(/[A-Z][a-z]?[₂-₄]/);
  expect(clipboard.text).not.toMatch(/<\/?[a-z]+[\s>]|&[a-z]+;|&#/i);
  await expectNoAxeViolations(page, 'Cite dialog of a title with a formula');
  await screenshot(page, 'cite-dc1-formula');
  await page.keyboard.press('Escape');
});

test('a generated demo record says so on its page and in the Cite dialog; a real one does not', async () => {
  const { page } = ui;
  await gotoApp(page, `/${lit.slug}/records/50000001`);
  const notice = page.getByText('Generated demo record.');
  await notice.first().waitFor();
  await page.getByRole('button', { name: 'Cite', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Cite' });
  await dialog.waitFor();
  // The dialog shown while its code loads has no style choice yet.
  await dialog.getByLabel('Citation style').waitFor();
  expect(await dialog.getByText('Generated demo record.').count()).toBe(1);
  await expectNoAxeViolations(page, 'Cite dialog of a generated record');
  await screenshot(page, 'generated-record-cite');
  await page.keyboard.press('Escape');

  await gotoApp(page, `/${dc1.slug}/records/1562055`);
  await page.getByRole('heading', { level: 1, name: /Alfvén/ }).waitFor();
  expect(await page.getByText('Generated demo record.').count()).toBe(0);
});

test('record pages carry citation meta tags from the server, and in-app navigation replaces them and tells Zotero', async () => {
  const { page } = ui;
  await ui.context.addInitScript(() => {
    (window as unknown as { __zotero: number }).__zotero = 0;
    document.addEventListener('ZoteroItemUpdated', () => (window as unknown as { __zotero: number }).__zotero++);
  });
  await gotoApp(page, `/${dc1.slug}/records/1562055`);
  await page.getByRole('heading', { level: 1, name: /Alfvén/ }).waitFor();
  const titles = () =>
    page.evaluate(() =>
      [...document.head.querySelectorAll('meta[name="citation_title"]')].map((meta) => (meta as HTMLMetaElement).content),
    );
  expect(await titles()).toEqual(['Suppression of Alfvén modes on NSTX-U with outboard beam injection']);
  expect(await page.evaluate(() => document.head.querySelector('meta[name="DC.type"]')?.getAttribute('content'))).toBe('Dataset');
  expect(await page.evaluate(() => document.head.querySelectorAll('meta[name="citation_journal_title"]').length)).toBe(0);
  await expect.poll(() => page.evaluate(() => (window as unknown as { __zotero: number }).__zotero)).toBeGreaterThan(0);

  // A search page, then another record reached in the app.
  await gotoApp(page, searchPath(lit, { q: 'Amazonian floodplains' }));
  await waitForResults(page);
  expect(await titles()).toEqual([]);
  const before = await page.evaluate(() => (window as unknown as { __zotero: number }).__zotero);
  await resultLinks(page).first().click();
  await page.getByRole('heading', { level: 1, name: /Metagenomes/ }).waitFor();
  await expect.poll(titles).toEqual(['Metagenomes from Eastern Brazilian Amazonian floodplains in the wet and dry seasons']);
  expect(await page.evaluate(() => document.head.querySelectorAll('meta[name="citation_author"]').length)).toBe(8);
  expect(await page.evaluate(() => (window as unknown as { __zotero: number }).__zotero)).toBeGreaterThan(before);
});

test('every result carries COinS that a reference manager reads as an OpenURL', async () => {
  const { page } = ui;
  await gotoApp(page, searchPath(dc1, { title: 'alfven' }));
  const shown = await waitForResults(page);
  const spans = await page.locator('span.Z3988').evaluateAll((elements) => elements.map((element) => element.getAttribute('title') ?? ''));
  expect(spans.length).toBe(Math.min(shown, 20));
  const objects = spans.map((span) => new URLSearchParams(span));
  for (const kev of objects) expect(kev.get('ctx_ver')).toBe('Z39.88-2004');
  const record = objects.find((kev) => kev.get('rft.title') === 'Suppression of Alfvén modes on NSTX-U with outboard beam injection');
  expect(record?.get('rft.type')).toBe('Dataset');
  await expectNoAxeViolations(page, 'results with COinS');
});

/**
 * The record page leads with what a reader needs (title, authors, the publication line, the
 * abstract, the links, Cite and Export) and lists identifiers and codes after, in every
 * deployment; a long author list is folded behind a disclosure button.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey, deployments } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { apiList } from './support/api';
import { gotoApp, recordAuthors } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;

/** The labels a reader knows as identifiers and codes, which come after every other field. */
const identifierLabels = new Set([
  'Record ID',
  'Contract number(s)',
  'Report number(s)',
  'Product number',
  'NSA number',
  'Other identifying numbers',
  'Site code',
  'Submitting site',
]);

const detailLabels = (page: Page) => page.getByRole('region', { name: 'Details' }).locator('dt').allTextContents();

/** Where each of the page's parts is in document order (waiting for each to be there). */
async function partsInOrder(page: Page): Promise<number[]> {
  const parts = [
    page.getByRole('heading', { level: 1 }),
    recordAuthors(page),
    page.locator('.record__publication'),
    page.getByRole('region', { name: 'Description', exact: true }),
    page.getByRole('list', { name: 'Links' }),
    page.getByRole('button', { name: 'Cite', exact: true }),
    page.getByRole('region', { name: 'Details' }),
  ];
  const positions: number[] = [];
  for (const part of parts) positions.push(await part.evaluate((element) => [...document.querySelectorAll('*')].indexOf(element)));
  return positions;
}

async function openRecord(page: Page, deployment: Deployment, id: string): Promise<void> {
  await gotoApp(page, `/${deployment.slug}/records/${encodeURIComponent(id)}`);
  await page.getByRole('region', { name: 'Details' }).waitFor();
}

test('DC1 1562055: title, authors, publication line, abstract, links and tools first; identifiers and codes last', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  await openRecord(page, dc1, '1562055');
  const order = await partsInOrder(page);
  expect(order.every((position, index) => position > (order[index - 1] ?? -1))).toBe(true);
  // Eleven authors are all shown: folding would hide one name behind a button.
  expect(await recordAuthors(page).getByRole('listitem').count()).toBe(11);
  expect(await page.getByRole('button', { name: /more authors/ }).count()).toBe(0);
  // The dataset's year and the laboratory that issued it, as its citation names it.
  expect(await page.locator('.record__publication').textContent()).toBe('2017, Princeton Plasma Physics Lab. (PPPL)');
  expect(await page.getByRole('link', { name: 'DOI 10.11578/1562055' }).getAttribute('href')).toBe('https://doi.org/10.11578/1562055');
  expect(await detailLabels(page)).toEqual([
    'Subjects',
    'Country of publication',
    'Publication date',
    'Entry date',
    'Language',
    'Research organisations',
    'Sponsoring organisations',
    'Product type',
    'Site',
    'Record ID',
    'Contract number(s)',
    'Site code',
  ]);
  await expectNoAxeViolations(page, 'DC1 1562055 record page, desktop');
  await screenshot(page, 'record-page-dc1-1562055-desktop');
  await page.setViewportSize(phone);
  await expectNoAxeViolations(page, 'DC1 1562055 record page, phone');
  await screenshot(page, 'record-page-dc1-1562055-phone');
});

test('every deployment leads with the same parts and lists identifiers and codes after the other fields', async () => {
  const { page } = ui;
  for (const deployment of deployments) {
    const { records } = await apiList(deployment, { rows: 100 });
    const record = records.find(
      (candidate) => Array.isArray(candidate.authors) && candidate.authors.length > 1 && candidate.description && candidate.doi,
    );
    expect(record, `a ${deployment.key} record with authors and a description`).toBeDefined();
    await openRecord(page, deployment, record!.repo_id);
    const order = await partsInOrder(page);
    expect(
      order.every((position, index) => position > (order[index - 1] ?? -1)),
      `${deployment.key} ${record!.repo_id}: ${order.join(' ')}`,
    ).toBe(true);
    const labels = await detailLabels(page);
    for (const lead of ['Title', 'Authors', 'Description', 'DOI', 'Journal', 'Volume', 'Issue'])
      expect(labels, deployment.key).not.toContain(lead);
    const firstIdentifier = labels.findIndex((label) => identifierLabels.has(label));
    expect(firstIdentifier, `${deployment.key}: ${labels.join(', ')}`).toBeGreaterThan(0);
    expect(
      labels.slice(firstIdentifier).every((label) => identifierLabels.has(label)),
      `${deployment.key}: ${labels.join(', ')}`,
    ).toBe(true);
  }
});

test('a journal article’s publication line reads journal volume(issue), year, publisher', async () => {
  const { page } = ui;
  const { records } = await apiList(lit, { rows: 300 });
  const article = records.find((record) => record.journal_name && record.journal_volume && record.journal_issue && record.publisher)!;
  await openRecord(page, lit, article.repo_id);
  const year = String(article.publication_date).slice(0, 4);
  expect(await page.locator('.record__publication').textContent()).toBe(
    `${String(article.journal_name)} ${String(article.journal_volume)}(${String(article.journal_issue)}), ${year}, ${String(article.publisher)}`,
  );
  expect(await page.locator('.record__publication cite').textContent()).toBe(String(article.journal_name));
});

test('LIT 1670777: 31 authors fold to 10 behind "and 21 more", which unfolds in place by keyboard and keeps the focus', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  await openRecord(page, lit, '1670777');
  const authors = recordAuthors(page);
  const names = () => authors.locator('.person__name').allTextContents();
  const first = await names();
  expect(first).toHaveLength(10);
  expect(first[0]).toBe('Nayfach, Stephen');
  const more = page.getByRole('button', { name: 'and 21 more authors' });
  expect(await more.getAttribute('aria-expanded')).toBe('false');
  expect(await more.getAttribute('aria-controls')).toBe(await authors.getAttribute('id'));
  await expectNoAxeViolations(page, 'LIT 1670777 authors folded, desktop');
  await screenshot(page, 'record-page-authors-folded-desktop');

  await more.focus();
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await names()).length).toBe(31);
  const toggle = page.getByRole('button', { name: 'Show fewer authors' });
  expect(await toggle.getAttribute('aria-expanded')).toBe('true');
  expect(await toggle.evaluate((button) => button === document.activeElement)).toBe(true);
  expect(await page.getByRole('status').filter({ hasText: 'All 31 authors shown.' }).count()).toBe(1);
  // The first ten stay where they were; the other 21 follow them, the button after the last.
  expect((await names()).slice(0, 10)).toEqual(first);
  expect(await toggle.evaluate((button) => button.previousElementSibling?.getAttribute('aria-label'))).toBe('Authors');
  await expectNoAxeViolations(page, 'LIT 1670777 authors unfolded, desktop');
  await screenshot(page, 'record-page-authors-unfolded-desktop');
  await page.setViewportSize(phone);
  await expectNoAxeViolations(page, 'LIT 1670777 authors unfolded, phone');
  await screenshot(page, 'record-page-authors-unfolded-phone');

  await page.keyboard.press('Space');
  await expect.poll(async () => (await names()).length).toBe(10);
  expect(await more.evaluate((button) => button === document.activeElement)).toBe(true);
  expect(await page.getByRole('status').filter({ hasText: '10 of 31 authors shown.' }).count()).toBe(1);
  await expectNoAxeViolations(page, 'LIT 1670777 authors folded, phone');
  await screenshot(page, 'record-page-authors-folded-phone');
  await page.setViewportSize(desktop);
});

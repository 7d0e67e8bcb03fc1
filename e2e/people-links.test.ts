/**
 * People, subjects and organisations are searches: an author, an ORCID iD, a subject and an
 * organisation on a record lead to searches that find the record. Similar records leave the
 * record itself out.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey, searchParamForField } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { apiList } from './support/api';
import { gotoApp, recordAuthors, resultLinks, searchParamsOf, waitForResults } from './support/app';
import { phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const lit = deploymentByKey('LIT')!;
const mm = deploymentByKey('MM')!;

/** The app's current search, run against the API with the record's id added: 1 when the search contains it. */
async function searchContains(page: Page, deployment: Deployment, repoId: string): Promise<boolean> {
  const params = Object.fromEntries(searchParamsOf(page));
  const { total } = await apiList(deployment, { ...params, repo_id: repoId, rows: 1 });
  return total === 1;
}

async function openRecord(page: Page, deployment: Deployment, repoId: string): Promise<void> {
  await gotoApp(page, `/${deployment.slug}/records/${encodeURIComponent(repoId)}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.locator('dl.record-fields').waitFor();
}

test('an author’s name leads to an author search that contains the record', async () => {
  const { page } = ui;
  const { records } = await apiList(lit, { author: 'orcid', rows: 1 });
  const record = records[0]!;
  await openRecord(page, lit, String(record.repo_id));
  const name = recordAuthors(page).locator('.person__name a').first();
  const text = (await name.textContent())!.trim();
  await name.click();
  await page.waitForURL((current) => current.searchParams.has('author'));
  expect(searchParamsOf(page).get('author')).toBe(`"${text}"`);
  expect(await waitForResults(page)).toBeGreaterThan(0);
  expect(await searchContains(page, lit, String(record.repo_id))).toBe(true);

  // The result list's author names are searches too.
  const resultAuthor = page.locator('.result__authors a').first();
  await resultAuthor.waitFor();
  expect(new URL(await resultAuthor.evaluate((link) => (link as HTMLAnchorElement).href)).searchParams.get('author')).toMatch(/^".+"$/);
  await expectNoAxeViolations(page, 'an author search from a record');
});

test('an ORCID iD leads to an identifier search that contains the record', async () => {
  const { page } = ui;
  const { records } = await apiList(lit, { author: 'orcid', rows: 1 });
  const record = records[0]!;
  await openRecord(page, lit, String(record.repo_id));
  const search = page.getByRole('link', { name: /^Records with this ORCID iD/ }).first();
  await search.click();
  await page.waitForURL((current) => current.searchParams.has('identifier'));
  expect(searchParamsOf(page).get('identifier')).toMatch(/^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/);
  // The ORCID as written on the page (hyphenated) must find the record stored either way.
  expect(await waitForResults(page)).toBeGreaterThan(0);
  expect(await searchContains(page, lit, String(record.repo_id))).toBe(true);
});

test('subjects and organisations lead to the deployment’s own searches', async () => {
  const { page } = ui;
  const { records } = await apiList(mm, { rows: 200 });
  const record = records.find((candidate) => Array.isArray(candidate.research_orgs) && candidate.research_orgs.length > 0)!;
  await openRecord(page, mm, String(record.repo_id));
  const organisation = page
    .locator('dl.record-fields dt', { hasText: 'Research organisations' })
    .locator('xpath=following-sibling::dd[1]')
    .getByRole('link')
    .first();
  await organisation.click();
  const param = searchParamForField(mm, 'research_orgs');
  expect(param).toBe('research_orgs');
  await page.waitForURL((current) => current.searchParams.has(param));
  expect(await waitForResults(page)).toBeGreaterThan(0);
  expect(await searchContains(page, mm, String(record.repo_id))).toBe(true);

  const withSubjects = (await apiList(lit, { rows: 200 })).records.find(
    (candidate) => Array.isArray(candidate.subjects) && candidate.subjects.length > 0,
  )!;
  await openRecord(page, lit, String(withSubjects.repo_id));
  await page
    .locator('dl.record-fields dt', { hasText: 'Subjects' })
    .locator('xpath=following-sibling::dd[1]')
    .getByRole('link')
    .first()
    .click();
  await page.waitForURL((current) => current.searchParams.has('subject'));
  expect(await waitForResults(page)).toBeGreaterThan(0);
  expect(await searchContains(page, lit, String(withSubjects.repo_id))).toBe(true);
});

test('similar records leave the record itself out', async () => {
  const { page } = ui;
  const { records } = await apiList(lit, { rows: 20 });
  const record = records[0]!;
  await openRecord(page, lit, String(record.repo_id));
  const similar = page.getByRole('region', { name: 'Similar records' });
  await similar.waitFor();
  const hrefs = await similar
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
  expect(hrefs.length).toBeGreaterThan(0);
  expect(hrefs.length).toBeLessThanOrEqual(5);
  expect(hrefs).not.toContain(`/${lit.slug}/records/${encodeURIComponent(String(record.repo_id))}`);
  for (const href of hrefs) expect(href).toMatch(new RegExp(`^/${lit.slug}/records/`));
  await expectNoAxeViolations(page, 'a record page with people links and similar records');
  await screenshot(page, 'record-similar-desktop');
  await page.setViewportSize(phone);
  await screenshot(page, 'record-similar-phone');
  // A similar record opens as a record page.
  await similar.getByRole('link').first().click();
  await page.waitForURL((current) => current.pathname !== `/${lit.slug}/records/${record.repo_id}`);
  expect(await resultLinks(page).count()).toBe(0);
});

/** The record page's Related works (DC1's related identifiers and the upstream's curated relations) and unknown values left out. */
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { apiList } from './support/api';
import { gotoApp } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;

const relatedWorks = (page: typeof ui.page) => page.getByRole('region', { name: 'Related works' });
const fieldNames = (page: typeof ui.page) => page.locator('dl.record-fields dt').allTextContents();

test('DC1 1562055: its related article is a DOI link with the curated reference, and no unknown field is shown', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  await gotoApp(page, `/${dc1.slug}/records/1562055`);
  const related = relatedWorks(page);
  await related.waitFor();
  const article = related.getByRole('link', { name: 'DOI 10.1103/PhysRevLett.118.265001' });
  expect(await article.getAttribute('href')).toBe('https://doi.org/10.1103/PhysRevLett.118.265001');
  const entry = related.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'DOI 10.1103/PhysRevLett.118.265001' }) });
  expect(await entry.textContent()).toMatch(/^Is referenced by DOI 10\.1103\/PhysRevLett\.118\.265001/);
  // The upstream writes thin spaces between initials; read as a reader would.
  expect((await entry.textContent())?.replace(/\s/g, ' ')).toContain(
    'Fredrickson, E. D.; Belova, E. V.; Battaglia, D. J.; et al. Suppression of Alfvén Modes on the National Spherical Torus Experiment Upgrade with Outboard Beam Injection. Physical Review Letters 118(26) (2017)',
  );
  expect(await entry.locator('cite').textContent()).toBe('Physical Review Letters 118(26)');
  // The raw relation strings and the curated JSON are not shown anywhere.
  expect(await page.getByText('CURATED').count()).toBe(0);
  expect(await page.getByText('osti_ids').count()).toBe(0);
  // The upstream's 0 for a size it does not know, and its "None", are no values.
  const names = await fieldNames(page);
  expect(names).not.toContain('Size');
  expect(names).not.toContain('Related identifiers');
  expect(
    await page
      .locator('dl.record-fields dd')
      .filter({ hasText: /^None$/ })
      .count(),
  ).toBe(0);
  await page.getByText('Looking for related records in this mirror…').waitFor({ state: 'detached' });
  await expectNoAxeViolations(page, 'DC1 1562055 related works, desktop');
  await screenshot(page, 'related-works-dc1-1562055-desktop');
  await page.setViewportSize(phone);
  await expectNoAxeViolations(page, 'DC1 1562055 related works, phone');
  await screenshot(page, 'related-works-dc1-1562055-phone');
  await page.setViewportSize(desktop);
});

test('DC1 1366720: a related record the mirror holds is a link to its page, and following it shows the way back', async () => {
  const { page } = ui;
  await gotoApp(page, `/${dc1.slug}/records/1366720`);
  const inMirror = relatedWorks(page).getByRole('list', { name: 'Related records in this mirror' }).first();
  await inMirror.waitFor();
  const link = inMirror.getByRole('link').first();
  expect(await link.getAttribute('href')).toBe(`/${dc1.slug}/records/1562067`);
  await link.click();
  await page.waitForURL(/\/records\/1562067$/);
  // The page keeps the previous record's list until the new one's arrives: wait for the way back itself.
  const back = relatedWorks(page)
    .getByRole('list', { name: 'Related records in this mirror' })
    .first()
    .locator(`a[href="/${dc1.slug}/records/1366720"]`);
  await back.waitFor();
  await expectNoAxeViolations(page, 'DC1 1562067 related works');
});

test('a generated record keeps its notice, and its made-up related identifiers are not links', async () => {
  const { page } = ui;
  const { records } = await apiList(dc1, { rows: 1000 });
  const generated = records.find(
    (record) => Number(record.repo_id) >= 50_000_000 && Array.isArray(record.related_identifiers) && record.related_identifiers.length > 0,
  );
  expect(generated, 'a generated DC1 record with related identifiers').toBeDefined();
  await gotoApp(page, `/${dc1.slug}/records/${generated!.repo_id}`);
  await page.getByText('Generated demo record.').first().waitFor();
  const related = relatedWorks(page);
  await related.waitFor();
  expect(await related.getByRole('listitem').count()).toBeGreaterThan(0);
  expect(await related.getByRole('link').count()).toBe(0);
  await expectNoAxeViolations(page, 'generated record related works');
});

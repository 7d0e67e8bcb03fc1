/** A selection that mixes generated demo records with real ones says so, in the bar, the Cite dialog and the files. */
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { parseRis } from '../src/formats/ris-reader';
import { apiList } from './support/api';
import { gotoApp, searchPath, waitForResults } from './support/app';
import { phone, desktop, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';
import { downloadFrom } from './support/downloads';

const ui = useBrowser();
const dc1 = deploymentByKey('DC1')!;

test('selecting a page of real and generated DC1 records: the bar and the dialog count the generated ones, BibTeX and RIS note each', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  const query = { q: 'plasma', rows: 20 };
  const { records } = await apiList(dc1, query);
  const generatedIds = records.filter((record) => Number(record.repo_id) >= 50_000_000).map((record) => record.repo_id);
  expect(generatedIds.length, 'the page mixes generated and real records').toBeGreaterThan(0);
  expect(generatedIds.length).toBeLessThan(records.length);

  await gotoApp(page, searchPath(dc1, query));
  await waitForResults(page);
  await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
  const bar = page.getByRole('region', { name: 'Selection' });
  const summary = `${generatedIds.length} of these ${records.length} records are generated demo records:`;
  await bar.getByText(summary).waitFor();
  await expectNoAxeViolations(page, 'selection bar with generated records');

  await bar.getByLabel('Export format').selectOption({ label: 'RIS' });
  const ris = await downloadFrom(page, () => bar.getByRole('button', { name: 'Export selected' }).click());
  const entries = parseRis(ris.text);
  const noted = entries
    .filter((entry) => entry.some(([tag, value]) => tag === 'N1' && value.startsWith('Generated demo record')))
    .map((entry) => entry.find(([tag]) => tag === 'ID')![1]);
  expect(noted.sort()).toEqual(generatedIds.map((id) => `${dc1.slug}-${id}`).sort());

  await bar.getByRole('button', { name: 'Cite selected' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cite' });
  await dialog.waitFor();
  await dialog.getByText(summary).waitFor();
  await dialog.getByLabel('Citation style').selectOption({ label: 'BibTeX (full)' });
  const citations = dialog.getByRole('region', { name: 'Citations' });
  await expect.poll(() => citations.locator('pre').count()).toBe(records.length);
  const bibtex = await citations.locator('pre').allTextContents();
  const notedKeys = bibtex
    .filter((entry) => entry.includes('note = {Generated demo record'))
    .map((entry) => /^@\w+\{records_([^,]+),/.exec(entry)![1]);
  expect(notedKeys.sort()).toEqual([...generatedIds].sort());
  await expectNoAxeViolations(page, 'Cite dialog of a mixed selection');
  await screenshot(page, 'generated-selection-cite-desktop');
  await page.setViewportSize(phone);
  await expectNoAxeViolations(page, 'Cite dialog of a mixed selection, phone');
  await screenshot(page, 'generated-selection-cite-phone');
  await page.keyboard.press('Escape');
  await page.setViewportSize(desktop);
});

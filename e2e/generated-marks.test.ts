/**
 * Issue 38, item 2: one rule marks generated demo records wherever the app shows or writes
 * them — a whole-result download in every format, the result list, the All-catalogs groups,
 * the Cite dialog (naming which), a record's export — and their made-up ORCID iDs are not links.
 * The generated records are those the server names in X-Generated-Records.
 */
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey, displayName, paramByName } from '../src/deployments/registry';
import { generatedRecordsHeader, parseGeneratedIds } from '../src/formats/extension-headers';
import { parseRis } from '../src/formats/ris-reader';
import { exportFormats, type ExportFormat } from '../src/app/export/export-formats';
import { gotoApp, searchPath, waitForResults } from './support/app';
import { desktop, phone, url, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';
import { csvObjects, parseCsv, parseRecordsXml, readDownload } from './support/downloads';

const ui = useBrowser({ acceptDownloads: true });
const dc1 = deploymentByKey('DC1')!;
const note = 'Generated demo record: its text and identifiers';
const numbers = new Intl.NumberFormat('en');

/** Every record of a DC1 search and which of them the server says are generated, page by page. */
async function searchAll(q: string): Promise<{ ids: string[]; generated: Set<string> }> {
  const rows = paramByName(dc1, 'rows');
  const size = rows?.kind === 'integer' && rows.max ? rows.max : 100;
  const ids: string[] = [];
  const generated = new Set<string>();
  for (let page = 1; ; page += 1) {
    const target = new URL(url(`${dc1.basePath}/records`));
    target.search = new URLSearchParams({ q, rows: String(size), page: String(page) }).toString();
    const response = await fetch(target, { headers: { accept: 'application/json' } });
    const records = (await response.json()) as { repo_id: string }[];
    ids.push(...records.map((record) => record.repo_id));
    for (const id of parseGeneratedIds(response.headers.get(generatedRecordsHeader))) generated.add(id);
    if (records.length < size) return { ids, generated };
  }
}

/** The ids of the records a downloaded file marks as generated. */
function markedIds(format: ExportFormat, text: string): { all: string[]; marked: string[] } {
  const slug = `${dc1.slug}-`;
  switch (format.id) {
    case 'bibtex':
    case 'bibtex-full': {
      const entries = text.split(/^(?=@)/m).filter((entry) => entry.startsWith('@'));
      const id = (entry: string) => /^@\w+\{records_([^,]+),/.exec(entry)![1]!;
      return { all: entries.map(id), marked: entries.filter((entry) => entry.includes(`note = {${note}`)).map(id) };
    }
    case 'ris': {
      const entries = parseRis(text);
      const id = (entry: [string, string][]) => entry.find(([tag]) => tag === 'ID')![1].replace(slug, '');
      return {
        all: entries.map(id),
        marked: entries.filter((entry) => entry.some(([tag, value]) => tag === 'N1' && value.startsWith(note))).map(id),
      };
    }
    case 'csl-json': {
      const items = JSON.parse(text) as { id: string; note?: string }[];
      const id = (item: { id: string }) => item.id.replace(slug, '');
      return { all: items.map(id), marked: items.filter((item) => item.note?.startsWith(note)).map(id) };
    }
    case 'json': {
      const items = JSON.parse(text) as Record<string, unknown>[];
      return {
        all: items.map((item) => String(item.repo_id)),
        marked: items.filter((item) => String(item.x_generated_note ?? '').startsWith(note)).map((item) => String(item.repo_id)),
      };
    }
    case 'xml': {
      const records = parseRecordsXml(text);
      return {
        all: records.map((record) => String(record.repo_id)),
        marked: records.filter((record) => String(record.x_generated_note ?? '').startsWith(note)).map((record) => String(record.repo_id)),
      };
    }
    case 'csv': {
      const rows = csvObjects(parseCsv(text));
      return {
        all: rows.map((row) => row.repo_id!),
        marked: rows.filter((row) => row.x_generated_note!.startsWith(note)).map((row) => row.repo_id!),
      };
    }
  }
}

async function withoutSavePicker(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
}

test('Download all results marks every generated record, and no real one, in every format', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  const q = 'plasma';
  const { ids, generated } = await searchAll(q);
  expect(generated.size, 'the search mixes generated and real records').toBeGreaterThan(0);
  expect(generated.size).toBeLessThan(ids.length);

  await withoutSavePicker(page);
  await gotoApp(page, searchPath(dc1, { q }));
  expect(await waitForResults(page)).toBe(ids.length);
  const section = page.getByRole('region', { name: 'Download all results' });
  await section.waitFor();
  const start = section.getByRole('button', { name: `Download ${numbers.format(ids.length)} records` });
  for (const format of exportFormats) {
    await section.getByLabel('Format').selectOption({ label: `${format.label} (.${format.extension})` });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), start.click()]);
    const file = await readDownload(download);
    await section
      .getByRole('status')
      .filter({ hasText: `Download complete: ${numbers.format(ids.length)} records saved` })
      .waitFor();
    const { all, marked } = markedIds(format, file.text);
    expect(all.sort(), `${format.label}: every record`).toEqual([...ids].sort());
    expect(marked.sort(), `${format.label}: the generated records marked`).toEqual([...generated].sort());
  }
});

// Three views, each checked with axe at two widths: longer than one view's budget on a busy machine.
test(
  'result lists and All-catalogs groups label each generated record; Cite selected names them and marks their citations',
  { timeout: 150_000 },
  async () => {
    const { page } = ui;
    await page.setViewportSize(desktop);
    const query = { q: 'plasma', rows: 20 };
    const target = new URL(url(`${dc1.basePath}/records`));
    target.search = new URLSearchParams({ q: query.q, rows: String(query.rows) }).toString();
    const response = await fetch(target, { headers: { accept: 'application/json' } });
    const records = (await response.json()) as { repo_id: string; title: string }[];
    const generated = parseGeneratedIds(response.headers.get(generatedRecordsHeader));
    expect(generated.size).toBeGreaterThan(0);
    expect(generated.size).toBeLessThan(records.length);

    await gotoApp(page, searchPath(dc1, query));
    await waitForResults(page);
    const results = page.locator('article.result');
    await expect.poll(() => results.count()).toBe(records.length);
    const labelled = await results.evaluateAll((articles) =>
      articles.map((article) => article.querySelector('.generated-badge')?.textContent === 'Generated demo record'),
    );
    expect(labelled).toEqual(records.map((record) => generated.has(record.repo_id)));
    await expectNoAxeViolations(page, 'result list with generated records');
    await screenshot(page, 'generated-results-desktop');
    await page.setViewportSize(phone);
    await expectNoAxeViolations(page, 'result list with generated records, phone');
    await screenshot(page, 'generated-results-phone');
    await page.setViewportSize(desktop);

    // Cite selected: the dialog says which records are generated, and each of their citations says so.
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('region', { name: 'Selection' }).getByRole('button', { name: 'Cite selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cite' });
    await dialog.getByText(`${generated.size} of these ${records.length} records are generated demo records:`).waitFor();
    const named = dialog.getByRole('list', { name: 'Generated demo records' }).getByRole('listitem');
    await expect.poll(() => named.count()).toBe(Math.min(generated.size, 5) + (generated.size > 5 ? 1 : 0));
    const namedText = (await named.allTextContents()).join('\n');
    for (const id of [...records.map((record) => record.repo_id)].filter((id) => generated.has(id)).slice(0, 5)) {
      expect(namedText).toContain(`(ID ${id})`);
    }
    await dialog.getByLabel('Citation style').selectOption({ label: 'APA (7th edition)' });
    const citations = dialog.getByRole('region', { name: 'Citations' });
    await expect.poll(() => citations.locator('.cite-dialog__citation').count()).toBe(records.length);
    expect(await citations.getByText('[Generated demo record: not a real work.]').count()).toBe(generated.size);
    await expectNoAxeViolations(page, 'Cite dialog naming generated records');
    await screenshot(page, 'generated-cite-named-desktop');
    await page.setViewportSize(phone);
    await expectNoAxeViolations(page, 'Cite dialog naming generated records, phone');
    await screenshot(page, 'generated-cite-named-phone');
    await page.keyboard.press('Escape');
    await page.setViewportSize(desktop);

    // All catalogs: the DC1 group labels its generated records too.
    await gotoApp(page, `/all?q=${query.q}`);
    const group = page.getByRole('region', { name: displayName(dc1) });
    const items = group.locator('.catalog-result');
    await expect.poll(() => items.count()).toBeGreaterThan(0);
    const groupLabels = await items.evaluateAll((lis) =>
      lis.map((li) => ({
        id: li.querySelector('a')!.getAttribute('href')!.split('/').pop()!,
        labelled: li.querySelector('.generated-badge') !== null,
      })),
    );
    expect(groupLabels.some((entry) => entry.labelled)).toBe(true);
    for (const entry of groupLabels)
      expect(entry.labelled, `record ${entry.id}`).toBe(generated.has(entry.id) || Number(entry.id) >= 50_000_000);
    await expectNoAxeViolations(page, 'All catalogs with generated records');
    await screenshot(page, 'generated-all-catalogs-desktop');
    await page.setViewportSize(phone);
    await expectNoAxeViolations(page, 'All catalogs with generated records, phone');
    await screenshot(page, 'generated-all-catalogs-phone');
  },
);

test('a generated record’s ORCID iDs are text, not links to orcid.org, and its XML export carries the note', async () => {
  const { page } = ui;
  await page.setViewportSize(desktop);
  const { generated } = await searchAll('plasma');
  const withOrcid: string[] = [];
  for (const id of generated) {
    const response = await fetch(url(`${dc1.basePath}/records/${id}`), { headers: { accept: 'application/json' } });
    const [record] = (await response.json()) as { authors?: string[] }[];
    if (record?.authors?.some((author) => /ORCID:0000000/.test(author))) withOrcid.push(id);
    if (withOrcid.length) break;
  }
  expect(withOrcid.length, 'a generated DC1 record with an ORCID iD').toBe(1);
  await gotoApp(page, `/${dc1.slug}/records/${withOrcid[0]}`);
  await page.locator('.person__orcid').first().waitFor();
  expect(await page.locator('.person__orcid').first().textContent()).toMatch(/ORCID 0000-0000-/);
  expect(await page.locator('a[href^="https://orcid.org/"]').count()).toBe(0);
  // Its similar records say which of them are generated too (the seeded ones are numbered from 50,000,000).
  const similar = page.getByRole('region', { name: 'Similar records' }).getByRole('listitem');
  await expect.poll(() => similar.count()).toBeGreaterThan(0);
  const similarLabels = await similar.evaluateAll((items) =>
    items.map((item) => ({
      id: item.querySelector('a')!.getAttribute('href')!.split('/').pop()!,
      labelled: item.querySelector('.generated-badge') !== null,
    })),
  );
  for (const entry of similarLabels) expect(entry.labelled, `similar record ${entry.id}`).toBe(Number(entry.id) >= 50_000_000);

  await withoutSavePicker(page);
  await page.getByText('Export', { exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^XML/ }).click()]);
  const [record] = parseRecordsXml((await readDownload(download)).text);
  expect(String(record!.x_generated_note)).toMatch(/^Generated demo record/);
});

/**
 * Issue 4, whole result sets: a literature search of over 2,000 records downloaded as CSV,
 * XML and JSON with the progress bar seen moving page by page, each file read back and
 * compared with the API; and Cancel, after which no further page is requested and nothing
 * is saved.
 *
 * Headless Chromium has `showSaveFilePicker`, but nobody answers its dialog: it is removed,
 * so the app gathers the file in memory and saves it through `<a download>` (its fallback
 * for every other browser), which Playwright sees as a download.
 */
import type { Download, Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey, paramByName } from '../src/deployments/registry';
import { apiList } from './support/api';
import { gotoApp, waitForResults } from './support/app';
import { useBrowser } from './support/browser';
import { picture } from './support/checks';
import { csvObjects, gatePages, parseCsv, parseRecordsXml, readDownload, type DownloadedFile } from './support/downloads';

const ui = useBrowser({ acceptDownloads: true });
const lit = deploymentByKey('LIT')!;
const recordsPath = `${lit.basePath}/records`;
const numbers = new Intl.NumberFormat('en');
const fileDate = /\d{4}-\d{2}-\d{2}/.source;

/** The page size a download asks for: the deployment's largest. */
function downloadRows(): number {
  const rows = paramByName(lit, 'rows');
  if (rows?.kind !== 'integer' || rows.max === undefined) throw new Error('LIT rows has no maximum');
  return rows.max;
}

/** Ids of every record of the unfiltered LIT search, in the API's order. */
async function allIds(total: number): Promise<string[]> {
  const rows = downloadRows();
  const ids: string[] = [];
  for (let page = 1; (page - 1) * rows < total; page += 1) {
    ids.push(...(await apiList(lit, { rows, page })).records.map((record) => record.repo_id));
  }
  return ids;
}

async function withoutSavePicker(page: Page): Promise<void> {
  await page.context().addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
}

/** Only the download's requests: the results page itself asks for the default page size. */
const isDownloadPage = (url: URL) => url.searchParams.get('rows') === String(downloadRows());

interface ProgressSample {
  value: number;
  max: number;
  text: string;
}

async function progressSample(section: Locator): Promise<ProgressSample | undefined> {
  const bar = section.getByRole('progressbar', { name: 'Download progress' });
  if ((await bar.count()) === 0) return undefined;
  return bar.evaluate((element) => {
    const progress = element as HTMLProgressElement;
    const described = document.getElementById(progress.getAttribute('aria-describedby') ?? '');
    return { value: progress.value, max: progress.max, text: (described?.textContent ?? '').replace(/\s+/g, ' ').trim() };
  });
}

async function sectionShot(section: Locator, name: string): Promise<void> {
  await picture(name, async (path) => {
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path, animations: 'disabled' });
  });
}

async function openDownloads(page: Page, total: number): Promise<Locator> {
  await gotoApp(page, `/${lit.slug}`);
  expect(await waitForResults(page)).toBe(total);
  const section = page.getByRole('region', { name: 'Download all results' });
  await section.waitFor();
  return section;
}

test('over 2,000 records download as CSV, XML and JSON; the progress bar moves; each file holds every record once', async () => {
  const { page } = ui;
  const { total } = await apiList(lit, { rows: 1 });
  expect(total, 'LIT holds over 2,000 records (global setup adds them)').toBeGreaterThan(2_000);
  const expectedIds = await allIds(total);
  expect(new Set(expectedIds).size).toBe(total);
  const rows = downloadRows();
  const pages = Math.ceil(total / rows);
  expect(pages, 'the download takes several pages').toBeGreaterThan(2);

  await withoutSavePicker(page);
  const gates = await gatePages(page, recordsPath, isDownloadPage);
  const section = await openDownloads(page, total);

  // Said before starting: how many records the file will hold, and the limit.
  await section
    .getByText(
      `This search found ${numbers.format(total)} records; the file will hold all of them. A download holds at most 100,000 records.`,
    )
    .waitFor();
  expect(await section.getByLabel('Format').inputValue()).toBe('csv');
  const start = section.getByRole('button', { name: `Download ${numbers.format(total)} records` });

  // CSV, one page at a time: the bar is seen at each page before the download completes.
  const csvDownload = page.waitForEvent('download', { timeout: 30_000 });
  await start.click();
  const samples: ProgressSample[] = [];
  for (let n = 1; n < pages; n += 1) {
    gates.open(n);
    const written = n * rows;
    let sample: ProgressSample | undefined;
    await expect
      .poll(async () => (sample = await progressSample(section))?.value, { timeout: 15_000, message: `progress after page ${n}` })
      .toBe(written);
    samples.push(sample!);
    if (n === 1) {
      expect(await start.isDisabled(), 'no second download while one runs').toBe(true);
      expect(await section.getByLabel('Format').isDisabled()).toBe(true);
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await sectionShot(section, `download-progress-${theme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
  }
  expect(samples.length).toBeGreaterThanOrEqual(2);
  samples.forEach((sample, index) => {
    expect(sample.max).toBe(total);
    expect(sample.text).toMatch(new RegExp(`^${numbers.format(sample.value)} of ${numbers.format(total)} records\\b`));
    if (index > 0) expect(sample.value).toBeGreaterThan(samples[index - 1]!.value);
  });
  expect(samples.at(-1)!.value).toBeLessThan(total);
  gates.openAll();
  const csvFile = await readDownload(await csvDownload);
  expect(csvFile.name).toMatch(new RegExp(`^lit-results-${fileDate}\\.csv$`));
  await section
    .getByRole('status')
    .filter({ hasText: `Download complete: ${numbers.format(total)} records saved as ${csvFile.name}.` })
    .waitFor();
  expect(await section.getByRole('progressbar').count(), 'the bar goes when the download ends').toBe(0);
  await sectionShot(section, 'download-complete-light');

  const csv = parseCsv(csvFile.text);
  expect(csv.bom, 'the BOM option is on by default').toBe(true);
  expect(csv.header).toEqual([...lit.fields.map((field) => field.name), 'x_generated_note']);
  expect(csv.rows).toHaveLength(total);
  const csvIds = csvObjects(csv).map((row) => row.repo_id);
  expect(new Set(csvIds).size, 'no record twice').toBe(total);
  expect(csvIds).toEqual(expectedIds);

  const downloadAs = async (label: string): Promise<DownloadedFile> => {
    await section.getByLabel('Format').selectOption({ label });
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 30_000 }), start.click()]);
    const file = await readDownload(download);
    await section
      .getByRole('status')
      .filter({ hasText: `Download complete: ${numbers.format(total)} records saved as ${file.name}.` })
      .waitFor();
    return file;
  };

  const xmlFile = await downloadAs('XML (.xml)');
  expect(xmlFile.name).toMatch(new RegExp(`^lit-results-${fileDate}\\.xml$`));
  const xmlRecords = parseRecordsXml(xmlFile.text);
  expect(xmlRecords).toHaveLength(total);
  expect(xmlRecords.map((record) => record.repo_id)).toEqual(expectedIds);

  const jsonFile = await downloadAs('JSON (.json)');
  expect(jsonFile.name).toMatch(new RegExp(`^lit-results-${fileDate}\\.json$`));
  const json = JSON.parse(jsonFile.text) as { repo_id: string }[];
  expect(json.map((record) => record.repo_id)).toEqual(expectedIds);
});

test('Cancel stops the download: no page is requested after it, and nothing is saved', async () => {
  const { page } = ui;
  const { total } = await apiList(lit, { rows: 1 });
  const rows = downloadRows();
  expect(total).toBeGreaterThan(2 * rows);

  await withoutSavePicker(page);
  const gates = await gatePages(page, recordsPath, isDownloadPage);
  const section = await openDownloads(page, total);

  const requests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === recordsPath) requests.push(request.url());
  });
  const downloads: Download[] = [];
  page.on('download', (download) => downloads.push(download));

  // The download runs in a worker, which asks for every page: once it is gone, nothing can follow.
  const workerGone = page.waitForEvent('worker').then((worker) => new Promise<void>((resolve) => worker.once('close', () => resolve())));
  await section.getByRole('button', { name: `Download ${numbers.format(total)} records` }).click();
  gates.open(1);
  await expect.poll(async () => (await progressSample(section))?.value, { message: 'the first page arrives' }).toBe(rows);
  // The second page has been asked for and is held: Cancel lands while a request is in flight.
  await expect.poll(() => gates.requested.length, { message: 'the second page is requested' }).toBe(2);
  const requestedBeforeCancel = requests.length;
  await section.getByRole('button', { name: 'Cancel' }).click();

  const cancelled = `Download cancelled after ${numbers.format(rows)} of ${numbers.format(total)} records. Nothing was saved.`;
  await section.getByRole('status').filter({ hasText: cancelled }).waitFor();
  // Let the held page through: the download that wanted it is gone, so nothing follows.
  gates.openAll();
  await workerGone;

  expect(requests.slice(requestedBeforeCancel), 'requests after Cancel').toEqual([]);
  expect(gates.requested.map((href) => new URL(href).searchParams.get('page') ?? '1')).toEqual(['1', '2']);
  expect(
    downloads.map((download) => download.suggestedFilename()),
    'files saved after Cancel',
  ).toEqual([]);
  expect(await section.getByRole('progressbar').count()).toBe(0);
  expect(await page.getByText(/Download complete/).count(), 'no claim of success').toBe(0);
  expect((await section.getByRole('alert').textContent())?.trim()).toBe('');
  expect(await section.getByRole('button', { name: `Download ${numbers.format(total)} records` }).isEnabled()).toBe(true);
  await sectionShot(section, 'download-cancelled-light');
});

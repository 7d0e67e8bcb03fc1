/**
 * Issue 4, citing and exporting: the Cite dialog in every style for real records imported
 * from data/real (copy to the clipboard, keyboard, axe), a record's six exports
 * downloaded and read back, and a selection spanning two result pages kept across a
 * reload, exported and cited.
 */
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { entryKindOf } from '../src/formats/bibtex-full';
import { toPlainText } from '../src/formats/rich-text';
import { apiList, findSearchTerm } from './support/api';
import { gotoApp, pagination, resultLinks, searchPath, waitForPage, waitForResults } from './support/app';
import { url, useBrowser } from './support/browser';
import { readClipboard } from './support/clipboard';
import { expectNoAxeViolations, picture } from './support/checks';
import {
  containsLoosely,
  csvObjects,
  downloadFrom,
  parseBibtex,
  parseCsv,
  parseRecordsXml,
  type DownloadedFile,
} from './support/downloads';

const ui = useBrowser({ acceptDownloads: true });
const lit = deploymentByKey('LIT')!;
const dc1 = deploymentByKey('DC1')!;

/** Records imported from the upstream files (lit-v1-datasets-40.json, dc-v1-geothermal-and-more-250.json). */
const realRecords = [
  ['LIT', '1828290', lit],
  ['DC1', '2368548', dc1],
] as const;

const styles = [
  'APA (7th edition)',
  'MLA (9th edition)',
  'Chicago (author-date)',
  'Harvard (Cite Them Right)',
  'Vancouver',
  'IEEE',
  'BibTeX',
  'BibTeX (full)',
] as const;

/** How each BibTeX variant's entry starts: the API's is always `@misc`, the full one is typed by the kind of work. */
const bibtexOpening = (style: string, deployment: Deployment, record: ApiRecord): string | undefined =>
  style === 'BibTeX' ? '@misc{' : style === 'BibTeX (full)' ? `@${entryKindOf(deployment, record).type}{` : undefined;

/** The server's own representation of a record, byte for byte. */
async function serverText(deployment: Deployment, id: string, accept: string): Promise<string> {
  const response = await fetch(url(`${deployment.basePath}/records/${encodeURIComponent(id)}`), { headers: { accept } });
  if (!response.ok) throw new Error(`${deployment.key} record ${id} as ${accept}: ${response.status}`);
  return response.text();
}

async function serverRecord(deployment: Deployment, id: string): Promise<ApiRecord> {
  const body = JSON.parse(await serverText(deployment, id, 'application/json')) as ApiRecord[];
  expect(body, `the server's JSON for ${id} is a one-record list`).toHaveLength(1);
  return body[0]!;
}

function familyName(record: ApiRecord): string {
  const first = Array.isArray(record.authors) ? String(record.authors[0] ?? '') : '';
  const family = first.split(',')[0]!.trim();
  if (!family) throw new Error(`record ${record.repo_id} has no first author`);
  return family;
}

async function openRecord(page: Page, deployment: Deployment, id: string, title: string): Promise<void> {
  await gotoApp(page, `/${deployment.slug}/records/${id}`);
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
}

/**
 * A screenshot of the viewport, which is what a user sees of a modal dialog (a full-page
 * picture would show the backdrop covering only the first screen).
 */
async function viewportShot(page: Page, name: string): Promise<void> {
  await picture(name, async (path) => {
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await page.screenshot({ path, animations: 'disabled' });
  });
}

async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement);
}

describe.each(realRecords)('Cite dialog, real %s record %s', (_key, id, deployment) => {
  test('every style shows the title and first author; Copy puts HTML and text on the clipboard; Escape returns focus', async () => {
    const { page, context } = ui;
    const record = await serverRecord(deployment, id);
    const title = String(record.title);
    const family = familyName(record);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(url('/')).origin });
    await openRecord(page, deployment, id, title);

    const citeButton = page.getByRole('button', { name: 'Cite', exact: true });
    await citeButton.click();
    const dialog = page.getByRole('dialog', { name: 'Cite' });
    await dialog.waitFor();
    // The dialog shown while its code loads has no style choice yet.
    await dialog.getByLabel('Citation style').waitFor();
    const styleSelect = dialog.getByLabel('Citation style');
    const offered = (await styleSelect.locator('option').allTextContents()).map((text) => text.trim());
    expect(offered).toEqual([...styles]);

    const citations = dialog.getByRole('region', { name: 'Citations' });
    const copied = dialog.getByRole('status');
    const copyButton = dialog.getByRole('button', { name: 'Copy', exact: true });
    const seenClipboards = new Set<string>();
    for (const style of styles) {
      await styleSelect.selectOption({ label: style });
      // The citation of this style is on screen: it names the record and its first author.
      let shown = '';
      await expect
        .poll(
          async () => {
            shown = (await citations.innerText().catch(() => '')).trim();
            const opening = bibtexOpening(style, deployment, record);
            return (
              containsLoosely(shown, title) && shown.includes(family) && (opening ? shown.startsWith(opening) : !shown.startsWith('@'))
            );
          },
          { timeout: 15_000, message: `${style} citation of ${id} with its title and ${family}` },
        )
        .toBe(true);
      expect(await copied.textContent()).toBe('');

      if (style === 'BibTeX') {
        const entries = parseBibtex(shown);
        expect(entries, 'the BibTeX citation parses to one entry').toHaveLength(1);
        expect(entries[0]!.title).toBe(title);
        expect((entries[0]!.author as { family?: string }[] | undefined)?.[0]?.family).toBe(family);
        // The same text the server gives for the record as BibTeX.
        expect(shown).toBe((await serverText(deployment, id, 'application/x-bibtex')).trim());
      }
      if (style === 'BibTeX (full)') {
        const entries = parseBibtex(shown);
        expect(entries, 'the full BibTeX citation parses to one entry').toHaveLength(1);
        // Real records are datasets: @misc saying so, with the DOI and the citation page.
        expect(shown).toMatch(/^@misc\{records_\d+,/);
        expect(shown).toContain('howpublished = {Dataset}');
        expect(entries[0]!.DOI).toBe(String(record.doi).replace(/^https:\/\/doi\.org\//, ''));
        expect((entries[0]!.author as { family?: string }[])[0]?.family).toBe(family);
      }

      await copyButton.click();
      await expect.poll(() => copied.textContent(), { message: `"Copied" after copying ${style}` }).toBe('Copied');
      const clipboard = await readClipboard(page);
      expect(clipboard.types, `clipboard after copying ${style}`).toEqual(expect.arrayContaining(['text/html', 'text/plain']));
      expect(containsLoosely(clipboard.text ?? '', title), `${style}: the copied text has the title`).toBe(true);
      expect(clipboard.text).toContain(family);
      expect(containsLoosely(clipboard.html ?? '', title), `${style}: the copied HTML has the title`).toBe(true);
      // Each style put something new on the clipboard.
      expect(seenClipboards.has(clipboard.text!), `${style} copied the same text as an earlier style`).toBe(false);
      seenClipboards.add(clipboard.text!);

      if (style === 'APA (7th edition)') {
        // The rich copy keeps what the style italicises.
        expect(clipboard.html).toMatch(/<(i|em)\b/);
        for (const theme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: theme });
          await expectNoAxeViolations(page, `Cite dialog of ${deployment.key} ${id} (${theme})`);
          await viewportShot(page, `cite-dialog-${deployment.slug}-${id}-${theme}`);
        }
        await page.emulateMedia({ colorScheme: 'light' });
      }
    }

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => isFocused(citeButton), { message: 'focus returns to the Cite button' }).toBe(true);
  });
});

/** How each export format's file is checked against the server's record. */
type ExportCheck = (file: DownloadedFile, deployment: Deployment, record: ApiRecord) => Promise<void>;

const exportChecks: Record<string, { extension: string; check: ExportCheck }> = {
  BibTeX: {
    extension: 'bib',
    check: async (file, deployment, record) => {
      const entries = parseBibtex(file.text);
      expect(entries).toHaveLength(1);
      expect(entries[0]!.title).toBe(record.title);
      expect(file.text).toBe(await serverText(deployment, record.repo_id, 'application/x-bibtex'));
    },
  },
  'BibTeX (full)': {
    extension: 'full.bib',
    check: async (file, _deployment, record) => {
      const entries = parseBibtex(file.text);
      expect(entries).toHaveLength(1);
      // Real records are datasets: @misc saying so, with the record's citation page.
      expect(file.text).toMatch(/^@misc\{records_\d+,/);
      expect(file.text).toContain('howpublished = {Dataset}');
      expect(entries[0]!.URL).toMatch(/^https:\/\//);
      expect(containsLoosely(String(entries[0]!.title), toPlainText(String(record.title)))).toBe(true);
      expect((entries[0]!.author as { family?: string }[])[0]?.family).toBe(familyName(record));
    },
  },
  XML: {
    extension: 'xml',
    check: async (file, deployment, record) => {
      const records = parseRecordsXml(file.text);
      expect(records).toHaveLength(1);
      expect(records[0]!.repo_id).toBe(record.repo_id);
      expect(file.text).toBe(await serverText(deployment, record.repo_id, 'application/xml'));
    },
  },
  JSON: {
    extension: 'json',
    check: async (file, deployment, record) => {
      expect(JSON.parse(file.text)).toEqual([record]);
      expect(file.text).toBe(await serverText(deployment, record.repo_id, 'application/json'));
    },
  },
  CSV: {
    extension: 'csv',
    check: async (file, deployment, record) => {
      const csv = parseCsv(file.text);
      // One column per field of the deployment, named as in the server's JSON, and the generated-record note.
      expect(csv.header).toEqual([...deployment.fields.map((field) => field.name), 'x_generated_note']);
      expect(csv.header.slice(0, -1).sort()).toEqual(Object.keys(record).sort());
      expect(csv.rows).toHaveLength(1);
      const row = csvObjects(csv)[0]!;
      expect(row.repo_id).toBe(record.repo_id);
      // Plain text as a reader sees it; authors apart by " | ", which affiliations never contain.
      expect(row.title).toBe(toPlainText(String(record.title)));
      expect(row.authors).toBe((record.authors as string[]).map(toPlainText).join(' | '));
    },
  },
  RIS: {
    extension: 'ris',
    check: async (file, _deployment, record) => {
      const lines = file.text.split(/\r?\n/).filter((line) => line.trim() !== '');
      expect(lines[0]).toMatch(/^TY {2}- [A-Z]+$/);
      expect(lines.at(-1)).toMatch(/^ER {2}-/);
      expect(lines.filter((line) => line.startsWith('TY  -'))).toHaveLength(1);
      expect(lines).toContain(`TI  - ${String(record.title)}`);
      expect(lines.some((line) => line.startsWith('AU  - ') && line.includes(familyName(record)))).toBe(true);
    },
  },
  'CSL-JSON': {
    extension: 'csl.json',
    check: async (file, _deployment, record) => {
      const items = JSON.parse(file.text) as { title?: string; author?: { family?: string }[] }[];
      expect(items).toHaveLength(1);
      expect(items[0]!.title).toBe(record.title);
      expect(items[0]!.author?.[0]?.family).toBe(familyName(record));
    },
  },
};

describe.each(realRecords)('record exports, real %s record %s', (_key, id, deployment) => {
  test('each format of the Export menu downloads a file named for the record that reads back as that record', async () => {
    const { page } = ui;
    const record = await serverRecord(deployment, id);
    await openRecord(page, deployment, id, String(record.title));
    const menuButton = page.locator('summary', { hasText: 'Export' });
    const formats = page.getByRole('list', { name: 'Export formats' });
    const failures: string[] = [];
    for (const [label, { extension, check }] of Object.entries(exportChecks)) {
      await menuButton.click();
      await formats.waitFor();
      const file = await downloadFrom(page, () => formats.getByRole('button', { name: `${label} (.${extension})` }).click());
      expect(file.name).toBe(`${deployment.slug}-${id}.${extension}`);
      await page
        .getByRole('status')
        .filter({ hasText: `Saved ${file.name}` })
        .waitFor();
      // The menu closes after a download.
      await formats.waitFor({ state: 'hidden' });
      try {
        await check(file, deployment, record);
      } catch (error) {
        failures.push(`${label} (${file.name}): ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (failures.length > 0) throw new Error(failures.join('\n\n'));
  });
});

describe('selection', () => {
  test('a selection spanning two pages survives a reload, exports exactly its records and cites them', async () => {
    const { page } = ui;
    const { term } = await findSearchTerm(lit);
    const pageOne = (await apiList(lit, { q: term })).records;
    const pageTwo = (await apiList(lit, { q: term, page: 2 })).records;
    const chosen = [pageOne[0]!, pageOne[3]!, pageTwo[1]!];
    const chosenIds = chosen.map((record) => record.repo_id);

    await gotoApp(page, searchPath(lit, { q: term }));
    await waitForResults(page);
    const bar = page.getByRole('region', { name: 'Selection' });
    // The result of a record, found by its link; its checkbox is named after the title.
    const checkbox = (record: ApiRecord) =>
      page
        .locator('article')
        .filter({ has: page.locator(`a[href$="/${lit.slug}/records/${record.repo_id}"]`) })
        .getByRole('checkbox', { name: `Select ${String(record.title)}`, exact: true });
    expect(await bar.count(), 'no selection bar before anything is selected').toBe(0);

    await checkbox(chosen[0]!).check();
    await checkbox(chosen[1]!).check();
    await bar.getByRole('status').filter({ hasText: '2 selected' }).waitFor();

    await pagination(page).getByRole('link', { name: 'Next page' }).click();
    await waitForPage(page, 2);
    await expect.poll(async () => (await resultLinks(page).first().textContent())?.trim()).toBe(String(pageTwo[0]!.title));
    await checkbox(chosen[2]!).check();
    await bar.getByRole('status').filter({ hasText: '3 selected' }).waitFor();
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await viewportShot(page, `selection-bar-${theme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // Kept for the session: a reload shows the same selection, and page 1's ticks.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForResults(page);
    await bar.getByRole('status').filter({ hasText: '3 selected' }).waitFor();
    expect(await checkbox(chosen[2]!).isChecked()).toBe(true);

    const exportSelected = async (label: string): Promise<DownloadedFile> => {
      await bar.getByLabel('Export format').selectOption({ label });
      return downloadFrom(page, () => bar.getByRole('button', { name: 'Export selected' }).click());
    };

    const json = await exportSelected('JSON');
    expect(json.name).toBe(`${lit.slug}-selection-3.json`);
    const exported = JSON.parse(json.text) as ApiRecord[];
    expect(exported.map((record) => record.repo_id)).toEqual(chosenIds);
    // The records as the API serves them; a generated demo record (seeded from 50,000,000) with the note the app adds.
    expect(exported).toEqual(
      chosen.map((record) =>
        Number(record.repo_id) >= 50_000_000 ? { ...record, x_generated_note: expect.stringMatching(/^Generated demo record:/) } : record,
      ),
    );

    const csv = await exportSelected('CSV');
    expect(csv.name).toBe(`${lit.slug}-selection-3.csv`);
    const rows = csvObjects(parseCsv(csv.text));
    expect(rows.map((row) => row.repo_id)).toEqual(chosenIds);
    expect(rows.map((row) => row.title)).toEqual(chosen.map((record) => record.title));

    const xml = await exportSelected('XML');
    expect(parseRecordsXml(xml.text).map((record) => record.repo_id)).toEqual(chosenIds);

    const bibtex = await exportSelected('BibTeX');
    expect(bibtex.name).toBe(`${lit.slug}-selection-3.bib`);
    expect(parseBibtex(bibtex.text).map((entry) => entry.title)).toEqual(chosen.map((record) => record.title));

    // Cite selected: one citation per selected record.
    await bar.getByRole('button', { name: 'Cite selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cite' });
    await dialog.waitFor();
    await dialog.getByText('3 records', { exact: true }).waitFor();
    const citations = dialog.getByRole('region', { name: 'Citations' });
    await citations.waitFor();
    expect(await citations.locator(':scope > *').count()).toBe(3);
    const citationTexts = await citations.locator(':scope > *').allInnerTexts();
    for (const record of chosen) {
      expect(
        citationTexts.filter((text) => containsLoosely(text, String(record.title))),
        `one citation of "${String(record.title)}"`,
      ).toHaveLength(1);
    }
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await viewportShot(page, `selection-cite-dialog-${theme}`);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });
});

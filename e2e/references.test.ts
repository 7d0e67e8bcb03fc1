/**
 * "Check references" at /references: a list pasted as a researcher would — shipped real
 * records (DC1 and LIT, data/real) as DOIs in three forms, as APA, Vancouver, IEEE, Chicago
 * and Nature references, as BibTeX and RIS — mixed with works the mirror does not hold. Every
 * shipped one is found and linked to its record, the others are reported not found; the found
 * ones download as BibTeX (read back by citation-js); the list and results survive a reload;
 * bad input gets a message; a long run can be stopped; keyboard only works.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { deploymentByKey } from '../src/deployments/registry';
import { generatedNote } from '../src/formats/generated-mark';
import { generateRecords } from '../src/server/corpus/generate';
import type { Deployment } from '../src/deployments/schema';
import { gotoApp } from './support/app';
import { desktop, phone, useBrowser } from './support/browser';
import { expectNoAxeViolations, screenshot } from './support/checks';
import { downloadFrom } from './support/downloads';
import { corpusSeed, corpusSize } from './setup/global-setup';

const ui = useBrowser({ acceptDownloads: true });
const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;

interface UpstreamRecord {
  osti_id: string;
  title: string;
  authors: string[];
  publication_date: string;
  doi: string;
}

const realData = resolve(dirname(fileURLToPath(import.meta.url)), '../data/real');
const read = (file: string) => JSON.parse(readFileSync(resolve(realData, file), 'utf8')) as UpstreamRecord[];
const dcRecords = [...read('dc-v1-geothermal-and-more-250.json'), ...read('dc-v1-plasma-lab-209.json')];
const litRecords = read('lit-v1-datasets-40.json');
const titleCounts = new Map<string, number>();
for (const record of [...dcRecords, ...litRecords]) titleCounts.set(record.title, (titleCounts.get(record.title) ?? 0) + 1);

/** Records a reference can be written for by hand: a unique plain title of five words or more, a named first author, a date. */
const writable = (record: UpstreamRecord) =>
  titleCounts.get(record.title) === 1 &&
  /^[A-Za-z0-9 ,:;()-]+$/.test(record.title) &&
  record.title.split(' ').length >= 5 &&
  /^[A-Z][a-z]+, [A-Z]/.test(record.authors[0] ?? '') &&
  /^\d{4}/.test(record.publication_date);
const dcWritable = dcRecords.filter(writable);
const litWritable = litRecords.filter(writable);

const surname = (record: UpstreamRecord) => record.authors[0]!.split(',')[0]!.trim();
const initial = (record: UpstreamRecord) => record.authors[0]!.split(',')[1]!.trim()[0]!;
const year = (record: UpstreamRecord) => record.publication_date.slice(0, 4);
const bareDoi = (record: UpstreamRecord) => record.doi.replace('https://doi.org/', '');

interface Expected {
  readonly deployment: Deployment;
  readonly record: UpstreamRecord;
  readonly text: string;
}

/** The shipped records, each written in one form of a pasted list. */
function mirrorReferences(): Expected[] {
  const [apa, vancouver, nature, chicago, bibtex] = dcWritable;
  const [ieee, ris] = litWritable;
  const [doiBare] = litWritable.slice(2);
  const [doiPrefixed, doiUrl] = dcWritable.slice(5);
  return [
    { deployment: lit, record: doiBare!, text: bareDoi(doiBare!) },
    { deployment: dc1, record: doiPrefixed!, text: `doi:${bareDoi(doiPrefixed!)}` },
    { deployment: dc1, record: doiUrl!, text: doiUrl!.doi },
    {
      deployment: dc1,
      record: apa!,
      text: `${surname(apa!)}, ${initial(apa!)}. (${year(apa!)}). ${apa!.title} [Data set]. U.S. Department of Energy.`,
    },
    {
      deployment: dc1,
      record: vancouver!,
      text: `1. ${surname(vancouver!)} ${initial(vancouver!)}. ${vancouver!.title}. Data set. ${year(vancouver!)};1:1.`,
    },
    {
      deployment: dc1,
      record: nature!,
      text: `${surname(nature!)}, ${initial(nature!)}. et al. ${nature!.title}. Data set (${year(nature!)}).`,
    },
    {
      deployment: dc1,
      record: chicago!,
      text: `${surname(chicago!)}, ${chicago!.authors[0]!.split(',')[1]!.split('[')[0]!.trim()}. “${chicago!.title}.” Data set, ${year(chicago!)}.`,
    },
    {
      deployment: dc1,
      record: bibtex!,
      text: `@misc{${surname(bibtex!)}${year(bibtex!)},\n  author = {${surname(bibtex!)}, ${initial(bibtex!)}.},\n  title = {${bibtex!.title}},\n  year = {${year(bibtex!)}}\n}`,
    },
    { deployment: lit, record: ieee!, text: `[2] ${initial(ieee!)}. ${surname(ieee!)}, "${ieee!.title}," data set, ${year(ieee!)}.` },
    {
      deployment: lit,
      record: ris!,
      text: `TY  - DATA\nAU  - ${surname(ris!)}, ${initial(ris!)}.\nTI  - ${ris!.title}\nPY  - ${year(ris!)}\nER  - `,
    },
  ];
}

/** Real works the mirror does not hold, in several styles and another script. */
const elsewhere = [
  'LeCun, Y., Bengio, Y., & Hinton, G. (2015). Deep learning. Nature, 521(7553), 436–444.',
  'Kuhn, Thomas S. The Structure of Scientific Revolutions. Chicago: University of Chicago Press, 1962.',
  'https://doi.org/10.1038/nature14539',
  '3. Lowry OH, Rosebrough NJ, Farr AL, Randall RJ. Protein measurement with the Folin phenol reagent. J Biol Chem. 1951;193(1):265-75.',
  'Ландау Л. Д., Лифшиц Е. М. Теоретическая физика. Т. 1. Механика. М.: Наука, 1988.',
];

const referencesBox = (page: Page) => page.getByRole('textbox', { name: 'References', exact: true });
const status = (page: Page) => page.locator('.references-status');
const group = (page: Page, name: RegExp) => page.getByRole('region', { name });

async function waitForChecked(page: Page): Promise<string> {
  await page
    .getByRole('status')
    .filter({ hasText: /^(Checked|Stopped after) [\d,]+ references?:/ })
    .waitFor({ timeout: 30_000 });
  return (await status(page).textContent()) ?? '';
}

function pastedList(expected: readonly Expected[]): string {
  // DOIs one per line; formatted references one per line; a blank line before BibTeX and RIS.
  // A numbered list's unnumbered lines continue its references, so the last one stands in a paragraph of its own.
  return [
    ...expected.slice(0, 7).map((entry) => entry.text),
    elsewhere[0],
    elsewhere[1],
    '',
    expected[7]!.text,
    expected[8]!.text,
    elsewhere[2],
    elsewhere[3],
    '',
    elsewhere[4],
    expected[9]!.text,
  ].join('\n');
}

test('a mixed list: every shipped record found and linked, the others not found; BibTeX download; kept over a reload', async () => {
  const { page } = ui;
  const expected = mirrorReferences();
  await gotoApp(page, '/references');
  await referencesBox(page).fill(pastedList(expected));
  await page.getByRole('button', { name: 'Check references' }).click();
  const summary = await waitForChecked(page);
  expect(summary).toBe(
    `Checked ${expected.length + elsewhere.length} references: ${expected.length} found, 0 probably, 0 related only, ${elsewhere.length} not found.`,
  );

  const found = group(page, /^Found \(/);
  expect(await found.getByRole('heading').textContent()).toBe(`Found (${expected.length})`);
  for (const { deployment, record } of expected) {
    const link = found.locator(`a[href="/${deployment.slug}/records/${record.osti_id}"]`);
    expect(await link.count(), `${deployment.key} ${record.osti_id} ${record.title}`).toBe(1);
    expect((await link.textContent())?.trim()).toBe(record.title);
  }
  const notFound = group(page, /^Not found \(/);
  expect(await notFound.getByRole('heading').textContent()).toBe(`Not found (${elsewhere.length})`);
  for (const text of elsewhere) await notFound.getByText(text.replace(/^3\. /, ''), { exact: false }).first().waitFor();
  await expectNoAxeViolations(page, '/references with results');
  await screenshot(page, 'references-desktop');

  // The found ones as BibTeX, read back by citation-js: one entry per work, keys naming the catalog.
  const file = await downloadFrom(page, () => page.getByRole('button', { name: `Download found (${expected.length})` }).click());
  expect(file.name).toBe(`references-found-${expected.length}.bib`);
  const entries = new Cite(file.text).data as { id: string; title: string }[];
  expect(entries.map((entry) => entry.id).sort()).toEqual(
    expected.map(({ deployment, record }) => `records_${deployment.slug}_${record.osti_id}`).sort(),
  );

  // Cite the literature catalog's found works with the cite feature.
  await page.getByRole('button', { name: `Cite (${lit.name} ${lit.version})` }).click();
  const dialog = page.getByRole('dialog', { name: 'Cite' });
  await dialog.getByRole('region', { name: 'Citations' }).waitFor();
  expect(await dialog.locator('.cite-dialog__citation').count()).toBe(expected.filter((entry) => entry.deployment === lit).length);
  await page.keyboard.press('Escape');

  // A reload brings the list and its results back from this browser.
  await page.reload();
  expect(await waitForChecked(page)).toBe(summary);
  expect(await referencesBox(page).inputValue()).toBe(pastedList(expected));
  for (const { deployment, record } of expected)
    expect(await found.locator(`a[href="/${deployment.slug}/records/${record.osti_id}"]`).count()).toBe(1);

  await page.setViewportSize(phone);
  await expectNoAxeViolations(page, '/references with results on a phone');
  await screenshot(page, 'references-phone');
  await page.setViewportSize(desktop);
});

test('bad input: an empty paste, binary junk, 10,000 lines; a long run stopped', async () => {
  const { page } = ui;
  await gotoApp(page, '/references');
  await page.getByRole('button', { name: 'Check references' }).click();
  await page.getByRole('alert').filter({ hasText: 'Paste a reference list or open a file first.' }).waitFor();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
  await expectNoAxeViolations(page, '/references with an empty paste');

  // Binary junk through the file picker.
  const junk = Buffer.from(Array.from({ length: 30_000 }, (_, index) => (index * 7919) % 256));
  await page.getByLabel('Or open a file (BibTeX, RIS or text)').setInputFiles({ name: 'figure.png', mimeType: 'image/png', buffer: junk });
  await page.getByText('Checking the file figure.png').waitFor();
  await page.getByRole('button', { name: 'Check references' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: /This is not text|does not look like text/ })
    .waitFor();
  await page.getByRole('button', { name: 'Use the text box' }).click();
  expect(await referencesBox(page).isEnabled()).toBe(true);

  // A file of 10,000 lines: the first 500 references are checked, the rest named; the run can be stopped.
  const lines = Array.from(
    { length: 10_000 },
    (_, n) => `${n + 1}. Author A, Writer B. Measurements of plasma number ${n + 1} in a test device. J Test. 2001;${n}:1-2.`,
  );
  await page
    .getByLabel('Or open a file (BibTeX, RIS or text)')
    .setInputFiles({ name: 'long-list.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) });
  await page.getByText('Checking the file long-list.txt').waitFor();
  await page.getByRole('button', { name: 'Check references' }).click();
  await page.getByText('Only the first 500 references are checked in one run; 9,500 more references were left out.').waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: /^Checked [\d,]+ of 500 references/ })
    .waitFor();
  await page.getByRole('button', { name: 'Stop' }).click();
  const stopped = await waitForChecked(page);
  expect(stopped).toMatch(/^Stopped after [\d,]+ references?: /);
  expect(Number(/after ([\d,]+)/.exec(stopped)![1]!.replace(/,/g, ''))).toBeLessThan(500);
  await page.getByRole('button', { name: 'Check references' }).waitFor();
  await expectNoAxeViolations(page, '/references stopped');

  // A 5 MB BibTeX file: cut into its 20,000 entries, a run's worth read and looked up, stopped.
  const entry = (n: number) =>
    `@misc{entry${n},\n  author = {Author, A.},\n  title = {Measurements of plasma number ${n} in a test device},\n  note = {${'x'.repeat(170)}},\n  year = {2001}\n}\n`;
  const bibtex = Buffer.from(Array.from({ length: 20_000 }, (_, n) => entry(n)).join('\n'));
  expect(bibtex.length).toBeGreaterThan(5_000_000);
  await page
    .getByLabel('Or open a file (BibTeX, RIS or text)')
    .setInputFiles({ name: 'library.bib', mimeType: 'application/x-bibtex', buffer: bibtex });
  await page.getByText('Checking the file library.bib').waitFor();
  await page.getByRole('button', { name: 'Check references' }).click();
  await page.getByText('Only the first 500 references are checked in one run; 19,500 more references were left out.').waitFor();
  await page.getByRole('button', { name: 'Stop' }).click();
  expect(await waitForChecked(page)).toMatch(/^Stopped after [\d,]+ references?: /);
});

test('100 references checked with progress shown (time logged, not asserted: the machine is shared)', async () => {
  const { page } = ui;
  const pool = [...dcWritable, ...litWritable];
  const list = Array.from({ length: 100 }, (_, n) => {
    const record = pool[n % pool.length]!;
    return n % 2 === 0 ? record.doi : `${surname(record)}, ${initial(record)}. (${year(record)}). ${record.title}.`;
  });
  await gotoApp(page, '/references');
  await referencesBox(page).fill(list.join('\n'));
  const started = performance.now();
  await page.getByRole('button', { name: 'Check references' }).click();
  const summary = await waitForChecked(page);
  console.log(`[references] 100 references checked in ${((performance.now() - started) / 1000).toFixed(1)} s: ${summary}`);
  expect(summary).toMatch(/^Checked 100 references: 100 found, 0 probably, 0 related only, 0 not found\.$/);
});

test('keyboard only: type the list, check it, open a found record', async () => {
  const { page } = ui;
  const [record] = dcWritable;
  await gotoApp(page, '/references');
  await referencesBox(page).waitFor();
  for (let presses = 0; presses < 30; presses++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.tagName === 'TEXTAREA')) break;
  }
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
  await page.keyboard.type(record!.doi);
  // Past the file picker to the Check button.
  for (let presses = 0; presses < 5; presses++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.textContent === 'Check references')) break;
  }
  await page.keyboard.press('Enter');
  await waitForChecked(page);
  const link = page.locator(`a[href="/${dc1.slug}/records/${record!.osti_id}"]`);
  for (let presses = 0; presses < 40; presses++) {
    await page.keyboard.press('Tab');
    if (await link.evaluate((element) => element === document.activeElement)) break;
  }
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: record!.title }).waitFor();
});

test('a catalog that cannot be asked is said once; the others still find their records', async () => {
  const { page } = ui;
  const pat = deploymentByKey('PAT')!;
  await page.route(`**${pat.basePath}/**`, (route) => route.abort('failed'));
  const [record] = dcWritable;
  await gotoApp(page, '/references');
  await referencesBox(page).fill([record!.doi, elsewhere[0]].join('\n'));
  await page.getByRole('button', { name: 'Check references' }).click();
  expect(await waitForChecked(page)).toBe('Checked 2 references: 1 found, 0 probably, 0 related only, 1 not found.');
  await page.getByText(`${pat.name} ${pat.version} could not be asked about 2 references: The server could not be reached.`).waitFor();
  await group(page, /^Not found/)
    .getByText(`not asked: ${pat.name} ${pat.version}.`, { exact: false })
    .waitFor();
  expect(
    await group(page, /^Found/)
      .locator(`a[href="/${dc1.slug}/records/${record!.osti_id}"]`)
      .count(),
  ).toBe(1);
  await expectNoAxeViolations(page, '/references with a catalog that cannot be asked');
});

test('a catalog that hangs is given up after its timeout and said so; the run finishes', async () => {
  const { page } = ui;
  // LIT takes every request and never answers.
  await page.route(`**${lit.basePath}/**`, () => {});
  const [record] = dcWritable;
  await gotoApp(page, '/references');
  await referencesBox(page).fill([record!.doi, ...elsewhere.slice(0, 3)].join('\n'));
  await page.getByRole('button', { name: 'Check references' }).click();
  expect(await waitForChecked(page)).toMatch(/^Checked 4 references: 1 found, .*3 not found\.$/);
  await page
    .getByText(
      `${lit.name} ${lit.version} could not be asked about 4 references: No answer within 15 seconds. It was not asked again in this run.`,
    )
    .waitFor();
  await expectNoAxeViolations(page, '/references with a catalog that hangs');
  await page.unroute(`**${lit.basePath}/**`);
});

test('8 MB lists are read off the page: the tab never stalls, and Stop ends the reading', async () => {
  const { page } = ui;
  await gotoApp(page, '/references');
  // The longest pause between timer ticks on the page's thread, from here on.
  await page.evaluate(() => {
    const state = window as unknown as { longestStall: number };
    state.longestStall = 0;
    let last = performance.now();
    setInterval(() => {
      const now = performance.now();
      state.longestStall = Math.max(state.longestStall, now - last - 20);
      last = now;
    }, 20);
  });
  const open = async (name: string, text: string) => {
    await page
      .getByLabel('Or open a file (BibTeX, RIS or text)')
      .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.getByText(`Checking the file ${name}`).waitFor();
    await page.evaluate(() => ((window as unknown as { longestStall: number }).longestStall = 0));
  };
  const longestStall = () => page.evaluate(() => (window as unknown as { longestStall: number }).longestStall);

  // 8 MB of lines without a year: one paragraph, read as one reference.
  await open('no-years.txt', 'Some words of a reference without any year here\n'.repeat(160_000));
  await page.getByRole('button', { name: 'Check references' }).click();
  expect(await waitForChecked(page)).toMatch(/^Checked 1 reference: /);
  expect(await longestStall()).toBeLessThan(1_000);

  // 8 MB of BibTeX entries full of braces keep the reader busy: Stop while it reads.
  const entry = (n: number) => `@article{k${n},\n  title = {A title ${n}},\n  note = {${'word {x} '.repeat(5_000)}}\n}\n`;
  await open('braces.bib', Array.from({ length: 170 }, (_, n) => entry(n)).join('\n'));
  await page.getByRole('button', { name: 'Check references' }).click();
  await page.getByRole('status').filter({ hasText: 'Reading the list…' }).waitFor();
  await page.getByRole('button', { name: 'Stop' }).click();
  expect(await waitForChecked(page)).toMatch(/^Stopped after [\d,]+ references?: /);
  expect(await longestStall()).toBeLessThan(1_000);
  await page.getByRole('button', { name: 'Check references' }).waitFor();
  await expectNoAxeViolations(page, '/references stopped while reading');
});

test('another work is never found: the article of a held dataset, an article titled as one, another author; a generated record is marked, one entry per work', async () => {
  const { page } = ui;
  // A generated literature record of the e2e store (the generator is deterministic), cited twice.
  const demo = [...generateRecords(lit, corpusSize, { seed: corpusSeed })]
    .map((stored) => stored.record)
    .find((record) => typeof record.doi === 'string' && record.doi !== '')!;
  const demoDoi = String(demo.doi).replace('https://doi.org/', '');
  const list = [
    'Fredrickson ED, Belova EV, Battaglia DJ, et al. Suppression of Alfvén modes on the National Spherical Torus Experiment Upgrade with outboard beam injection. Phys Rev Lett. 2017;118(26):265001. doi:10.1103/PhysRevLett.118.265001',
    'Menard JE, Brown T, El-Guebaly L, et al. Fusion nuclear science facilities and pilot plants based on the spherical tokamak. Nucl Fusion. 2016;56(10):106023.',
    'Smith, A. (2017). A reduced resistive wall mode kinetic stability model for disruption forecasting. PPPL.',
    'Berkery, J. W., & Sabbagh, S. A. (2017). A reduced resistive wall mode kinetic stability model for disruption forecasting [Data set]. PPPL.',
    demoDoi,
    `https://doi.org/${demoDoi}`,
  ].join('\n');
  await gotoApp(page, '/references');
  await referencesBox(page).fill(list);
  await page.getByRole('button', { name: 'Check references' }).click();
  expect(await waitForChecked(page)).toBe('Checked 6 references: 3 found, 1 probably, 2 related only, 0 not found.');

  // The article whose dataset the mirror holds, and the article titled as a dataset: each said for what it is.
  const related = group(page, /^Not the same work/);
  expect(await related.getByRole('heading').textContent()).toBe('Not the same work (a related record is held) (2)');
  const alfven = related.getByRole('listitem').filter({ hasText: 'Fredrickson ED' }).first();
  expect(await alfven.locator('.reference__assessment').textContent()).toBe(
    'Dataset of this article · Same: first author, year · Close: title · Differs: DOI, type (dataset, not article)',
  );
  const menard = related.getByRole('listitem').filter({ hasText: 'Menard JE' }).first();
  expect(await menard.locator('.reference__assessment').textContent()).toBe(
    'Dataset with this title (the reference cites an article) · Same: title, first author, year · Differs: type (dataset, not article)',
  );
  const probable = group(page, /^Probably/);
  expect(await probable.locator('.reference__assessment').textContent()).toBe(
    'Probably the same work: check · Same: title, year · Differs: first author',
  );

  // The generated record: marked in its rows, counted once, noted in the file and in the Cite dialog.
  const found = group(page, /^Found \(/);
  expect(await found.locator('.generated-badge').count()).toBe(2);
  await page.getByText('1 of 2 are generated demo records; the file says so in each of their entries.').waitFor();
  await expectNoAxeViolations(page, '/references with related works and a generated record');
  await screenshot(page, 'references-related-desktop');
  const file = await downloadFrom(page, () => page.getByRole('button', { name: 'Download found (2)' }).click());
  const entries = new Cite(file.text).data as { id: string; note?: string }[];
  expect(entries.map((entry) => entry.id).sort()).toEqual([`records_${dc1.slug}_1367870`, `records_${lit.slug}_${demo.repo_id}`]);
  expect(entries.find((entry) => entry.id === `records_${lit.slug}_${demo.repo_id}`)?.note).toBe(generatedNote);
  expect(entries.find((entry) => entry.id === `records_${dc1.slug}_1367870`)?.note).toBeUndefined();
  await page.getByText(`${lit.name} ${lit.version}: 1 work (1 generated demo)`).waitFor();
  await page.getByRole('button', { name: `Cite (${lit.name} ${lit.version})` }).click();
  const dialog = page.getByRole('dialog', { name: 'Cite' });
  await dialog.getByRole('region', { name: 'Citations' }).waitFor();
  expect(await dialog.locator('.cite-dialog__citation').count()).toBe(1);
  await dialog.getByText('Generated demo record.').waitFor();
  await page.keyboard.press('Escape');

  await page.setViewportSize(phone);
  await expectNoAxeViolations(page, '/references with related works on a phone');
  await screenshot(page, 'references-related-phone');
  await page.setViewportSize(desktop);
});

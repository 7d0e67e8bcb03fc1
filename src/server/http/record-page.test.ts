import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore, StoredRecord } from '../store/types';
import { startServer, type RunningServer } from './server';

/** The server-sent record page, read as a client that runs no script reads it. */

const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;
const mm = deploymentByKey('MM')!;
let dir: string;
let store: RecordStore;
let server: RunningServer;
let generated: StoredRecord[];

const hostile: StoredRecord = {
  record: {
    repo_id: '777',
    title: '<script>alert(1)</script> Tit&amp;le with <sub>2</sub>',
    authors: ['Bold, <b>Eve</b> [Org <img src=x onerror=alert(1)>]'],
    description: 'Plain <em>emphasis</em> and <script>alert(2)</script>.',
    links: [
      { rel: 'citation', href: 'javascript:alert(3)' },
      { rel: 'fulltext', href: 'https://example.org/"onmouseover="x' },
    ],
  },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'records-record-page-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>Records</title></head><body><div id="root"></div></body></html>',
  );
  const writer = openStoreWriter(join(dir, 'records.db'));
  generated = [...generateRecords(mm, 60, { seed: 5 })].map((stored) => ({ ...stored, generated: true }));
  writer.put('MM', generated);
  writer.put('DC1', readUpstreamFiles(dc1, [new URL(realFiles.plasma, realData).pathname]));
  writer.put('LIT', [...readUpstreamFiles(lit, [new URL(realFiles.litJson, realData).pathname]), hostile]);
  writer.close();
  store = openStore(join(dir, 'records.db'));
  server = await startServer({ store, port: 0, host: '127.0.0.1', staticDir: dir });
});

afterAll(async () => {
  await server?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Element {
  readonly name: string;
  readonly attribs: Record<string, string>;
  readonly text: string;
}

/** The elements inside the app's root, in document order, each with its text. */
async function rootElements(slug: string, id: string): Promise<Element[]> {
  const response = await fetch(`${server.url}/${slug}/records/${encodeURIComponent(id)}`);
  expect(response.status).toBe(200);
  type Node = { type: string; name?: string; attribs?: Record<string, string>; data?: string; children?: Node[] };
  const textOf = (node: Node): string => (node.type === 'text' ? node.data! : (node.children ?? []).map(textOf).join(''));
  const found: Element[] = [];
  let inRoot = false;
  const visit = (node: Node) => {
    const isRoot = node.attribs?.id === 'root';
    if (isRoot) inRoot = true;
    else if (inRoot && node.name) found.push({ name: node.name, attribs: node.attribs ?? {}, text: textOf(node) });
    for (const child of node.children ?? []) visit(child);
    if (isRoot) inRoot = false;
  };
  visit(parseDocument(await response.text()));
  return found;
}

const classed = (elements: readonly Element[], name: string) =>
  elements.find((element) => element.attribs.class?.split(' ').includes(name));
const indexOf = (elements: readonly Element[], test: (element: Element) => boolean) => elements.findIndex(test);

describe('the server-sent record page', () => {
  it('DC1 1562055 in the app’s order: title, authors, publication line, abstract, links, then details with identifiers and codes last', async () => {
    const page = await rootElements(dc1.slug, '1562055');
    const order = [
      indexOf(page, (element) => element.name === 'h1'),
      indexOf(page, (element) => element.attribs['aria-label'] === 'Authors'),
      indexOf(page, (element) => element.attribs.class === 'record__publication'),
      indexOf(page, (element) => element.attribs.class === 'record__abstract'),
      indexOf(page, (element) => element.attribs['aria-label'] === 'Links'),
      indexOf(page, (element) => element.attribs.class === 'record__details'),
    ];
    expect(order.every((position, index) => position > (order[index - 1] ?? -1))).toBe(true);
    expect(page.find((element) => element.name === 'h1')?.text).toBe('Suppression of Alfvén modes on NSTX-U with outboard beam injection');
    expect(page.filter((element) => element.name === 'li' && element.text === 'Fredrickson, E D')).toHaveLength(1);
    expect(classed(page, 'record__publication')?.text).toBe('2017, Princeton Plasma Physics Lab. (PPPL)');
    const doi = page.find((element) => element.name === 'a' && element.text === 'DOI 10.11578/1562055');
    expect(doi?.attribs.href).toBe('https://doi.org/10.11578/1562055');
    expect(page.filter((element) => element.name === 'dt').map((element) => element.text)).toEqual([
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
    // The upstream's "size 0" is no value, on this page as in the app.
    expect(page.some((element) => element.name === 'dt' && element.text === 'Size')).toBe(false);
  });

  it('folds LIT 1670777’s 31 authors after ten in a <details> that works without script', async () => {
    const page = await rootElements(lit.slug, '1670777');
    const list = page.find((element) => element.attribs['aria-label'] === 'Authors')!;
    const details = page.find((element) => element.name === 'details')!;
    expect(page.find((element) => element.name === 'summary')?.text).toBe('and 21 more authors');
    expect(list.text.startsWith('Nayfach, StephenRoux, Simon')).toBe(true);
    expect(list.text).toContain('Huntemann, Marcel');
    expect(list.text).not.toContain('Palaniappan, Krishna');
    // The eleventh to the last, behind the summary.
    expect(details.text).toContain('Palaniappan, Krishna');
    expect(details.text.endsWith('Eloe-Fadrosh, Emiley A.')).toBe(true);
    expect(details.text).not.toContain('Nayfach');
  });

  it('says a generated record is one, and does not link its made-up DOI', async () => {
    const record: ApiRecord = generated.find((stored) => stored.record.doi)!.record;
    const page = await rootElements(mm.slug, record.repo_id);
    expect(classed(page, 'generated-notice')?.text).toContain('Generated demo record.');
    const links = page.find((element) => element.attribs['aria-label'] === 'Links')!;
    expect(links.text).toContain('DOI 10.');
    expect(page.some((element) => element.name === 'a' && element.text.startsWith('DOI '))).toBe(false);
  });

  it('marks a generated record in every format unAPI gives a reference manager, and a real one in none', async () => {
    const unapi = async (id: string, format: string) => (await fetch(`${server.url}/unapi?id=${id}&format=${format}`)).text();
    const note = 'Generated demo record';
    for (const format of ['rdf_zotero', 'mods', 'ris', 'bibtex']) {
      expect(await unapi(`MM:${generated[0]!.record.repo_id}`, format), format).toContain(note);
      expect(await unapi('DC1:1562055', format), format).not.toContain(note);
    }
  });

  it('keeps a hostile record’s markup and script as text, and makes no link of a non-web address', async () => {
    const response = await fetch(`${server.url}/${lit.slug}/records/777`);
    const html = await response.text();
    const root = html.slice(html.indexOf('<div id="root">'));
    expect(root).not.toMatch(/<script|<img|onerror=|onmouseover="|javascript:/i);
    const page = await rootElements(lit.slug, '777');
    expect(page.find((element) => element.name === 'h1')?.text).toBe('<script>alert(1)</script> Tit&le with ₂');
    expect(classed(page, 'record__abstract-text')?.text).toBe('Plain emphasis and <script>alert(2)</script>.');
    expect(page.some((element) => element.name === 'em' && element.text === 'emphasis')).toBe(true);
    const hrefs = page.filter((element) => element.name === 'a').map((element) => element.attribs.href);
    expect(hrefs).toEqual(['https://example.org/"onmouseover="x']);
  });
});

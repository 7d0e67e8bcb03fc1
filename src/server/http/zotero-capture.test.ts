import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey, type ApiRecord } from '../../deployments/registry';
import { bareDoi } from '../../formats/text';
import { generateRecords } from '../corpus/generate';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore, StoredRecord } from '../store/types';
import { startServer, type RunningServer } from './server';
import { embeddedMetadataItem, modsItem } from './zotero-rules';

/**
 * Capture as Zotero does it, with no script run: a record page's meta tags (Embedded
 * Metadata), a search page's unAPI ids and COinS, and the MODS unAPI hands over. Zotero's
 * translation-server is not on npm, so its translators' rules are restated in zotero-rules.ts.
 */

const dc1 = deploymentByKey('DC1')!;
const lit = deploymentByKey('LIT')!;
const mm = deploymentByKey('MM')!;
const pat = deploymentByKey('PAT')!;
let dir: string;
let store: RecordStore;
let server: RunningServer;
const generated = new Map<string, StoredRecord[]>();

/** A generated record of one product type, one that has what the check needs. */
function generatedOf(key: string, productType: string, has: (record: ApiRecord) => boolean = () => true): ApiRecord {
  const found = generated
    .get(key)!
    .map((stored) => stored.record)
    .find((record) => record.product_type === productType && has(record));
  if (!found) throw new Error(`no generated ${key} ${productType}`);
  return found;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'records-zotero-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>Records</title></head><body><div id="root"></div></body></html>',
  );
  const writer = openStoreWriter(join(dir, 'records.db'));
  for (const deployment of [lit, mm, pat]) {
    const records = [...generateRecords(deployment, 120, { seed: 3 })];
    generated.set(deployment.key, records);
    writer.put(deployment.key, records);
  }
  writer.put('DC1', readUpstreamFiles(dc1, [new URL(realFiles.plasma, realData).pathname]));
  writer.put('LIT', readUpstreamFiles(lit, [new URL(realFiles.litJson, realData).pathname]));
  writer.close();
  store = openStore(join(dir, 'records.db'));
  server = await startServer({ store, port: 0, host: '127.0.0.1', staticDir: dir });
});

afterAll(async () => {
  await server?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = async (path: string) => {
  const response = await fetch(`${server.url}${path}`);
  expect(response.status, path).toBe(200);
  return response.text();
};
const recordPage = (slug: string, id: string) => page(`/${slug}/records/${encodeURIComponent(id)}`);
const doiOf = (record: ApiRecord) => bareDoi(String(record.doi));

describe('a record page, read by Embedded Metadata', () => {
  it('a video is a videoRecording with its studio', async () => {
    const video = generatedOf('MM', 'Video', (record) => Array.isArray(record.research_orgs) && record.research_orgs.length > 0);
    const item = embeddedMetadataItem(await recordPage(mm.slug, video.repo_id));
    expect(item.itemType).toBe('videoRecording');
    expect(item.fields.studio).toBeTruthy();
    expect(item.fields.title).toBe(video.title);
  });

  it('a patent is a patent with its number', async () => {
    const patent = generatedOf('PAT', 'Patent', (record) => Boolean(record.report_number));
    const item = embeddedMetadataItem(await recordPage(pat.slug, patent.repo_id));
    expect(item.itemType).toBe('patent');
    expect(item.fields.patentNumber).toBe(patent.report_number);
  });

  it('a report is a report with its institution and number', async () => {
    const report = generatedOf(
      'LIT',
      'Technical Report',
      (record) => Boolean(record.report_number) && Array.isArray(record.research_orgs) && record.research_orgs.length > 0,
    );
    const item = embeddedMetadataItem(await recordPage(lit.slug, report.repo_id));
    expect(item.itemType).toBe('report');
    expect(item.fields.reportNumber).toBe(report.report_number);
    expect(item.fields.institution).toBeTruthy();
  });

  it('a real dataset (DC1 1562055) is a dataset with its repository and DOI', async () => {
    const item = embeddedMetadataItem(await recordPage(dc1.slug, '1562055'));
    expect(item.itemType).toBe('dataset');
    expect(item.fields.repository).toBe('Princeton Plasma Physics Lab. (PPPL)');
    expect(item.fields.DOI).toMatch(/^10\.11578\//);
    expect(item.fields.title).toBe('Suppression of Alfvén modes on NSTX-U with outboard beam injection');
  });

  it('a journal article is a journalArticle with journal, volume, issue and DOI', async () => {
    const article = generatedOf('LIT', 'Journal Article', (record) => Boolean(record.journal_volume && record.journal_issue && record.doi));
    const item = embeddedMetadataItem(await recordPage(lit.slug, article.repo_id));
    expect(item).toMatchObject({
      itemType: 'journalArticle',
      fields: { publicationTitle: article.journal_name, volume: article.journal_volume, issue: article.journal_issue, DOI: doiOf(article) },
    });
  });
});

describe('a search page, read with no script', () => {
  it('offers every result by an unAPI id and a COinS span, and the MODS behind each id is typed and keeps its DOI', async () => {
    const html = await page(`/${lit.slug}?rows=40&sort=entry_date`);
    const ids = [...html.matchAll(/<abbr class="unapi-id" title="([^"]+)">/g)].map((match) => match[1]!);
    expect(ids).toHaveLength(40);
    expect(html.match(/<span class="Z3988" title="ctx_ver=Z39\.88-2004&amp;/g)).toHaveLength(40);
    expect(html).toMatch(/<link rel="unapi-server"/);
    const records = new Map([...generated.get('LIT')!.map((stored) => stored.record)].map((record) => [record.repo_id, record]));
    const expectedType: Record<string, string> = {
      'Journal Article': 'journalArticle',
      'Technical Report': 'report',
      Dataset: 'dataset',
      Conference: 'conferencePaper',
      'Thesis/Dissertation': 'thesis',
      Book: 'book',
    };
    let withDoi = 0;
    for (const id of ids) {
      const item = modsItem(await page(`/unapi?id=${encodeURIComponent(id)}&format=mods`));
      const record = records.get(id.slice('LIT:'.length)) ?? (await store.get('LIT', id.slice('LIT:'.length)))!;
      expect(item.itemType, id).toBe(expectedType[String(record.product_type)]);
      if (record.doi && item.itemType !== 'book') {
        expect(item.fields.DOI, id).toBe(doiOf(record));
        withDoi++;
      }
      if (item.itemType === 'journalArticle') expect(item.fields.publicationTitle, id).toBe(record.journal_name);
    }
    expect(withDoi).toBeGreaterThan(10);
  });

  it('a search the server refuses, or that finds nothing, is the bare app', async () => {
    for (const query of ['?publication_date_start=2020-02-30', '?q=zzzznothing']) {
      const html = await page(`/${lit.slug}${query}`);
      expect(html).toContain('<div id="root"></div>');
    }
  });
});

describe('unAPI with a bare id', () => {
  it('names the one record of the one catalog that has it, and lists the choices where several do', async () => {
    const bibtex = await fetch(`${server.url}/unapi?id=1562055&format=bibtex`);
    expect(bibtex.status).toBe(200);
    expect(await bibtex.text()).toMatch(/^@misc\{records_1562055,/);
    const shared = generated.get('LIT')![0]!.record.repo_id;
    const ambiguous = await fetch(`${server.url}/unapi?id=${shared}&format=bibtex`);
    expect(ambiguous.status).toBe(300);
    const body = await ambiguous.text();
    expect(body).toContain(`<id>LIT:${shared}</id>`);
    expect(body).toContain(`<id>MM:${shared}</id>`);
    expect((await fetch(`${server.url}/unapi?id=999999999&format=bibtex`)).status).toBe(404);
  });
});

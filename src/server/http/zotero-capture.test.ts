import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey, deployments, type ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { bareDoi } from '../../formats/text';
import { generateRecords } from '../corpus/generate';
import { readUpstreamFiles } from '../import/files';
import { realData, realFiles } from '../import/real-files.test-support';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore } from '../store/types';
import { startServer, type RunningServer } from './server';
import {
  embeddedMetadataItem,
  extraValue,
  modsItem,
  risItem,
  unapiChoice,
  zoteroRdfItem,
  type ReadOptions,
  type ZoteroItem,
} from './zotero-translators.test-support';

/**
 * Capture as Zotero does it, with no script run: a record page's meta tags (Embedded
 * Metadata), a search page's unAPI ids and the format Zotero's unAPI translator picks, and
 * the RIS and MODS unAPI also offers, each read with the mappings Zotero's translators
 * publish (zotero-translators.test-support.ts). One record of every product type of every
 * deployment, each with a DOI, a number and an issuing organisation, so a loss shows.
 */

/**
 * The Zotero item type of each product type the deployments name, from Zotero's own tables:
 * MODS.js's DCT genres (Software → computerProgram, InteractiveResource → webpage, Sound →
 * audioRecording, MovingImage → videoRecording), RIS.js's type map (SLIDE → presentation,
 * RPRT → report, THES → thesis, PAT → patent, DATA → dataset, CONF → conferencePaper).
 */
const expectedType: Readonly<Record<string, string>> = {
  'Journal Article': 'journalArticle',
  'Technical Report': 'report',
  Conference: 'conferencePaper',
  'Thesis/Dissertation': 'thesis',
  Book: 'book',
  Dataset: 'dataset',
  Collection: 'dataset',
  Software: 'computerProgram',
  'Interactive Resource': 'webpage',
  Patent: 'patent',
  'Patent Application': 'patent',
  Video: 'videoRecording',
  Audio: 'audioRecording',
  Presentation: 'presentation',
};

/** Where each type keeps a record's report, patent or product number (schema.json's base field `number`). */
const numberFieldOf: Readonly<Record<string, string>> = { report: 'reportNumber', patent: 'patentNumber', dataset: 'identifier' };

interface Case {
  readonly deployment: Deployment;
  readonly record: ApiRecord;
  readonly itemType: string;
  readonly number: string;
  readonly numberLabel: string;
  readonly doi: string;
}

let dir: string;
let store: RecordStore;
let server: RunningServer;
const cases: Case[] = [];
const has = (deployment: Deployment, field: string) => deployment.fields.some((each) => each.name === field);

/** A generated record made into one of the product type, with every datum a capture can lose. */
function caseOf(deployment: Deployment, base: ApiRecord, productType: string, index: number): Case {
  const numberField = has(deployment, 'report_number') ? 'report_number' : 'product_number';
  const number = `DEMO-${deployment.key}-${index}/7`;
  const doi = `10.5555/zotero.${deployment.key.toLowerCase()}.${index}`;
  const record: Record<string, unknown> = {
    ...base,
    product_type: productType,
    title: `${productType} number ${index} of ${deployment.name}`,
    doi: `https://doi.org/${doi}`,
    [numberField]: number,
    publisher: '',
  };
  const org = 'Princeton Plasma Physics Lab. (PPPL), Princeton, NJ (United States)';
  if (has(deployment, 'research_orgs')) record.research_orgs = [org];
  if (has(deployment, 'research_org')) record.research_org = org;
  if (has(deployment, 'journal_issue')) {
    const article = productType === 'Journal Article';
    Object.assign(record, {
      journal_name: article ? 'Physics of Plasmas' : '',
      journal_volume: article ? '31' : '',
      journal_issue: article ? '4' : '',
    });
  }
  // A recording links one of the served sample files, whose length is known.
  const media = { Video: '/media/sample-video.webm', Audio: '/media/sample-melody.mp3' }[productType];
  if (media && has(deployment, 'links')) record.links = [{ rel: 'media', href: media }];
  return {
    deployment,
    record: record as ApiRecord,
    itemType: expectedType[productType]!,
    number,
    numberLabel: numberField === 'report_number' ? 'Report Number' : 'Product Number',
    doi,
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'records-zotero-'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html><head><title>Records</title></head><body><div id="root"></div></body></html>',
  );
  const writer = openStoreWriter(join(dir, 'records.db'));
  for (const deployment of deployments) {
    const generated = [...generateRecords(deployment, deployment.productTypes.length, { seed: 5 })];
    const own = deployment.productTypes.map((productType, index) => caseOf(deployment, generated[index]!.record, productType, index));
    cases.push(...own);
    writer.put(
      deployment.key,
      own.map((each, index) => ({ ...generated[index]!, record: each.record })),
    );
  }
  const dc1 = deploymentByKey('DC1')!;
  writer.put('DC1', readUpstreamFiles(dc1, [new URL(realFiles.plasma, realData).pathname]));
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
const pagePath = ({ deployment, record }: Case) => `/${deployment.slug}/records/${encodeURIComponent(record.repo_id)}`;
const unapi = ({ deployment, record }: Case, format: string) =>
  page(`/unapi?id=${deployment.key}:${encodeURIComponent(record.repo_id)}&format=${format}`);
/** Where the record lives: its own address (a dataset's site), else its page here. */
const urlOf = (each: Case) =>
  typeof each.record.site_url === 'string' && /^https?:\/\//.test(each.record.site_url)
    ? each.record.site_url
    : `${server.url}${pagePath(each)}`;
const named = (each: Case) => `${each.deployment.key} ${String(each.record.product_type)}`;

/** The number is where the type keeps it, or a labelled Extra line where the type has no field for it. */
function expectNumberKept(item: ZoteroItem, each: Case) {
  const field = numberFieldOf[item.itemType];
  if (field) expect(item.fields[field], named(each)).toBe(each.number);
  else expect(extraValue(item, each.numberLabel), named(each)).toBe(each.number);
}

/** The DOI is its field, or (where the schema gives the type none) an Extra line Zotero moves there later. */
function expectDoiKept(item: ZoteroItem, each: Case) {
  expect(item.fields.DOI ?? extraValue(item, 'DOI'), named(each)).toBe(each.doi);
}

describe('every product type of every deployment', () => {
  it('covers every product type the deployments name', () => {
    const unnamed = deployments.flatMap((deployment) => deployment.productTypes.filter((type) => !expectedType[type]));
    expect(unnamed).toEqual([]);
    expect(cases.length).toBe(deployments.reduce((sum, deployment) => sum + deployment.productTypes.length, 0));
  });

  it('a record page is captured (Embedded Metadata) as the right item type, with its DOI, number and issuer', async () => {
    for (const each of cases) {
      const url = `${server.url}${pagePath(each)}`;
      const item = embeddedMetadataItem(await page(pagePath(each)), url);
      expect(item.itemType, named(each)).toBe(each.itemType);
      expect(item.fields.title, named(each)).toBe(each.record.title);
      expect(item.fields.DOI, named(each)).toBe(each.doi);
      expect(item.fields.url, named(each)).toBe(url);
      const numberField = numberFieldOf[item.itemType];
      if (numberField) expect(item.fields[numberField], named(each)).toBe(each.number);
      const issuer = { report: 'institution', thesis: 'university', dataset: 'repository', videoRecording: 'studio' }[item.itemType];
      if (issuer) expect(item.fields[issuer], named(each)).toBe('Princeton Plasma Physics Lab. (PPPL)');
      if (item.itemType === 'videoRecording') expect(item.fields.runningTime, named(each)).toBe('0:00:03');
    }
  });

  it('unAPI offers Zotero RDF, which Zotero prefers, and it keeps type, url, DOI and number on every schema', async () => {
    const choice = unapiChoice(await page('/unapi'));
    expect(choice).toEqual({ name: 'rdf_zotero', reads: 'rdf_zotero' });
    for (const each of cases) {
      const rdf = await unapi(each, choice!.name);
      for (const options of [{ schemaVersion: 41 }, { schemaVersion: 29 }] satisfies ReadOptions[]) {
        const item = zoteroRdfItem(rdf, options);
        expect(item.itemType, named(each)).toBe(each.itemType);
        expect(item.fields.title, named(each)).toBe(each.record.title);
        expect(item.fields.url, named(each)).toBe(urlOf(each));
        expectDoiKept(item, each);
        expectNumberKept(item, each);
        expect(item.creators.length, named(each)).toBe((each.record.authors as unknown[]).length);
        if (['videoRecording', 'audioRecording'].includes(item.itemType)) expect(item.fields.runningTime, named(each)).toBe('0:00:03');
      }
    }
  });

  it('RIS puts each number where Zotero reads it: SN for a report or patent, NV for a dataset, Extra elsewhere', async () => {
    for (const each of cases) {
      const item = risItem(await unapi(each, 'ris'));
      expect(item.itemType, named(each)).toBe(each.itemType);
      expectNumberKept(item, each);
      expect(item.fields.DOI, named(each)).toBe(each.doi);
      expect(item.fields.url, named(each)).toBe(urlOf(each));
      // A number or a language is never read as something it is not.
      expect(item.fields.issue, named(each)).toBe(each.record.journal_issue || undefined);
      for (const field of ['seriesNumber', 'system', 'programmingLanguage', 'applicationNumber'])
        expect(item.fields[field], `${named(each)} ${field}`).toBeUndefined();
      if (item.itemType === 'thesis') expect(item.fields.university, named(each)).toBe('Princeton Plasma Physics Lab. (PPPL)');
    }
  });

  it('MODS, for other readers, still types every record and keeps its url and DOI', async () => {
    for (const each of cases) {
      const item = modsItem(await unapi(each, 'mods'));
      expect(item.itemType, named(each)).toBe(each.itemType);
      expect(item.fields.url, named(each)).toBe(urlOf(each));
      expect(item.fields.DOI, named(each)).toBe(each.doi);
    }
  });
});

describe('real records', () => {
  it('a real dataset page (DC1 1562055) is a dataset with its repository, DOI and the address it lives at', async () => {
    const item = embeddedMetadataItem(await page('/dc/records/1562055'), `${server.url}/dc/records/1562055`);
    expect(item.itemType).toBe('dataset');
    expect(item.fields.repository).toBe('Princeton Plasma Physics Lab. (PPPL)');
    expect(item.fields.DOI).toMatch(/^10\.11578\//);
    expect(item.fields.title).toBe('Suppression of Alfvén modes on NSTX-U with outboard beam injection');
    const { record } = (await store.get('DC1', '1562055'))!;
    const rdf = zoteroRdfItem(await page('/unapi?id=DC1:1562055&format=rdf_zotero'));
    expect(rdf.itemType).toBe('dataset');
    expect(rdf.fields.DOI).toBe(bareDoi(String(record.doi)));
    expect(rdf.fields.url).toMatch(/^https?:\/\//);
  });
});

describe('a search page, read with no script', () => {
  it('offers every result by an unAPI id and a COinS span, and names the unAPI server', async () => {
    const lit = deploymentByKey('LIT')!;
    const html = await page(`/${lit.slug}?rows=40&sort=entry_date`);
    const ids = [...html.matchAll(/<abbr class="unapi-id" title="([^"]+)">/g)].map((match) => match[1]!);
    expect(ids.length).toBe(lit.productTypes.length);
    expect(html.match(/<span class="Z3988" title="ctx_ver=Z39\.88-2004&amp;/g)).toHaveLength(ids.length);
    expect(html).toMatch(/<link rel="unapi-server"/);
    for (const id of ids) {
      const choice = unapiChoice(await fetch(`${server.url}/unapi?id=${encodeURIComponent(id)}`).then((response) => response.text()));
      expect(choice?.name, id).toBe('rdf_zotero');
      const item = zoteroRdfItem(await page(`/unapi?id=${encodeURIComponent(id)}&format=rdf_zotero`));
      const each = cases.find((candidate) => `${candidate.deployment.key}:${candidate.record.repo_id}` === id)!;
      expect(item.itemType, id).toBe(each.itemType);
    }
  });

  it('a search the server refuses, or that finds nothing, is the bare app', async () => {
    const lit = deploymentByKey('LIT')!;
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
    const shared = cases.find((each) => each.deployment.key === 'LIT')!.record.repo_id;
    const ambiguous = await fetch(`${server.url}/unapi?id=${shared}&format=bibtex`);
    expect(ambiguous.status).toBe(300);
    const body = await ambiguous.text();
    expect(body).toContain(`<id>LIT:${shared}</id>`);
    expect(body).toContain(`<id>MM:${shared}</id>`);
    expect((await fetch(`${server.url}/unapi?id=999999999&format=bibtex`)).status).toBe(404);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, vi } from 'vitest';
import { deployments, type ApiRecord } from '../../deployments/registry';
import type { Deployment, DeploymentKey } from '../../deployments/schema';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore, StoredRecord } from '../store/types';
import { startServer, type RunningServer, type ServerOptions } from './server';
import type { FlowControl } from './flow-control';

/**
 * The HTTP suite's fixture: a temporary SQLite store holding the same 45 hand-written
 * records in every deployment (mapped onto each deployment's own fields), served by
 * `startServer` on a free port. Because every record is written here, each test knows
 * exactly which records a request must return.
 *
 * Word budget — the words the query tests search for occur only where listed:
 *   wind: title of 1001, 1002, 1004; description of 1010 (never elsewhere)
 *   turbine(s): title of 1001, 1002 (and the full text of 1001)
 *   solar: title of 1003, 1004        cell: title of 1003      hybrid: title of 1004
 *   geothermal: title of 1005         reservoir: title of 1005
 *   hydro*: hydrogen 1007, hydrology 1006, hydropower 1009 (titles)
 *   Müller: title and first author of 1007
 *   castellano: author of 1015, title of 1016
 *   quasicrystal: full text of 1011, title of 1012
 *   photovoltaic: title of 1013, description of 1014
 *   zephyrine: one search column per record, 1020–1028 (see `markerColumns`)
 */

export interface FixtureSpec {
  readonly id: string;
  readonly title: string;
  readonly authors?: readonly string[];
  readonly subjects?: readonly string[];
  readonly description?: string;
  readonly publisher?: string;
  /** journal_name, where the deployment has it. */
  readonly journal?: string;
  readonly country?: string;
  readonly language?: string;
  readonly published: string;
  readonly entered?: string;
  readonly doi?: string;
  readonly contract?: string;
  /** report_number, or product_number in DC1. */
  readonly report?: string;
  readonly research?: string;
  readonly sponsor?: string;
  readonly contributing?: string;
  /** Submitting-site code: the deployment's site field, else `StoredRecord.site`. */
  readonly site?: string;
  readonly fulltext?: string;
  readonly mime?: string;
  readonly contentType?: readonly string[];
  /** A file under public/media that MM records link to with rel=media. */
  readonly media?: string;
}

/** The search column each zephyrine marker record carries the word in. */
export const markerColumns = {
  '1020': 'title',
  '1021': 'authors',
  '1022': 'subjects',
  '1023': 'description',
  '1024': 'biblio',
  '1025': 'sponsor',
  '1026': 'research',
  '1027': 'contributing',
  '1028': 'fulltext',
} as const;

export const markerWord = 'zephyrine';

/** A title with every character the codecs must escape, and a control character. */
export const stressTitle = 'Codec & <stress> "quoted" {braces} 100% under_score $5 \u0007bell';

/** Five records published at the same instant, for tie-breaking. */
export const tieIds = ['1033', '1034', '1035', '1036', '1037'] as const;
export const tieInstant = '2020-01-01T00:00:00Z';

const specs: FixtureSpec[] = [
  {
    id: '1001',
    title: 'Wind turbine blade fatigue testing',
    authors: ['Okafor, Chidi', 'Lindqvist, Sara B.'],
    published: '2019-05-10T00:00:00Z',
    fulltext: 'Complete study: the turbine blades were cycled until failure.',
  },
  { id: '1002', title: 'Blade design for a turbine in wind tunnels', authors: ['Okafor, Chidi'], published: '2018-02-01T00:00:00Z' },
  { id: '1003', title: 'Solar cell efficiency measurements', authors: ['Nakamura, Yui'], published: '2017-09-12T00:00:00Z' },
  { id: '1004', title: 'Hybrid wind and solar power plants', authors: ['Novak, Petr', 'Adeyemi, Tola'], published: '2016-11-30T00:00:00Z' },
  { id: '1005', title: 'Geothermal reservoir modelling', authors: ['Keller, Anna'], published: '2015-06-01T00:00:00Z' },
  { id: '1006', title: 'Hydrology of alpine catchments', authors: ['Bauer, Lukas'], published: '2014-03-03T00:00:00Z' },
  {
    id: '1007',
    title: 'Müller process for hydrogen separation',
    authors: ['Müller, Hans Peter [Technische Universität München, Germany] (ORCID:0000000195444980)', 'Rossi, Giulia'],
    published: '2013-08-08T00:00:00Z',
  },
  { id: '1008', title: 'Éclair reactor geometry', authors: ['Dubois, Élise'], published: '2012-12-12T00:00:00Z' },
  { id: '1009', title: 'Hydropower dam safety review', authors: ['Silva, João'], published: '2011-01-20T00:00:00Z' },
  {
    id: '1010',
    title: 'Meteorological tower data',
    description: 'Measured wind speeds at the test site.',
    published: '2010-10-10T00:00:00Z',
  },
  {
    id: '1011',
    title: 'Crystal lattice defects survey',
    published: '2009-04-04T00:00:00Z',
    fulltext: 'Chapter one describes a quasicrystal lattice grown in microgravity.',
  },
  { id: '1012', title: 'Quasicrystal growth kinetics', published: '2008-02-02T00:00:00Z' },
  { id: '1013', title: 'Photovoltaic module degradation', published: '2007-07-07T00:00:00Z' },
  {
    id: '1014',
    title: 'Annual programme overview',
    description: 'The year included a small photovoltaic pilot among many other projects.',
    published: '2023-03-03T00:00:00Z',
  },
  { id: '1015', title: 'Sediment transport in rivers', authors: ['Castellano, Maria'], published: '2006-06-06T00:00:00Z' },
  { id: '1016', title: 'Castellano valley sediment survey', authors: ['Ortiz, Pablo'], published: '2005-05-05T00:00:00Z' },
  { id: '1020', title: 'Probe record zephyrine', published: '2004-01-01T00:00:00Z' },
  { id: '1021', title: 'Probe record one', authors: ['Zephyrine, Ada'], published: '2004-01-02T00:00:00Z' },
  { id: '1022', title: 'Probe record two', subjects: ['zephyrine'], published: '2004-01-03T00:00:00Z' },
  { id: '1023', title: 'Probe record three', description: 'About zephyrine.', published: '2004-01-04T00:00:00Z' },
  { id: '1024', title: 'Probe record four', publisher: 'Zephyrine Press', published: '2004-01-05T00:00:00Z' },
  { id: '1025', title: 'Probe record five', sponsor: 'Zephyrine Foundation', published: '2004-01-06T00:00:00Z' },
  { id: '1026', title: 'Probe record six', research: 'Zephyrine Laboratory', published: '2004-01-07T00:00:00Z' },
  { id: '1027', title: 'Probe record seven', contributing: 'Zephyrine Institute', published: '2004-01-08T00:00:00Z' },
  { id: '1028', title: 'Probe record eight', fulltext: 'Only the full text mentions zephyrine.', published: '2004-01-09T00:00:00Z' },
  {
    id: '1030',
    title: 'Plasma edge turbulence',
    language: 'German',
    country: 'Germany',
    site: 'PPPL',
    journal: 'Zyxtopia Letters',
    report: 'ORNL/TM-2024/17',
    contract: 'AC05-00OR22725; AC02-09CH11466',
    doi: '10.5555/alpha.1',
    mime: 'x-ms-wma',
    media: 'sample-melody.wma',
    contentType: ['Simulation'],
    published: '2003-03-03T00:00:00Z',
  },
  {
    id: '1031',
    title: 'Neutron flux mapping',
    language: 'german',
    country: 'Germany',
    site: 'pppl',
    journal: 'ZYXTOPIA, LETTERS.',
    doi: 'https://doi.org/10.5555/BETA.2',
    mime: 'mp4',
    media: 'sample-video.mp4',
    contentType: ['Numeric', 'Simulation'],
    published: '2002-02-02T00:00:00Z',
  },
  {
    id: '1032',
    title: 'Lattice Boltzmann flows',
    language: 'French',
    country: 'France',
    report: 'SAND2020-1234 R',
    mime: 'html',
    media: 'sample-page.html',
    contentType: ['Numeric'],
    published: '2001-01-01T00:00:00Z',
  },
  { id: '1033', title: 'Tied record alpha', published: tieInstant },
  { id: '1034', title: 'Tied record beta', published: tieInstant },
  { id: '1035', title: 'Tied record gamma', published: tieInstant },
  { id: '1036', title: 'Tied record delta', published: tieInstant },
  { id: '1037', title: 'Tied record epsilon', published: tieInstant },
  {
    id: '1038',
    title: stressTitle,
    authors: ['Müller, Jürgen [Labor & Co. {Süd}] (ORCID:0000-0001-2345-6789)', "O'Brien, Seán", 'de la Cruz, María José'],
    description: 'Escapes: & < > " { } % _ $ and a bell \u0007 here.',
    published: '2000-06-15T00:00:00Z',
  },
  { id: '1040', title: 'Late evening observation', published: '2021-03-15T23:59:59Z', entered: '2022-06-30T23:59:59Z' },
  { id: '1041', title: 'Early morning observation', published: '2021-03-16T00:00:00Z', entered: '2022-07-01T00:00:00Z' },
];

/** Plain records that fill the corpus to 45: distinct years, words no test searches for. */
for (let i = 0; specs.length < 45; i++) {
  specs.push({
    id: String(1050 + i),
    title: `Archive entry ${String(i + 1).padStart(2, '0')} on ocean chemistry`,
    authors: [`Archivist, Number ${i + 1}`],
    published: `${1980 + i}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}T12:00:00Z`,
  });
}

export const fixtureSpecs: readonly FixtureSpec[] = specs;
export const fixtureIds: readonly string[] = specs.map((spec) => spec.id);

export function specById(id: string): FixtureSpec {
  const spec = specs.find((candidate) => candidate.id === id);
  if (!spec) throw new Error(`no fixture record ${id}`);
  return spec;
}

const hasField = (deployment: Deployment, name: string) => deployment.fields.some((field) => field.name === name);

/** The one field of the deployment that feeds a search column (orgs are named differently per deployment). */
function fieldFeeding(deployment: Deployment, column: 'sponsor' | 'research' | 'contributing') {
  const field = deployment.fields.find((candidate) => candidate.search === column);
  if (!field) throw new Error(`${deployment.key} has no ${column} field`);
  return field;
}

/** Where records keep the submitting-site code: a field if the deployment has one. */
export function siteField(deployment: Deployment): string | undefined {
  return deployment.fields.find((field) => field.keys?.includes('site'))?.name;
}

export function reportField(deployment: Deployment): string {
  return hasField(deployment, 'report_number') ? 'report_number' : 'product_number';
}

/** Links as stored: local resources root-relative, the rest absolute. */
export function storedLinks(deployment: Deployment, spec: FixtureSpec): { rel: string; href: string }[] {
  const local = spec.fulltext !== undefined || spec.media !== undefined;
  const links = [{ rel: 'citation', href: local ? `/${deployment.slug}/records/${spec.id}` : `https://www.osti.gov/biblio/${spec.id}` }];
  if (spec.fulltext !== undefined && deployment.linkRels.includes('fulltext')) {
    links.push({ rel: 'fulltext', href: `/files/fulltext/${deployment.slug}/${spec.id}.txt` });
  }
  if (spec.media !== undefined && deployment.linkRels.includes('media')) links.push({ rel: 'media', href: `/media/${spec.media}` });
  return links;
}

/** A record with exactly the deployment's fields: '' / [] / null, then the spec's values. */
export function buildRecord(deployment: Deployment, spec: FixtureSpec): StoredRecord {
  const record: Record<string, unknown> = {};
  for (const field of deployment.fields) {
    record[field.name] =
      field.kind === 'list' || field.kind === 'links' ? [] : field.kind === 'number' || field.kind === 'date' ? null : '';
  }
  const set = (name: string, value: unknown) => {
    if (!(name in record)) throw new Error(`${deployment.key} has no field ${name}`);
    record[name] = value;
  };
  set('repo_id', spec.id);
  set('title', spec.title);
  set('authors', [...(spec.authors ?? [])]);
  set('subjects', [...(spec.subjects ?? [])]);
  set('description', spec.description ?? '');
  set('publisher', spec.publisher ?? '');
  set('country_publication', spec.country ?? 'United States');
  set('publication_date', spec.published);
  set('entry_date', spec.entered ?? '2024-01-15T08:30:00Z');
  set('doi', spec.doi ?? '');
  set('language', spec.language ?? 'English');
  set('agency_contract_number', spec.contract ?? '');
  set('product_type', deployment.productTypes[0]);
  if (spec.report !== undefined) set(reportField(deployment), spec.report);
  for (const column of ['sponsor', 'research', 'contributing'] as const) {
    const value = spec[column];
    if (value === undefined) continue;
    const field = fieldFeeding(deployment, column);
    set(field.name, field.kind === 'list' ? [value] : value);
  }
  if (hasField(deployment, 'journal_name')) set('journal_name', spec.journal ?? '');
  if (hasField(deployment, 'mime_type')) set('mime_type', spec.mime ?? '');
  if (hasField(deployment, 'dataset_content_type')) set('dataset_content_type', [...(spec.contentType ?? [])]);
  if (hasField(deployment, 'dataset_size')) set('dataset_size', 1024 + Number(spec.id));
  if (hasField(deployment, 'links')) set('links', storedLinks(deployment, spec));
  const site = spec.site ?? 'OSTI';
  const field = siteField(deployment);
  if (field) set(field, site);
  return {
    record: record as ApiRecord,
    ...(field ? {} : { site }),
    ...(spec.fulltext !== undefined ? { fulltext: spec.fulltext } : {}),
  };
}

function scrambled<T extends StoredRecord>(records: readonly T[]): T[] {
  const key = (stored: T) => (Number(stored.record.repo_id) * 7919) % 101;
  return [...records].sort((a, b) => key(a) - key(b));
}

export function fixtureRecords(deployment: Deployment): StoredRecord[] {
  return specs.map((spec) => buildRecord(deployment, spec));
}

// ---------------------------------------------------------------------------------------
// Server lifecycle

export interface FixtureOptions extends Omit<ServerOptions, 'store' | 'port'> {
  /** Replaces the store the server sees (to simulate failures). */
  readonly wrapStore?: (store: RecordStore) => RecordStore | Promise<RecordStore>;
  /** Other records than the hand-written ones (real upstream records, say), by deployment. */
  readonly content?: () => readonly (readonly [DeploymentKey, StoredRecord[]])[];
}

export interface Fixture {
  readonly url: string;
  readonly store: RecordStore;
  /** The server's flow control: its counters and events (flow-control.ts). */
  readonly flow: FlowControl;
  /** `{url}{basePath}/records{suffix}` */
  list(deployment: Deployment, query?: string): string;
  close(): Promise<void>;
}

/**
 * The store the suite runs against: SQLite by default, PostgreSQL with
 * RECORDS_TEST_STORE=postgres (the same suite is the store contract's conformance test).
 */
async function createStore(dir: string, given?: FixtureOptions['content']): Promise<RecordStore> {
  // Written in a scrambled order, so storage order never agrees with repo_id by accident
  // and only an explicit tie-break can order equal records by repo_id.
  const content = given?.() ?? deployments.map((deployment) => [deployment.key, scrambled(fixtureRecords(deployment))] as const);
  if (process.env.RECORDS_TEST_STORE?.startsWith('postgres')) {
    const { createPgTestStore } = await import('../store/postgres/store.test-support');
    return createPgTestStore(content);
  }
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path);
  try {
    for (const [key, records] of content) writer.put(key, records);
  } finally {
    writer.close();
  }
  return openStore(path);
}

export async function startFixture(options: FixtureOptions = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'records-http-test-'));
  const { wrapStore, content, ...serverOptions } = options;
  const store = await createStore(dir, content);
  let server: RunningServer;
  try {
    server = await startServer({ ...serverOptions, store: wrapStore ? await wrapStore(store) : store, port: 0 });
  } catch (error) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: server.url,
    flow: server.flow,
    store,
    list: (deployment, query = '') => `${server.url}${deployment.basePath}/records${query ? `?${query.replace(/^\?/, '')}` : ''}`,
    async close() {
      await server.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts a fixture server for the enclosing file or describe block. */
export function useFixture(options: FixtureOptions = {}): Fixture {
  let fixture: Fixture | undefined;
  beforeAll(async () => {
    fixture = await startFixture(options);
  });
  afterAll(async () => {
    await fixture?.close();
  });
  const current = () => {
    if (!fixture) throw new Error('fixture not started');
    return fixture;
  };
  return {
    get url() {
      return current().url;
    },
    get flow() {
      return current().flow;
    },
    get store() {
      return current().store;
    },
    list: (deployment, query) => current().list(deployment, query),
    close: () => current().close(),
  };
}

/**
 * A fixture whose store fails every read with `message` (count and close still work), for
 * the 500 path. The server logs the failure; the log is silenced while the tests run.
 */
export function useFailingFixture(message: string): Fixture {
  const fail = async (): Promise<never> => {
    throw new Error(message);
  };
  const fixture = useFixture({
    wrapStore: (store: RecordStore): RecordStore => ({
      revision: store.revision,
      search: fail,
      facets: fail,
      get: fail,
      fulltext: fail,
      count: (key) => store.count(key),
      close: () => store.close(),
    }),
  });
  let consoleError: { mockRestore(): void } | undefined;
  beforeAll(() => {
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterAll(() => consoleError?.mockRestore());
  return fixture;
}

// ---------------------------------------------------------------------------------------
// Requests

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

/** A request through node:http, which neither adds Accept-Encoding nor decompresses. */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** An answer as it is on the wire (fetch would decompress it), without its Date, to compare two servers' bytes. */
export async function wireAnswer(
  url: string,
  headers: Record<string, string>,
): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  const { headers: all, body } = await rawRequest(url, { headers });
  const { date: _date, ...rest } = all;
  return { headers: rest, body };
}

export interface JsonResponse<T = unknown> {
  readonly response: Response;
  readonly status: number;
  readonly body: T;
  readonly total: number | undefined;
}

/** GET with fetch and a parsed JSON body. */
export async function getJson<T = unknown>(url: string, headers: Record<string, string> = {}): Promise<JsonResponse<T>> {
  const response = await fetch(url, { headers });
  const text = await response.text();
  const totalHeader = response.headers.get('x-total-count');
  return {
    response,
    status: response.status,
    body: (text ? JSON.parse(text) : undefined) as T,
    total: totalHeader === null ? undefined : Number(totalHeader),
  };
}

export type Rec = ApiRecord & Record<string, unknown>;

/** The ids of a list request's records, in order; fails the test on any non-200. */
export async function listIds(url: string): Promise<string[]> {
  const { status, body } = await getJson<Rec[] | { errorDescription: string }>(url);
  if (status !== 200 || !Array.isArray(body)) throw new Error(`GET ${url} gave ${status}: ${JSON.stringify(body)}`);
  return body.map((record) => record.repo_id);
}

export const sorted = (ids: readonly string[]) => [...ids].sort();

/** Query string from pairs, each part encoded the way a careful client does. */
export function qs(params: Record<string, string | number>): string {
  return Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
}

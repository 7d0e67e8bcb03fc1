import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { atomParts } from '../../formats/atom';
import { recordsToBibtex } from '../../formats/bibtex';
import { recordsToXmlParts } from '../../formats/xml';
import { generateRecords } from '../corpus/generate';
import { openPooledStore } from '../store/pooled-store';
import { openStore, openStoreWriter } from '../store/sqlite/sqlite';
import { recordsJsonParts } from '../render/record-json';
import { wireAnswer } from './server-fixture.test-support';
import { startServer, type RunningServer } from './server';

/**
 * The main thread only routes: with the pooled store, every page of records is rendered in
 * the worker that ran its search, so a flood of 1,000-record pages never holds up a user's
 * search, and what is sent is byte for byte what this thread would have rendered.
 */

// The page writers, counted where this module runs: the server's main thread.
vi.mock('../../formats/xml', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../formats/xml')>();
  return { ...actual, recordsToXmlParts: vi.fn(actual.recordsToXmlParts) };
});
vi.mock('../../formats/bibtex', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../formats/bibtex')>();
  return { ...actual, recordsToBibtex: vi.fn(actual.recordsToBibtex) };
});
vi.mock('../../formats/atom', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../formats/atom')>();
  return { ...actual, atomParts: vi.fn(actual.atomParts) };
});
vi.mock('node:zlib', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:zlib')>();
  return { ...actual, brotliCompressSync: vi.fn(actual.brotliCompressSync), gzipSync: vi.fn(actual.gzipSync) };
});
vi.mock('../render/record-json', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../render/record-json')>();
  return { ...actual, recordsJsonParts: vi.fn(actual.recordsJsonParts) };
});

const lit = deploymentByKey('LIT')!;
const writers = [vi.mocked(recordsToXmlParts), vi.mocked(recordsToBibtex), vi.mocked(recordsJsonParts), vi.mocked(atomParts)];
const compressors = [vi.mocked(brotliCompressSync), vi.mocked(gzipSync)];
const mainThreadCompressions = () => compressors.reduce((sum, compressor) => sum + compressor.mock.calls.length, 0);
const mainThreadRenders = () => writers.reduce((sum, writer) => sum + writer.mock.calls.length, 0);

let dir: string;
let pooled: RunningServer;
let local: RunningServer;
/** Pages the workers have answered, rendered or as records to render; `renderedAtLeast` waits on it. */
let renderedInWorkers = 0;
const waitingForRenders: { count: number; resolve: () => void }[] = [];
const renderedAtLeast = (count: number) =>
  new Promise<void>((resolve) => {
    if (renderedInWorkers >= count) resolve();
    else waitingForRenders.push({ count, resolve });
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pages-in-workers-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path, { bulk: true });
  writer.put('LIT', generateRecords(lit, 1500, { seed: 29 }));
  writer.close();
  const store = await openPooledStore(path, {
    size: 3,
    cacheBytes: 0,
    onWorker: (worker) =>
      worker.on('message', (reply: { value?: { page?: unknown; body?: unknown; docs?: unknown } }) => {
        if (!reply.value?.page && !reply.value?.body && !reply.value?.docs) return;
        renderedInWorkers++;
        for (const waiter of waitingForRenders.filter(({ count }) => renderedInWorkers >= count)) {
          waitingForRenders.splice(waitingForRenders.indexOf(waiter), 1);
          waiter.resolve();
        }
      }),
  });
  pooled = await startServer({ store, port: 0, bibtexPrefix: 'lit', publicUrl: 'https://records.example' });
  // The same file served by a store without workers: its pages are rendered in this thread.
  local = await startServer({ store: openStore(path), port: 0, bibtexPrefix: 'lit', publicUrl: 'https://records.example' });
});

afterAll(async () => {
  await pooled?.close();
  await local?.close();
  rmSync(dir, { recursive: true, force: true });
});

const xmlPages = `${lit.basePath}/records?rows=1000&page=1`;
const feeds = `${lit.basePath}/feed?rows=1000`;

/** A client that pipelines `requests` of `path` (1,000-record XML pages, or feeds) and never reads an answer. */
function silentClient(url: string, requests: number, path = xmlPages): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1', () => {
      const request = `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/xml\r\nAccept-Encoding: br\r\n\r\n`;
      socket.write(request.repeat(requests));
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('pages rendered by the workers', () => {
  it.each([
    ['application/xml', 'rows=1000', ''],
    ['application/xml', 'rows=1000', 'br'],
    ['application/x-bibtex', 'q=energy&rows=200&page=2', 'gzip'],
    ['application/json', 'q=wind&rows=50&sort=publication_date', ''],
    ['application/json', 'q=wind&rows=50&sort=publication_date', 'gzip, br'],
    ['application/json', 'rows=5&page=400', 'br'],
  ])('are byte for byte the answers this thread renders (%s, %s, Accept-Encoding: %s)', async (accept, query, encoding) => {
    const headers = { accept, ...(encoding && { 'accept-encoding': encoding }) };
    const [fromWorkers, fromThisThread] = await Promise.all(
      [pooled, local].map((server) => wireAnswer(`${server.url}${lit.basePath}/records?${query}`, headers)),
    );
    expect(fromWorkers!.headers).toEqual(fromThisThread!.headers);
    expect(fromWorkers!.headers['x-total-count']).toMatch(/^\d+$/);
    expect(fromWorkers!.body.equals(fromThisThread!.body)).toBe(true);
  });

  it.each([
    ['rows=1000', 'br'],
    ['q=energy&rows=50', ''],
    ['title=wind', 'gzip'],
  ])('are feeds byte for byte the feeds this thread renders (%s, Accept-Encoding: %s)', async (query, encoding) => {
    const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
    const [fromWorkers, fromThisThread] = await Promise.all(
      [pooled, local].map((server) => wireAnswer(`${server.url}${lit.basePath}/feed?${query}`, headers)),
    );
    expect(fromWorkers!.headers).toEqual(fromThisThread!.headers);
    expect(fromWorkers!.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    // Compressed as the client asked (feeds are compressible): read as it would read it.
    const decode = { br: brotliDecompressSync, gzip: gunzipSync }[String(fromWorkers!.headers['content-encoding'])];
    expect((decode ? decode(fromWorkers!.body) : fromWorkers!.body).toString('utf8')).toMatch(/<entry>/);
    expect(fromWorkers!.body.equals(fromThisThread!.body)).toBe(true);
  });

  it.each([
    ['1,000-record XML pages', xmlPages],
    ['1,000-entry feeds', feeds],
  ])('leave the main thread free: a user’s search is answered while a flood of %s waits unread', async (_name, path) => {
    for (const mock of [...writers, ...compressors]) mock.mockClear();
    const rendered = renderedInWorkers;
    const sockets = await Promise.all(Array.from({ length: 20 }, () => silentClient(pooled.url, 10, path)));
    try {
      // The flood is under way: the workers have answered pages of it.
      await renderedAtLeast(rendered + 4);
      const response = await fetch(`${pooled.url}${lit.basePath}/records?q=energy&rows=20`, {
        headers: { accept: 'application/xml', 'accept-encoding': 'gzip' },
      });
      expect(response.headers.get('content-encoding')).toBe('gzip');
      expect(response.status).toBe(200);
      expect(Number(response.headers.get('x-total-count'))).toBeGreaterThan(20);
      expect((await response.text()).length).toBeGreaterThan(1000);
      // Answered ahead of the flood, whose pipelined pages still wait for their unread connections.
      expect(pooled.flow.counters().waiting).toBeGreaterThan(0);
      // Not one page, the flood's or the user's, was rendered or compressed on the main thread.
      expect(mainThreadRenders()).toBe(0);
      expect(mainThreadCompressions()).toBe(0);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('count what the main thread renders (the check above can fail)', async () => {
    for (const mock of [...writers, ...compressors]) mock.mockClear();
    const response = await fetch(`${local.url}${lit.basePath}/records?rows=1000`, {
      headers: { accept: 'application/xml', 'accept-encoding': 'br' },
    });
    await response.arrayBuffer();
    expect(mainThreadRenders()).toBe(1);
    expect(mainThreadCompressions()).toBe(1);
    await (await fetch(`${local.url}${feeds}`)).arrayBuffer();
    expect(vi.mocked(atomParts)).toHaveBeenCalledTimes(1);
  });
});

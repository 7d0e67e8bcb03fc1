import Database from 'better-sqlite3';
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { startServer, type RunningServer } from '../http/server';
import { absolutizeLinks } from '../render/record-json';
import { storedBodyCodec } from '../store/sqlite/record-bodies';
import { tablesOf } from '../store/sqlite/schema';
import { openStore } from '../store/sqlite/sqlite';

/**
 * For the harvest tests: a real `startServer` over a real store file (the source), and in
 * front of it a small proxy that counts requests and lets a test misbehave on purpose
 * (refuse, stall, cut a page short, rename fields). The proxy's address stays the same
 * when the source behind it restarts, as a mirror's source URL does.
 */

export interface Upstream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface ProxyContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The request's number, from 1. */
  readonly n: number;
  readonly url: URL;
  /** Asks the real source. */
  forward(): Promise<Upstream>;
  send(upstream: Upstream): void;
}

/** How the proxy answers; by default it passes the source's answer on unchanged. */
export type ProxyRule = (context: ProxyContext) => Promise<void>;

export const passThrough: ProxyRule = async (context) => context.send(await context.forward());

export interface TestProxy {
  readonly url: string;
  /** Every request's path and query, in arrival order. */
  readonly requests: string[];
  /** The most requests that were open at once (arrived, not yet answered in full). */
  readonly peakInFlight: () => number;
  /**
   * Waits until no request has been open for a moment (a harvest that stopped may have
   * left one in the network), then forgets the requests and the peak and goes back to
   * passing answers on.
   */
  reset(): Promise<void>;
  rule: ProxyRule;
  target: string;
  close(): Promise<void>;
}

export async function startProxy(target: string, rule: ProxyRule = passThrough): Promise<TestProxy> {
  const requests: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    inFlight++;
    peak = Math.max(peak, inFlight);
    res.on('close', () => inFlight--);
    const url = new URL(req.url ?? '/', proxy.url);
    const forward = () =>
      new Promise<Upstream>((resolve, reject) => {
        const upstream = new URL(req.url ?? '/', proxy.target);
        // The proxy's Host goes on, so the source's Link targets point back at the proxy;
        // Accept-Encoding does not, so a rule can read and rewrite the body.
        const { 'accept-encoding': _encoding, ...headers } = req.headers;
        const outgoing = request(upstream, { method: 'GET', headers }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) });
          });
          answer.on('error', reject);
        });
        outgoing.on('error', reject);
        outgoing.end();
      });
    const send = ({ status, headers, body }: Upstream) => {
      const kept = Object.fromEntries(
        Object.entries(headers).filter(([name]) => !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)),
      );
      res.writeHead(status, { ...kept, 'content-length': body.length });
      res.end(body);
    };
    proxy.rule({ req, res, n: requests.length, url, forward, send }).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: TestProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    peakInFlight: () => peak,
    async reset() {
      let quietSince = Date.now();
      while (Date.now() - quietSince < 100) {
        if (inFlight > 0) quietSince = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      requests.length = 0;
      peak = 0;
      proxy.rule = passThrough;
    },
    rule,
    target,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

export interface TestSource {
  readonly url: string;
  close(): Promise<void>;
}

/** `records serve` in-process over the store file at `path`. */
export async function serveStore(path: string, token?: string): Promise<TestSource> {
  const store = openStore(path);
  const server: RunningServer = await startServer({ store, port: 0, ...(token ? { token } : {}) });
  return {
    url: server.url,
    close: async () => {
      await server.close();
      await store.close();
    },
  };
}

/** Every record of a deployment in a store file, by repo_id, as stored. */
export function storedRecords(path: string, deployment: Deployment): Map<string, ApiRecord> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  db.pragma('busy_timeout = 10000');
  try {
    const rows = db.prepare<[], { repo_id: string; doc: Buffer }>(`SELECT repo_id, doc FROM ${tablesOf(deployment).records}`).all();
    const codec = storedBodyCodec(db, deployment);
    return new Map(rows.map((row) => [row.repo_id, JSON.parse(codec!.decode(row.doc)) as ApiRecord]));
  } finally {
    db.close();
  }
}

/** The source's records as a client at `origin` receives them (local links made absolute). */
export function servedRecords(path: string, deployment: Deployment, origin: string): Map<string, ApiRecord> {
  const records = storedRecords(path, deployment);
  for (const [id, record] of records) records.set(id, absolutizeLinks(record, origin));
  return records;
}

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { deploymentBySlug } from '../../deployments/registry';
import { apiError } from '../../formats/error';
import type { RecordStore } from '../store/types';
import { handleApi, sendError } from './api';
import { send } from './respond';
import { serveApp, serveMedia } from './static-files';

export interface ServerOptions {
  readonly store: RecordStore;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** The built app (index.html and assets). Without it only the APIs and media are served. */
  readonly staticDir?: string;
  readonly mediaDir?: string;
  readonly bibtexPrefix?: string;
  /** Private mirror mode: API requests must carry `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Origin for absolute URLs when the server sits behind a proxy. */
  readonly publicUrl?: string;
}

export interface RunningServer {
  readonly url: string;
  close(): Promise<void>;
}

const defaultMediaDir = fileURLToPath(new URL('../../../public/media/', import.meta.url));
const allowedMethods = 'GET, HEAD, OPTIONS';
const maxUrlLength = 8192;

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Link, X-Total-Count, ETag',
};

const securityHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '';
  // Equal-length digests, so the comparison time says nothing about the token.
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b) && presented.length > 0;
}

/** A Host header is used in absolute URLs only when it looks like a host. */
function originOf(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `http://${host}` : fallback;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const mediaDir = options.mediaDir ?? defaultMediaDir;
  let fallbackOrigin = '';

  async function handle(req: IncomingMessage, res: ServerResponse) {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    const rawUrl = req.url ?? '/';
    if (rawUrl.length > maxUrlLength) {
      sendError(req, res, apiError(414, `The request URL is longer than ${maxUrlLength} characters.`));
      return;
    }
    const queryAt = rawUrl.indexOf('?');
    const pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const search = queryAt === -1 ? '' : rawUrl.slice(queryAt + 1);
    const isApi = pathname.startsWith('/api/');
    const isFile = pathname.startsWith('/files/');
    if (isApi || isFile) for (const [name, value] of Object.entries(corsHeaders)) res.setHeader(name, value);

    if (req.method === 'OPTIONS') {
      res.statusCode = 204;
      res.setHeader('Allow', allowedMethods);
      res.setHeader('Access-Control-Allow-Methods', allowedMethods);
      res.setHeader('Access-Control-Allow-Headers', 'Accept, Authorization, If-None-Match, Range');
      res.setHeader('Access-Control-Max-Age', '86400');
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(req, res, apiError(405, `${String(req.method).slice(0, 20)} is not allowed; this API is read-only (GET, HEAD, OPTIONS).`), {
        Allow: allowedMethods,
      });
      return;
    }
    if ((isApi || isFile) && options.token !== undefined && !tokenMatches(req.headers.authorization, options.token)) {
      sendError(req, res, apiError(401, 'This mirror is private: send Authorization: Bearer <token>.'), {
        'WWW-Authenticate': 'Bearer realm="records"',
      });
      return;
    }
    const origin = options.publicUrl ?? originOf(req, fallbackOrigin);

    if (isApi) {
      await handleApi(req, res, pathname, search, { store: options.store, bibtexPrefix: options.bibtexPrefix ?? 'records', origin });
      return;
    }
    const fulltext = /^\/files\/fulltext\/([^/]+)\/([^/]+)\.txt$/.exec(pathname);
    if (fulltext) {
      const deployment = deploymentBySlug(fulltext[1]!);
      let id = '';
      try {
        id = decodeURIComponent(fulltext[2]!);
      } catch {
        // malformed: falls through to not found
      }
      const text = deployment && id ? await options.store.fulltext(deployment.key, id) : undefined;
      if (text) send(req, res, { status: 200, contentType: 'text/plain; charset=utf-8', body: text, cacheControl: 'public, max-age=60' }, options.store.revision);
      else sendError(req, res, apiError(404, 'No full text is stored for that record.'));
      return;
    }
    if (pathname.startsWith('/media/') && (await serveMedia(req, res, mediaDir, pathname.slice('/media'.length)))) return;
    if (options.staticDir && (await serveApp(req, res, options.staticDir, pathname))) return;
    sendError(req, res, apiError(404, `Nothing is served at ${pathname.slice(0, 200)}.`));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // Internals go to the log, never to the client.
      console.error('records: request failed:', error);
      if (!res.headersSent) sendError(req, res, apiError(500, 'The server could not answer this request. Try again later.'));
      else res.destroy();
    });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolvePromise());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  fallbackOrigin = url;

  return {
    url,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeIdleConnections();
      }),
  };
}

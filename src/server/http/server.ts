import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { apiError, errorToJson, type ApiError } from '../../formats/error';
import { generatedRecordsHeader, recordOriginHeader, totalWorksHeader, workVersionsHeader } from '../../formats/extension-headers';
import { asClient } from '../store/client';
import { StoreOverloaded, type RecordStore } from '../store/types';
import { sendError } from './api';
import { clientOfAddress } from './client-address';
import { busyRetryAfterSeconds, controlFlow, defaultFlowLimits, type FlowControl, type FlowLimits } from './flow-control';
import { routeOf, serveAppPage, type RouteServices } from './routes';

export interface ServerOptions {
  readonly store: RecordStore;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** The built app (index.html and assets). Without it only the APIs and media are served. */
  readonly staticDir?: string;
  readonly mediaDir?: string;
  readonly bibtexPrefix?: string;
  /** Private mirror mode: every route that reads records (routes.ts) wants `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Origin for absolute URLs when the server sits behind a proxy. */
  readonly publicUrl?: string;
  /** Host names (optionally with a port) requests may name; any other Host gets 421. */
  readonly allowedHosts?: readonly string[];
  /** Opt-in profile for clients written for the upstream API (src/server/http/upstream-compat.ts). */
  readonly compat?: 'upstream';
  /** How long slow or silent clients may hold a connection; the defaults suit production. */
  readonly timeouts?: ServerTimeouts;
  /** Connection and buffer limits (flow-control.ts); the defaults suit production. */
  readonly flow?: Partial<FlowLimits>;
}

export interface ServerTimeouts {
  /** Whole request head (request line and headers) must arrive within this. Default 10 s. */
  readonly headersMs?: number;
  /** Whole request must arrive within this. Default 30 s. */
  readonly requestMs?: number;
  /** An idle keep-alive connection is closed after this. Default 5 s. */
  readonly keepAliveMs?: number;
  /**
   * A connection on which nothing moves in either direction for this long is closed,
   * e.g. a client that stops reading a large response. Default 60 s.
   */
  readonly idleMs?: number;
}

export interface RunningServer {
  readonly url: string;
  /** Its flow control, whose counters and events tests wait on. */
  readonly flow: FlowControl;
  close(): Promise<void>;
}

const defaultMediaDir = fileURLToPath(new URL('../../../public/media/', import.meta.url));
const allowedMethods = 'GET, HEAD, OPTIONS';
const maxUrlLength = 8192;
/** The request line and headers together; beyond it, Node answers 431 (answerClientError). */
export const maxHeaderBytes = 32 * 1024;

const corsHeaders = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': `Link, X-Total-Count, ETag, Warning, ${recordOriginHeader}, ${generatedRecordsHeader}, ${workVersionsHeader}, ${totalWorksHeader}`,
};

const securityHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
};

/**
 * What Node answers itself when it cannot parse a request (431 for oversized headers, 408
 * when the head is too slow, 400 otherwise), but as the spec's Error object with the
 * headers every response carries. The request's Accept is unknown here, so JSON.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const answer: ApiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? apiError(431, 'The request line and headers together are too large.')
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? { statusCode: 408, statusMessage: 'Request Timeout', errorDescription: 'The request did not arrive in time.' }
        : error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
          ? apiError(413, 'The request is too large.')
          : apiError(400, 'The request is not well-formed HTTP/1.1.');
  // A valid request pipelined before the bad bytes is answered first; then the 400.
  const inProgress = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inProgress && !inProgress.writableFinished) {
    inProgress.once('finish', () => (socket.writable ? endWithError(socket, answer) : socket.destroy()));
    inProgress.once('close', () => socket.writable || socket.destroy());
    return;
  }
  endWithError(socket, answer);
}

/** A browser's navigation (a followed or pasted link) rather than a script's or client's request. */
function navigatedTo(req: IncomingMessage): boolean {
  const mode = req.headers['sec-fetch-mode'];
  return mode === 'navigate' || (mode === undefined && /\btext\/html\b/i.test(req.headers.accept ?? ''));
}

/**
 * A link too long to read, followed in a browser: a page a person can act on, where an API
 * client gets the 414 Error object. The page holds nothing of the URL (it may hold anything).
 */
function sendLinkTooLongPage(res: ServerResponse, length: number): void {
  const body = Buffer.from(
    [
      '<!doctype html><html lang="en"><head><meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<title>This link is too long</title></head><body><main>',
      '<h1>This link is too long</h1>',
      `<p>Its address has ${length.toLocaleString('en')} characters; this server reads at most ${maxUrlLength.toLocaleString('en')}.`,
      ' A search this long cannot be kept in a link: shorten it, or start again.</p>',
      '<p><a href="/">Start a new search</a></p>',
      '</main></body></html>',
    ].join(''),
    'utf8',
  );
  res.writeHead(414, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'",
  });
  res.end(body);
}

/** The Error object in JSON written straight to a socket that Node's HTTP layer has let go of, which then closes. */
function endWithError(socket: Socket, answer: ApiError, headers: Record<string, string> = {}): void {
  const body = Buffer.from(errorToJson(answer), 'utf8');
  const head = [
    `HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}`,
    `Date: ${new Date().toUTCString()}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${body.length}`,
    'Cache-Control: no-store',
    ...Object.entries({ ...securityHeaders, ...headers }).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
}

/** An absolute-form target (`GET http://host/path`) names the same resource as its path. */
function originFormOf(target: string): string {
  const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/.exec(target);
  if (!absolute) return target;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

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

/**
 * `--allowed-hosts`: a Host matches an entry with a port exactly, and an entry without one
 * on any port (names compare in any case).
 */
export function hostAllowed(host: string | undefined, allowed: readonly string[]): boolean {
  if (!host) return false;
  const [name] = splitHost(host);
  return allowed.some((entry) => {
    const [allowedName, allowedPort] = splitHost(entry);
    return allowedPort === undefined ? allowedName === name : entry.toLowerCase() === host.toLowerCase();
  });
}

/** `Example.org:8080` → ['example.org', '8080']; `[::1]` → ['[::1]', undefined]. */
function splitHost(host: string): [string, string | undefined] {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host.toLowerCase());
  return match ? [match[1]!, match[2]] : [host.toLowerCase(), undefined];
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const mediaDir = options.mediaDir ?? defaultMediaDir;
  let fallbackOrigin = '';
  const originFromHost = options.publicUrl === undefined && options.allowedHosts === undefined;
  const services: RouteServices = {
    store: options.store,
    mediaDir,
    bibtexPrefix: options.bibtexPrefix ?? 'records',
    privateMirror: options.token !== undefined,
    ...(options.staticDir ? { staticDir: options.staticDir } : {}),
    ...(options.compat ? { compat: options.compat } : {}),
  };
  /** Set by close(): responses from then on end their connection, so shutdown is prompt. */
  let closing = false;
  /**
   * Responses not yet sent, by connection. A closed connection's pipelined responses never
   * emit 'close' themselves: they leave with their connection, or they would be kept forever.
   */
  const unanswered = new Map<Socket, Set<ServerResponse>>();
  function track(socket: Socket, res: ServerResponse) {
    const responses = unanswered.get(socket) ?? new Set<ServerResponse>();
    if (!unanswered.has(socket)) {
      unanswered.set(socket, responses);
      socket.once('close', () => unanswered.delete(socket));
    }
    responses.add(res);
    res.once('close', () => responses.delete(res));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    if (closing) res.setHeader('Connection', 'close');
    const rawUrl = originFormOf(req.url ?? '/');
    if (rawUrl.length > maxUrlLength) {
      if (navigatedTo(req)) sendLinkTooLongPage(res, rawUrl.length);
      else sendError(req, res, apiError(414, `The request URL is longer than ${maxUrlLength} characters.`));
      return;
    }
    // RFC 9112: an HTTP/1.1 request without Host is a 400. Checked here rather than by Node,
    // so the answer is the Error object with the usual headers.
    if (req.headers.host === undefined && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      sendError(req, res, apiError(400, 'An HTTP/1.1 request needs a Host header.'));
      return;
    }
    if (options.allowedHosts && !hostAllowed(req.headers.host, options.allowedHosts)) {
      sendError(req, res, apiError(421, `This server does not answer for the host '${String(req.headers.host ?? '').slice(0, 100)}'.`));
      return;
    }
    const queryAt = rawUrl.indexOf('?');
    const pathname = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
    const search = queryAt === -1 ? '' : rawUrl.slice(queryAt + 1);
    const route = routeOf(pathname);
    if (route.cors) for (const [name, value] of Object.entries(corsHeaders)) res.setHeader(name, value);

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
    const request = { req, res, pathname, search, origin: options.publicUrl ?? originOf(req, fallbackOrigin), originFromHost, services };
    // The one access rule (routes.ts): on a private mirror, nothing that reads records answers without the token.
    if (route.access !== 'public' && options.token !== undefined && !tokenMatches(req.headers.authorization, options.token)) {
      if (route.withoutToken === 'app-shell') {
        await serveAppPage(request, '');
        return;
      }
      sendError(req, res, apiError(401, 'This mirror is private: send Authorization: Bearer <token>.'), {
        'WWW-Authenticate': 'Bearer realm="records"',
      });
      return;
    }
    await route.handle(request);
  }

  const timeouts = {
    headersMs: options.timeouts?.headersMs ?? 10_000,
    requestMs: options.timeouts?.requestMs ?? 30_000,
    keepAliveMs: options.timeouts?.keepAliveMs ?? 5_000,
    idleMs: options.timeouts?.idleMs ?? 60_000,
  };
  const server = createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      // Node enforces the two limits above only when it sweeps its connections; the default
      // sweep every 30 s would let a stalled request live up to 30 s past its limit.
      connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(timeouts.headersMs / 4))),
      requireHostHeader: false,
      // Twice Node's default, so that a link past maxUrlLength (a search pasted whole, say)
      // reaches the server and gets a page a person can read rather than Node's bare 431.
      maxHeaderSize: maxHeaderBytes,
    },
    (req, res) => {
      track(req.socket, res);
      flow.admit(
        req,
        res,
        () =>
          // The store shares its workers fairly between clients (store/pool/scheduler.ts).
          asClient(clientOfAddress(req.socket.remoteAddress), () => handle(req, res)).catch((error: unknown) => {
            if (error instanceof StoreOverloaded && !res.headersSent) {
              sendError(req, res, apiError(503, error.message), { 'Retry-After': String(error.retryAfterSeconds) });
              return;
            }
            // Internals go to the log, never to the client.
            console.error('records: request failed:', error);
            if (!res.headersSent) sendError(req, res, apiError(500, 'The server could not answer this request. Try again later.'));
            else res.destroy();
          }),
        () => {
          for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
          sendError(req, res, apiError(503, 'The server is busy; try again shortly.'), { 'Retry-After': String(busyRetryAfterSeconds) });
        },
      );
    },
  );
  const flow = controlFlow(server, { ...defaultFlowLimits, ...options.flow }, (socket) => {
    endWithError(socket, apiError(503, 'The server has too many open connections; try again shortly.'), {
      'Retry-After': String(busyRetryAfterSeconds),
    });
    // Closed once the answer is out, before anything the client sent is read: read, each of
    // its pipelined requests would be parsed into a request and a response only to be thrown
    // away, which under a flood of connections was most of the server's memory.
    socket.once('finish', () => socket.destroy());
  });
  server.keepAliveTimeout = timeouts.keepAliveMs;
  // A socket idle this long (e.g. a client that stopped reading) is destroyed by Node.
  server.timeout = timeouts.idleMs;
  server.on('clientError', answerClientError);
  // Node hands CONNECT to a tunnel handler and answers other Expect values with a bare 417;
  // both get the Error object here (docs/design.md: any method but GET, HEAD, OPTIONS is a 405).
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    endWithError(socket, apiError(405, 'CONNECT is not allowed; this API is read-only (GET, HEAD, OPTIONS).'), { Allow: allowedMethods });
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(securityHeaders)) res.setHeader(name, value);
    sendError(req, res, apiError(417, `Only "Expect: 100-continue" is understood; got "${String(req.headers.expect).slice(0, 60)}".`));
  });

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolvePromise());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  fallbackOrigin = url;

  return {
    url,
    flow,
    close: () =>
      new Promise<void>((resolvePromise) => {
        // In-flight requests finish; their connections close after the response instead of
        // idling in keep-alive until the timeout.
        closing = true;
        for (const responses of unanswered.values())
          for (const res of responses) if (!res.headersSent) res.setHeader('Connection', 'close');
        server.close(() => resolvePromise());
        server.closeIdleConnections();
      }),
  };
}

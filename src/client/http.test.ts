import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiRequestError, BodyTooLargeError, InvalidResponseError, NetworkError, RedirectError } from './errors';
import { getText } from './http';
import { readTotal } from './responses';

/**
 * The transport, against a real HTTP server (Node's fetch, as the harvester uses it) and,
 * where the browser's side matters (abort, Accept), a fetch stand-in.
 */

type Handler = (url: URL, request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void;
const routes = new Map<string, Handler>();
const seen: { path: string; accept?: string; authorization?: string; userAgent?: string }[] = [];
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url!, origin);
    seen.push({
      path: url.pathname,
      ...(request.headers.accept ? { accept: request.headers.accept } : {}),
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
      ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
    });
    const handler = routes.get(url.pathname);
    if (handler) handler(url, request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const route = (path: string, handler: Handler) => {
  routes.set(path, handler);
  return `${origin}${path}`;
};
const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('negotiation', () => {
  test('asks for the format with Accept and reads the answer in it', async () => {
    const url = route('/xml', (_url, _request, response) => response.writeHead(200, { 'Content-Type': 'text/xml' }).end('<records/>'));
    const answer = await getText(url, { format: 'xml', headers: { 'User-Agent': 'records-test' } });
    expect(answer.text).toBe('<records/>');
    expect(seen.at(-1)).toMatchObject({ path: '/xml', accept: 'application/xml', userAgent: 'records-test' });
  });

  test('refuses an answer in another format, naming both', async () => {
    const url = route('/html', (_url, _request, response) => response.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>app'));
    const error = await caught(getText(url, { format: 'json' }));
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).problem).toBe('expected JSON, received text/html.');
  });

  test('takes JSON and XML under their suffixed types, and BibTeX however it is labelled', async () => {
    const cases = [
      ['json', 'application/vnd.records+json; charset=utf-8'],
      ['xml', 'application/atom+xml'],
      ['bibtex', 'text/x-bibtex'],
      ['bibtex', 'text/plain'],
    ] as const;
    for (const [format, type] of cases) {
      const url = route(`/typed`, (_url, _request, response) => response.writeHead(200, { 'Content-Type': type }).end('x'));
      expect((await getText(url, { format })).text, type).toBe('x');
    }
  });
});

describe('failures', () => {
  test('an error status carries the Error object in any of the three forms, and Retry-After', async () => {
    const error = { statusCode: 503, statusMessage: 'Service Unavailable', errorDescription: 'Reloading the store.' };
    const json = route('/busy', (_url, _request, response) =>
      response.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '7' }).end(JSON.stringify(error)),
    );
    expect(await caught(getText(json))).toMatchObject({
      status: 503,
      apiError: error,
      retryAfterMs: 7000,
      message: 'Reloading the store.',
    });
    const text = route('/text-error', (_url, _request, response) => response.writeHead(400).end('400\nBad Request\nrows is not a number'));
    expect(await caught(getText(text, { format: 'bibtex' }))).toMatchObject({
      status: 400,
      apiError: { errorDescription: 'rows is not a number' },
    });
    const page = route('/proxy-error', (_url, _request, response) => response.writeHead(502).end('<html>\n  Bad   gateway </html>'));
    const proxied = await caught(getText(page));
    expect(proxied).toBeInstanceOf(ApiRequestError);
    expect(proxied).toMatchObject({ status: 502, apiError: undefined, retryAfterMs: undefined, excerpt: '<html> Bad gateway </html>' });
  });

  test('no answer is a NetworkError about the head, a cut-off body one about the body', async () => {
    const closed = await caught(getText('http://127.0.0.1:9/records'));
    expect(closed).toBeInstanceOf(NetworkError);
    expect(closed).toMatchObject({ phase: 'head', transient: true });
    const cut = route('/cut', (_url, request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      response.write('[{"repo_id":');
      response.once('drain', () => {});
      setImmediate(() => request.socket.destroy());
    });
    const broken = await caught(getText(cut));
    expect(broken).toBeInstanceOf(NetworkError);
    expect(broken).toMatchObject({ phase: 'body', transient: true });
  });

  test('a response head Node refuses to read is a NetworkError no retry will pass', async () => {
    const url = route('/huge-head', (_url, _request, response) =>
      response.writeHead(200, { Link: `<${'a'.repeat(1024 * 1024)}>` }).end('[]'),
    );
    expect(await caught(getText(url))).toMatchObject({ name: 'NetworkError', transient: false });
  });

  test('an abort stays an abort, before the answer and while reading it', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await caught(getText(`${origin}/anything`, { signal: controller.signal }))).toMatchObject({ name: 'AbortError' });
    const reading = new AbortController();
    const slow = route('/slow', (_url, _request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('[');
    });
    // Aborted once the first part of the body is in: the read of the next one ends.
    const aborted = await caught(getText(slow, { signal: reading.signal, onText: () => reading.abort() }));
    expect(aborted).toMatchObject({ name: 'AbortError' });
  });

  test('a server that stops sending ends the request with a TimeoutError', async () => {
    let stalled = () => {};
    const url = route('/stall', (_url, _request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.write('[');
      stalled = () => response.end(']');
    });
    expect(await caught(getText(url, { timeoutMs: 200 }))).toMatchObject({ name: 'TimeoutError' });
    stalled();
  });

  test('a timeout while the body comes is a TimeoutError where the browser says only that the read was aborted', async () => {
    // Chromium's body reader rejects with "BodyStreamBuffer was aborted", not the signal's reason.
    const browserFetch: typeof fetch = async (_input, init) => {
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          stream.enqueue(new TextEncoder().encode('['));
          init!.signal!.addEventListener('abort', () => stream.error(new DOMException('BodyStreamBuffer was aborted', 'AbortError')));
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'application/json' } });
    };
    const options = { fetch: browserFetch, timeoutMs: 50 };
    expect(await caught(getText(`${origin}/anything`, options))).toMatchObject({ name: 'TimeoutError' });
    const stopped = new AbortController();
    const reading = getText(`${origin}/anything`, { fetch: browserFetch, signal: stopped.signal, onText: () => stopped.abort() });
    expect(await caught(reading)).toMatchObject({ name: 'AbortError' });
  });
});

describe('bounds', () => {
  test('a body over maxBytes is refused while it arrives; onText sees it as it comes and may refuse it', async () => {
    let written = 0;
    const url = route('/endless', (_url, _request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' });
      const more = () => {
        while (written < 50_000_000 && response.write('x'.repeat(65_536))) written += 65_536;
        if (written < 50_000_000) response.once('drain', more);
        else response.end();
      };
      more();
    });
    expect(await caught(getText(url, { maxBytes: 100_000 }))).toBeInstanceOf(BodyTooLargeError);
    expect(written).toBeLessThan(50_000_000);
    const refusal = new Error('a record too large');
    let parts = 0;
    const refused = await caught(
      getText(url, {
        onText: () => {
          if (++parts === 2) throw refusal;
        },
      }),
    );
    expect(refused).toBe(refusal);
  });

  test('with sameOriginRedirects, a redirect is followed on the origin and refused off it', async () => {
    const target = route('/moved-here', (_url, _request, response) =>
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]'),
    );
    const here = route('/move', (_url, _request, response) => response.writeHead(301, { Location: '/moved-here' }).end());
    const answer = await getText(here, { sameOriginRedirects: true, auth: { token: 't', origin } });
    expect(answer).toMatchObject({ url: target, text: '[]' });
    expect(seen.at(-1)).toMatchObject({ path: '/moved-here', authorization: 'Bearer t' });
    const away = route('/away', (_url, _request, response) => response.writeHead(302, { Location: 'http://127.0.0.2:9/records' }).end());
    const error = await caught(getText(away, { sameOriginRedirects: true }));
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ reason: 'origin', location: 'http://127.0.0.2:9/records' });
    const loop = route('/loop', (_url, _request, response) => response.writeHead(302, { Location: '/loop' }).end());
    expect(await caught(getText(loop, { sameOriginRedirects: true }))).toMatchObject({ reason: 'count' });
  });

  test('the token goes to its own origin only', async () => {
    const requests: (string | null)[] = [];
    const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
      requests.push(new Headers(init?.headers).get('Authorization'));
      return new Response('[]', { headers: { 'Content-Type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const auth = { token: 's3cret', origin: 'https://mirror.example' };
    await getText('https://mirror.example/api/records', { fetch, auth });
    await getText('https://elsewhere.example/api/records', { fetch, auth });
    expect(requests).toEqual(['Bearer s3cret', null]);
  });
});

describe('readTotal', () => {
  const headers = (value?: string) => new Headers(value === undefined ? {} : { 'X-Total-Count': value });
  test('reads a count, is undefined without one, and refuses a malformed one only when strict', () => {
    expect(readTotal(headers(' 42 '), 'u')).toBe(42);
    expect(readTotal(headers(), 'u', { strict: true })).toBeUndefined();
    expect(readTotal(headers('many'), 'u')).toBeUndefined();
    expect(() => readTotal(headers('-1'), 'u', { strict: true })).toThrow(/X-Total-Count is "-1", not a number/);
    // 10^23 reads as a number, but no store holds that many records: not a total.
    expect(readTotal(headers('100000000000000000000000'), 'u')).toBeUndefined();
    expect(readTotal(headers(String(Number.MAX_SAFE_INTEGER)), 'u')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

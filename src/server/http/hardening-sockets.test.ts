import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apiErrorSchema, type ApiError } from '../../formats/error';
import { useFixture } from './server-fixture.test-support';

/**
 * What reaches the server over a raw TCP socket, below any well-behaved HTTP client:
 * malformed request lines, odd targets and headers, traversal attempts in every encoding,
 * oversized requests, and clients that stall, trickle, stop reading or vanish. The server
 * answers each with a well-formed status (an Error object where it answers at all) or
 * closes the connection, never crashes, frees what the connection held, and goes on
 * serving the next client.
 */

// A temporary tree: a secret beside the app and media folders, which no URL may reach.
const root = mkdtempSync(join(tmpdir(), 'records-hardening-'));
const staticDir = join(root, 'static');
const mediaDir = join(root, 'media');
const secret = 'TOP-SECRET-7f3a9c';
mkdirSync(join(staticDir, 'assets'), { recursive: true });
mkdirSync(mediaDir);
writeFileSync(join(root, 'secret.txt'), secret);
writeFileSync(join(root, 'secret.json'), JSON.stringify({ secret }));
const indexHtml = '<!doctype html><title>Records Explorer</title><div id="root"></div>';
writeFileSync(join(staticDir, 'index.html'), indexHtml);
writeFileSync(join(staticDir, 'assets', 'app-1234.js'), 'console.log("app");');
writeFileSync(join(mediaDir, 'clip.mp4'), 'small clip');
// Far bigger than the socket buffers between server and client (loopback receive buffers
// grow to tens of megabytes), so a client that stops reading really leaves the server
// holding an unfinished response. Sparse: it takes no disk space.
const bigSize = 256 * 1024 * 1024;
const bigFile = join(mediaDir, 'big.mp4');
writeFileSync(bigFile, '');
truncateSync(bigFile, bigSize);

/** Short limits, so the slow-client cases finish in seconds; production defaults are longer. */
const timeouts = { headersMs: 600, requestMs: 1200, keepAliveMs: 600, idleMs: 1200 };
const fx = useFixture({ staticDir, mediaDir, timeouts });
afterAll(() => rmSync(root, { recursive: true, force: true }));

const port = () => Number(new URL(fx.url).port);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------
// A minimal HTTP/1.1 reader over a raw socket

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

interface Exchange {
  readonly answers: Answer[];
  /** The server closed the connection (rather than the test ending it). */
  readonly closedByServer: boolean;
}

/** Splits complete responses off the front of `data`; HEAD answers and 204/304 have no body. */
function parseAnswers(data: Buffer, headRequests: number): { answers: Answer[]; rest: Buffer } {
  const answers: Answer[] = [];
  let rest = data;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const [statusLine = '', ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
    if (!match) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const status = Number(match[1]);
    const bodyless = status === 204 || status === 304 || answers.length < headRequests;
    const length = bodyless ? 0 : Number(headers['content-length'] ?? 0);
    if (headers['transfer-encoding']) throw new Error('unexpected chunked answer');
    if (rest.length < end + 4 + length) break;
    answers.push({ status, headers, body: rest.subarray(end + 4, end + 4 + length) });
    rest = rest.subarray(end + 4 + length);
  }
  return { answers, rest };
}

/**
 * Sends `bytes` and collects answers until `expect` of them are complete (and, with
 * `untilClose`, the server has closed) or the server closes. Anything else within the
 * bound fails: that is a hang.
 */
function exchange(
  bytes: string | Buffer,
  options: { expect?: number; withinMs?: number; headRequests?: number; untilClose?: boolean } = {},
): Promise<Exchange> {
  const expected = options.expect ?? 1;
  return new Promise((resolve, reject) => {
    const socket = connect(port(), '127.0.0.1');
    let data = Buffer.alloc(0);
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve({ answers: parseAnswers(data, options.headRequests ?? 0).answers, closedByServer });
      } catch (error) {
        reject(error);
      }
    };
    const timer = setTimeout(() => {
      done = true;
      socket.destroy();
      reject(
        new Error(
          `no answer and no close within ${options.withinMs ?? 5000} ms; got ${JSON.stringify(data.toString('latin1').slice(0, 200))}`,
        ),
      );
    }, options.withinMs ?? 5000);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (!options.untilClose && parseAnswers(data, options.headRequests ?? 0).answers.length >= expected) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // A reset is one way of closing; what matters is what was answered before it.
    socket.on('error', () => finish(true));
    socket.write(bytes);
  });
}

function errorOf(answer: Answer): ApiError {
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  const error = apiErrorSchema.parse(JSON.parse(answer.body.toString('utf8')));
  expect(error.statusCode).toBe(answer.status);
  return error;
}

/** The server still answers an ordinary request on a fresh connection. */
async function expectStillServing() {
  const { answers } = await exchange('GET /api/lit/v1/records?rows=1 HTTP/1.1\r\nHost: localhost\r\n\r\n');
  expect(answers[0]?.status).toBe(200);
  expect(JSON.parse(answers[0]!.body.toString('utf8'))).toHaveLength(1);
}

const get = (target: string, headers = 'Host: localhost\r\n') => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;

/** Open file descriptors of this process (the server runs in it); Linux only. */
const hasProc = existsSync('/proc/self/fd');
const openFds = () => readdirSync('/proc/self/fd').length;

/** How many descriptors of this process have `path` open. */
function openHandlesOf(path: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) count++;
    } catch {
      // closed while we looked
    }
  }
  return count;
}

/** Waits (bounded) until nothing holds `path` open; returns how many still do. */
async function handlesReleased(path: string, withinMs = 5000): Promise<number> {
  const deadline = Date.now() + withinMs;
  let count = openHandlesOf(path);
  while (count > 0 && Date.now() < deadline) {
    await sleep(100);
    count = openHandlesOf(path);
  }
  return count;
}

/** Waits (bounded) for the descriptor count to come back near `baseline`. */
async function settledFds(baseline: number, withinMs = 5000): Promise<number> {
  const deadline = Date.now() + withinMs;
  let count = openFds();
  while (count > baseline + 3 && Date.now() < deadline) {
    await sleep(100);
    count = openFds();
  }
  return count;
}

// ---------------------------------------------------------------------------------------

describe('malformed request lines and headers', () => {
  it.each([
    ['an unknown method', 'FOO / HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a lower-case method', 'get /api/lit/v1/records HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a NUL in the method', 'G\0T / HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a NUL in the path', 'GET /api/lit/v1/records/10\x0001 HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a raw space in the path', 'GET /api/lit v1/records HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['raw backslashes in the path', 'GET \\..\\..\\secret.txt HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['an unknown HTTP version', 'GET / HTTP/9.9\r\nHost: localhost\r\n\r\n'],
    ['an HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['plain garbage', 'hello there\r\n\r\n'],
    ['binary garbage (a TLS hello)', Buffer.from('160301020001000200fe0303aabbccdd0000', 'hex')],
    ['a control character in a header', 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Test: a\x01b\r\n\r\n'],
    ['a header without a colon', 'GET / HTTP/1.1\r\nHost: localhost\r\nNo colon here\r\n\r\n'],
    ['an obsolete folded header', 'GET / HTTP/1.1\r\nHost: localhost\r\nX-Test: a\r\n folded\r\n\r\n'],
    [
      'both Content-Length and Transfer-Encoding',
      'GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n',
    ],
    ['two different Content-Lengths', 'GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'],
    ['a negative Content-Length', 'GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n'],
    ['a bare LF line ending in the head', 'GET / HTTP/1.1\nHost: localhost\n\n'],
  ])('%s is a 400 Error object and the connection is closed', async (_label, bytes) => {
    const { answers, closedByServer } = await exchange(bytes, { untilClose: true });
    expect(closedByServer).toBe(true);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.status).toBe(400);
    expect(answers[0]!.headers.connection).toBe('close');
    expect(errorOf(answers[0]!).statusMessage).toBe('Bad Request');
    await expectStillServing();
  });

  it('a known method that is not GET, HEAD or OPTIONS (PROPFIND) is 405 with an Error object', async () => {
    const { answers } = await exchange('PROPFIND /api/lit/v1/records HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(answers[0]!.status).toBe(405);
    expect(answers[0]!.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(errorOf(answers[0]!).statusCode).toBe(405);
  });

  it('CONNECT (a proxy tunnel) is a 405 Error object with Allow, the connection closes, and the server goes on', async () => {
    const { answers, closedByServer } = await exchange('CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n', {
      untilClose: true,
    });
    expect(closedByServer).toBe(true);
    expect(answers).toHaveLength(1);
    expect(answers[0]!.status).toBe(405);
    expect(answers[0]!.headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(errorOf(answers[0]!).statusCode).toBe(405);
    await expectStillServing();
  });

  it('an Expect other than 100-continue is a 417 Error object with the usual headers', async () => {
    const { answers } = await exchange(
      'GET /api/lit/v1/records?rows=1 HTTP/1.1\r\nHost: localhost\r\nExpect: foo\r\nAccept: application/xml\r\n\r\n',
    );
    expect(answers[0]!.status).toBe(417);
    expect(answers[0]!.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(answers[0]!.body.toString('utf8')).toContain('<statusCode>417</statusCode>');
    expect(answers[0]!.headers['x-content-type-options']).toBe('nosniff');
    expect(answers[0]!.headers['cache-control']).toBe('no-store');
    await expectStillServing();
  });

  it('an HTTP/1.1 request without Host is a 400 Error object; HTTP/1.0 needs none', async () => {
    const missing = await exchange('GET /api/lit/v1/records?rows=1 HTTP/1.1\r\nAccept: application/xml\r\n\r\n');
    expect(missing.answers[0]!.status).toBe(400);
    expect(missing.answers[0]!.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(missing.answers[0]!.body.toString('utf8')).toContain('<statusCode>400</statusCode>');
    const old = await exchange('GET /api/lit/v1/records?rows=1 HTTP/1.0\r\n\r\n');
    expect(old.answers[0]!.status).toBe(200);
  });

  it('an absolute-form target is the resource at its path (RFC 9112 requires servers to accept it)', async () => {
    const { answers } = await exchange(get('http://proxy.example:8080/api/lit/v1/records/1001'));
    expect(answers[0]!.status).toBe(200);
    expect(answers[0]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((JSON.parse(answers[0]!.body.toString('utf8')) as { repo_id: string }[]).map((record) => record.repo_id)).toEqual(['1001']);
    const unknown = await exchange(get('http://proxy.example/api/lit/v1/records?nope=1'));
    expect(errorOf(unknown.answers[0]!).statusCode).toBe(400);
  });

  it('the asterisk form is answered for OPTIONS (the server-wide form)', async () => {
    const options = await exchange('OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(options.answers[0]!.status).toBe(204);
    expect(options.answers[0]!.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('headers larger than Node accepts are a clean 431 Error object, and the server stays up', async () => {
    for (const head of [
      `Host: localhost\r\nX-Big: ${'a'.repeat(40_000)}\r\n`,
      `Host: localhost\r\n${Array.from({ length: 1600 }, (_, i) => `X-H${i}: ${'b'.repeat(20)}\r\n`).join('')}`,
      `Host: localhost\r\nAccept: ${'application/xml;q=0.5, '.repeat(2000)}\r\n`,
    ]) {
      const { answers, closedByServer } = await exchange(`GET /api/lit/v1/records HTTP/1.1\r\n${head}\r\n`, { untilClose: true });
      expect(answers[0]!.status).toBe(431);
      expect(closedByServer).toBe(true);
      expect(errorOf(answers[0]!).statusMessage).toBe('Request Header Fields Too Large');
      expect(answers[0]!.headers['x-content-type-options']).toBe('nosniff');
      await expectStillServing();
    }
  });

  it('a URL over 8,192 characters is a 414 Error object in the negotiated format; one beyond Node’s head limit is a 431', async () => {
    const long = `/api/lit/v1/records?q=${'a'.repeat(9000)}`;
    const xml = await exchange(get(long, 'Host: localhost\r\nAccept: application/xml\r\n'));
    expect(xml.answers[0]!.status).toBe(414);
    expect(xml.answers[0]!.body.toString('utf8')).toMatch(
      /<error><statusCode>414<\/statusCode><statusMessage>URI Too Long<\/statusMessage><errorDescription>[^<]+<\/errorDescription><\/error>/,
    );
    const bibtex = await exchange(get(long, 'Host: localhost\r\nAccept: application/x-bibtex\r\n'));
    expect(bibtex.answers[0]!.body.toString('utf8').split('\n').slice(0, 2)).toEqual(['414', 'URI Too Long']);
    const huge = await exchange(get(`/api/lit/v1/records?q=${'a'.repeat(40_000)}`));
    // (40,000 characters: beyond the server's head limit, maxHeaderBytes.)
    expect(huge.answers[0]!.status).toBe(431);
    errorOf(huge.answers[0]!);
    await expectStillServing();
  });

  it('a link of 20,000 characters followed in a browser is a page a person can read; an API client still gets the 414 Error object', async () => {
    const link = `/lit?q=${'plasma+'.repeat(2900)}`;
    const browser = await exchange(get(link, 'Host: localhost\r\nAccept: text/html,application/xhtml+xml\r\nSec-Fetch-Mode: navigate\r\n'));
    const page = browser.answers[0]!;
    expect(page.status).toBe(414);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = page.body.toString('utf8');
    expect(html).toContain('<h1>This link is too long</h1>');
    expect(html).toContain('<a href="/">Start a new search</a>');
    expect(html).not.toContain('plasma');
    const client = await exchange(get(`/api/lit/v1/records?q=${'plasma+'.repeat(2900)}`));
    expect(client.answers[0]!.status).toBe(414);
    expect(errorOf(client.answers[0]!).statusCode).toBe(414);
    await expectStillServing();
  });

  it('a body sent with a GET is read past, and the next request on the connection is answered', async () => {
    const bytes = `GET /api/lit/v1/records?rows=1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 11\r\n\r\nhello world${get('/api/lit/v1/records/1002')}`;
    const { answers } = await exchange(bytes, { expect: 2 });
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[1]!.body.toString('utf8')).toContain('"repo_id":"1002"');
  });

  it('pipelined requests are answered in order on one connection', async () => {
    const bytes = ['/api/lit/v1/records/1001', '/api/lit/v1/records/none-such', '/api/lit/v1/records/1003', '/api/dc/v1/records/1004']
      .map((path) => get(path))
      .join('');
    const { answers } = await exchange(bytes, { expect: 4 });
    expect(answers.map((answer) => answer.status)).toEqual([200, 404, 200, 200]);
    expect(answers.map((answer) => /"repo_id":"(\d+)"/.exec(answer.body.toString('utf8'))?.[1])).toEqual([
      '1001',
      undefined,
      '1003',
      '1004',
    ]);
    const head = await exchange('HEAD /api/lit/v1/records/1003 HTTP/1.1\r\nHost: localhost\r\n\r\n', { headRequests: 1 });
    expect(head.answers[0]!.status).toBe(200);
    expect(head.answers[0]!.body.length).toBe(0);
  });

  it('a valid request pipelined with garbage in one write is answered, then the garbage gets its 400', async () => {
    const { answers, closedByServer } = await exchange(`${get('/api/lit/v1/records/1001')}NONSENSE\r\n\r\n`, {
      expect: 2,
      untilClose: true,
    });
    expect(answers.map((answer) => answer.status)).toEqual([200, 400]);
    expect(closedByServer).toBe(true);
  });

  it('garbage after a completed request on a kept-alive connection is a 400 for that garbage only', async () => {
    const answers: Answer[] = [];
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port(), '127.0.0.1');
      let data = Buffer.alloc(0);
      let sentGarbage = false;
      socket.on('data', (chunk: Buffer) => {
        data = Buffer.concat([data, chunk]);
        const parsed = parseAnswers(data, 0).answers;
        if (parsed.length === 1 && !sentGarbage) {
          sentGarbage = true;
          socket.write('NONSENSE\r\n\r\n');
        }
      });
      socket.on('close', () => {
        answers.push(...parseAnswers(data, 0).answers);
        resolve();
      });
      socket.on('error', reject);
      socket.write(get('/api/lit/v1/records/1001'));
    });
    expect(answers.map((answer) => answer.status)).toEqual([200, 400]);
    errorOf(answers[1]!);
  });
});

describe('paths that try to leave the served folders, in every encoding', () => {
  const escapes = [
    '../secret.txt',
    '../../secret.txt',
    '..%2fsecret.txt',
    '..%2Fsecret.txt',
    '%2e%2e/secret.txt',
    '%2e%2e%2fsecret.txt',
    '%2E%2E%2Fsecret.txt',
    '.%2e/secret.txt',
    '%2e./secret.txt',
    '..%5csecret.txt',
    '..%5Csecret.txt',
    '%252e%252e%252fsecret.txt',
    '..%252fsecret.txt',
    '..%c0%afsecret.txt',
    '%c0%ae%c0%ae/secret.txt',
    '%c0%ae%c0%ae%c0%afsecret.txt',
    '..%e0%80%afsecret.txt',
    '%ef%bc%8e%ef%bc%8e%ef%bc%8fsecret.txt',
    '..%00/secret.txt',
    'secret.txt%00.js',
    '..;/secret.txt',
    '....//secret.txt',
    '..././secret.txt',
    '%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    encodeURIComponent(join(root, 'secret.txt')),
    `/${join(root, 'secret.txt')}`,
    `%2f${join(root, 'secret.txt').slice(1)}`,
  ];
  const prefixes = ['/', '/assets/', '/media/', '/files/fulltext/lit/'];
  const cases = prefixes.flatMap((prefix) =>
    escapes.flatMap((escape) => [`${prefix}${escape}`, `${prefix}${escape.replace('secret.txt', 'secret.json')}`]),
  );

  it(`none of ${cases.length} escaping paths reaches a file outside; each is a 404/400 or the app's own page`, async () => {
    for (const path of cases) {
      const { answers } = await exchange(get(path));
      const answer = answers[0];
      expect(answer, path).toBeDefined();
      const body = answer!.body.toString('latin1');
      expect(body, path).not.toContain(secret);
      expect(body, path).not.toContain('root:');
      if (answer!.status === 200) {
        // Extensionless or unknown paths are app routes: the app's index.html, nothing else.
        expect(body, path).toBe(indexHtml);
      } else {
        expect([400, 404], path).toContain(answer!.status);
        errorOf(answer!);
      }
    }
    await expectStillServing();
  });

  it('the files that are meant to be served still are', async () => {
    const [asset] = (await exchange(get('/assets/app-1234.js'))).answers;
    expect(asset!.status).toBe(200);
    const [clip] = (await exchange(get('/media/clip.mp4'))).answers;
    expect(clip!.body.toString()).toBe('small clip');
    const [encoded] = (await exchange(get('/media/%63lip.mp4'))).answers;
    expect(encoded!.body.toString()).toBe('small clip');
  });
});

describe('slow, silent and vanishing clients', () => {
  it('a client that sends half a request and stalls gets a 408 Error object and is cut off', async () => {
    const { answers, closedByServer } = await exchange('GET /api/lit/v1/records HTTP/1.1\r\nHost: localhost\r\n', {
      withinMs: 10_000,
      untilClose: true,
    });
    expect(closedByServer).toBe(true);
    expect(answers[0]!.status).toBe(408);
    expect(errorOf(answers[0]!).statusMessage).toBe('Request Timeout');
    await expectStillServing();
  });

  it('a client that trickles its headers a byte at a time is cut off all the same', async () => {
    const socket = connect(port(), '127.0.0.1');
    let data = '';
    socket.on('data', (chunk: Buffer) => (data += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /api/lit/v1/records HTTP/1.1\r\nHost: localhost\r\n');
    const trickle = setInterval(() => socket.writable && socket.write('X'), 100);
    const outcome = await Promise.race([closed.then(() => 'closed'), sleep(10_000).then(() => 'still open')]);
    clearInterval(trickle);
    socket.destroy();
    expect(outcome).toBe('closed');
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a client that connects and never sends anything is disconnected', async () => {
    const { answers, closedByServer } = await exchange('', { withinMs: 10_000, untilClose: true });
    expect(closedByServer).toBe(true);
    for (const answer of answers) expect(answer.status).toBe(408);
  });

  it('an idle kept-alive connection is closed after its timeout', async () => {
    const socket = connect(port(), '127.0.0.1');
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    let answered = false;
    socket.on('data', () => (answered = true));
    socket.write(get('/api/lit/v1/records?rows=1'));
    const outcome = await Promise.race([closed.then(() => 'closed'), sleep(10_000).then(() => 'still open')]);
    socket.destroy();
    expect(answered).toBe(true);
    expect(outcome).toBe('closed');
  });

  it.runIf(hasProc)('a client that stops reading a large file is cut off, and the file is closed', async () => {
    const socket: Socket = connect(port(), '127.0.0.1');
    let received = 0;
    let headerSeen = false;
    socket.on('error', () => undefined);
    const firstChunk = new Promise<void>((resolve) =>
      socket.once('data', (chunk: Buffer) => {
        headerSeen = chunk.toString('latin1').startsWith('HTTP/1.1 200');
        received += chunk.length;
        socket.pause(); // and never read again until the server has given up
        resolve();
      }),
    );
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(get('/media/big.mp4'));
    // The kernel keeps taking data for a while; once it stops, the server's idle limit
    // (1.2 s here) runs out and the server lets go of the socket and the file.
    await firstChunk;
    expect(openHandlesOf(bigFile), 'the download holds the file open').toBe(1);
    const stillOpen = await handlesReleased(bigFile, 15_000);
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    socket.resume();
    const outcome = await Promise.race([ended.then(() => 'closed'), sleep(10_000).then(() => 'still open')]);
    socket.destroy();
    expect(headerSeen).toBe(true);
    expect(stillOpen, 'the server closed the file').toBe(0);
    expect(outcome).toBe('closed');
    expect(received, 'the server stopped sending').toBeLessThan(bigSize / 2);
    await expectStillServing();
  });

  it.runIf(hasProc)('40 clients that vanish mid-download leave no open files behind', async () => {
    const baseline = openFds();
    for (let i = 0; i < 40; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(port(), '127.0.0.1');
        socket.on('error', () => undefined);
        socket.once('data', () => {
          socket.destroy();
          resolve();
        });
        socket.write(get('/media/big.mp4', `Host: localhost\r\nRange: bytes=${i * 1000}-\r\n`));
      });
    }
    expect(await handlesReleased(bigFile), 'downloads still holding the file').toBe(0);
    expect(await settledFds(baseline)).toBeLessThanOrEqual(baseline + 3);
    await expectStillServing();
  });

  it('clients that vanish before or during an API response do not disturb the server', async () => {
    const big = get('/api/lit/v1/records?rows=1000', 'Host: localhost\r\nAccept: application/xml\r\n');
    await Promise.all(
      Array.from(
        { length: 60 },
        (_, i) =>
          new Promise<void>((resolve) => {
            const socket = connect(port(), '127.0.0.1');
            socket.on('error', () => undefined);
            socket.on('close', () => resolve());
            if (i % 3 === 0) {
              // Gone right after asking.
              socket.write(big, () => socket.destroy());
            } else if (i % 3 === 1) {
              // Gone after the first bytes of the answer.
              socket.once('data', () => socket.destroy());
              socket.write(big);
            } else {
              // Gone halfway through sending the request.
              socket.write(big.slice(0, 20), () => socket.destroy());
            }
          }),
      ),
    );
    await expectStillServing();
  });
});

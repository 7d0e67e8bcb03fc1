import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { deploymentByKey } from '../src/deployments/registry';
import { harvest } from '../src/server/harvest/harvest';
import { parseUpstreamXml } from '../src/server/import/upstream';
import { freePort, repoRoot, startChild, type Child } from './processes';

/**
 * Attacks of issue 23 on what the server and the harvester read (the access rule, parsers,
 * harvest bounds, hostile headers), each reported beside the figure the issue found:
 *
 * - unauthenticated reads: every kind of URL that can show a record (API, unAPI, feeds,
 *   facets, record pages, full text), for `ids` records of a private mirror, without a token;
 * - an XML prolog of processing instructions and comments (28, 40, 400) before the root;
 * - hostile harvest sources: endless `next` links to empty pages, the same ten records
 *   again and again, a 200 MB record; SIGTERM during a backoff and mid-download;
 * - hostile headers: `Retry-After: 599.9`, a `next` link with credentials, a 1 MB `Link`,
 *   `/unapi?id=%ZZ`, a Host nothing vouches for.
 */

type Log = (line: string) => void;
const lit = deploymentByKey('LIT')!;
const base = lit.basePath;
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

// --- unauthenticated reads of a private mirror -------------------------------------------

async function unauthenticatedReads(db: string, work: string, ids: number, log: Log) {
  const token = 'attack-token-9c41';
  const tokenFile = join(work, 'token');
  writeFileSync(tokenFile, token);
  const staticDir = resolve(repoRoot, 'dist');
  const app = existsSync(join(staticDir, 'index.html')) ? ['--static', staticDir] : [];
  const server = await startChild(
    process.execPath,
    ['bin/records.js', 'serve', '--db', db, '--port', '{port}', '--token-file', tokenFile, ...app],
    '/lit/opensearch.xml',
  );
  try {
    const auth = { Authorization: `Bearer ${token}` };
    const listed: { repo_id: string; title: string }[] = [];
    for (let page = 1; listed.length < ids; page++) {
      const answer = await fetch(`${server.url}${base}/records?rows=${Math.min(1000, ids)}&page=${page}`, { headers: auth });
      if (!answer.ok) throw new Error(`listing the mirror: ${answer.status} ${await answer.text()}`);
      const records = (await answer.json()) as { repo_id: string; title: string }[];
      if (records.length === 0) break;
      listed.push(...records.slice(0, ids - listed.length));
    }
    const started = performance.now();
    let requests = 0;
    let leaked = 0;
    const leakedKinds = new Set<string>();
    for (const record of listed) {
      const id = encodeURIComponent(record.repo_id);
      const probe = record.title.slice(0, 40);
      const urls: [string, string][] = [
        ['api record', `${base}/records/${id}`],
        ['api search', `${base}/records?repo_id=${id}`],
        ['feed', `${base}/feed?repo_id=${id}`],
        ['facets', `${base}/facets?repo_id=${id}`],
        ['unapi mods', `/unapi?id=LIT:${id}&format=mods`],
        ['record page', `/lit/records/${id}`],
        ['full text', `/files/fulltext/lit/${id}.txt`],
      ];
      for (const [kind, path] of urls) {
        requests++;
        const text = await (await fetch(server.url + path)).text();
        if (probe && text.includes(probe)) {
          leaked++;
          leakedKinds.add(kind);
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    log(`unauthenticated reads: ${leaked} of ${requests} answers carried a record (${listed.length} records, ${seconds.toFixed(1)} s)`);
    return {
      records: listed.length,
      requests,
      leaked,
      leakedKinds: [...leakedKinds],
      seconds,
      today: '2,000 records read unauthenticated in 1.04 s',
    };
  } finally {
    await server.stop();
  }
}

// --- XML prolog ----------------------------------------------------------------------------

function xmlProlog(log: Log) {
  const rows = [28, 40, 400].map((parts) => {
    const prolog = Array.from({ length: parts }, (_, i) => (i % 2 ? `<!-- c${i} -->` : `<?pi ${i}?>`)).join('\n');
    const started = performance.now();
    const records = parseUpstreamXml(
      lit,
      `${prolog}<records><record><osti_id>1</osti_id><title>t</title></record></records>`,
      'prolog.xml',
    ).length;
    const ms = performance.now() - started;
    log(`XML prolog of ${parts} parts: ${ms.toFixed(1)} ms`);
    return { parts, ms, records };
  });
  return { rows, today: '28 parts 19.7 s; 40 parts never finished, 100% CPU, SIGTERM ignored' };
}

// --- hostile harvest sources ---------------------------------------------------------------

async function hostileSource(handler: (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>) {
  let requests = 0;
  let sentBytes = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    const write = res.write.bind(res);
    res.write = ((chunk: string | Buffer, ...rest: never[]) => {
      sentBytes += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    void Promise.resolve(handler(req, res, new URL(req.url ?? '/', 'http://source'))).catch(() => res.destroy());
  });
  // In BENCH_PORTS when it is set, as the servers the attacks start are (processes.ts).
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests: () => requests,
    sentBytes: () => sentBytes,
    close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
  };
}

const record = (id: number) => ({ osti_id: String(id), title: `Record ${id}`, entry_date: '2024-01-01T00:00:00Z' });

function endless(res: ServerResponse, url: URL, body: string, origin: string) {
  const next = new URL(url.pathname + url.search, origin);
  next.searchParams.set('page', String(Number(url.searchParams.get('page') ?? '1') + 1));
  res.writeHead(200, { 'content-type': 'application/json', link: `<${next.href}>; rel="next"` });
  res.end(body);
}

async function runHarvest(source: { url: string }, work: string, name: string) {
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const quickRetry = { attempts: 8, baseDelayMs: 50, maxDelayMs: 500, maxRetryAfterMs: 600_000 };
  const outcome = await harvest({
    deployment: lit,
    baseUrl: `${source.url}${base}`,
    dbPath: join(work, `${name}.db`),
    userAgent: 'records-attack',
    retry: quickRetry,
  }).then(
    (report) => `completed: ${report.received} records`,
    (error: Error) => error.message,
  );
  clearInterval(sampler);
  return { outcome: outcome.slice(0, 300), seconds: (performance.now() - started) / 1000, peakRssGrowthMb: mb(peak - rssBefore) };
}

async function hostileHarvests(work: string, log: Log) {
  const results: Record<string, unknown> = {};
  const same = JSON.stringify(Array.from({ length: 10 }, (_, i) => record(i + 1)));
  for (const [name, today, body] of [
    ['empty next chain', '50,147 empty pages in 50 s, 833 MB, never ended', '[]'],
    ['same ten records', 'the same 10 records fetched 38,939 times, never ended', same],
  ] as const) {
    const source = await hostileSource((_req, res, url) => endless(res, url, body, source.url));
    const run = await runHarvest(source, work, name.replace(/ /g, '-'));
    results[name] = { ...run, requests: source.requests(), today };
    log(`${name}: ${source.requests()} requests, ${run.seconds.toFixed(1)} s, RSS +${run.peakRssGrowthMb} MB: ${run.outcome}`);
    await source.close();
  }
  const huge = await hostileSource(async (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`[${JSON.stringify(record(1))},{"osti_id":"4242","title":"`);
    const chunk = 'x'.repeat(2 ** 20);
    for (let i = 0; i < 200 && !res.destroyed; i++)
      if (!res.write(chunk)) await new Promise((done) => res.once('drain', done).once('close', done));
    res.end('"}]');
  });
  const run = await runHarvest(huge, work, 'huge');
  results['200 MB record'] = { ...run, sentMb: mb(huge.sentBytes()), today: '5.7 GB after 120 s, still running, SIGTERM ignored' };
  log(`200 MB record: ${mb(huge.sentBytes())} MB sent, RSS +${run.peakRssGrowthMb} MB: ${run.outcome}`);
  await huge.close();
  return results;
}

/** `records harvest` as a process, SIGTERM once the source has seen it in `state`; ms to exit. */
async function sigterm(work: string, log: Log) {
  const results: Record<string, unknown> = {};
  for (const state of ['backoff', 'mid-download'] as const) {
    let reached: () => void = () => {};
    const inState = new Promise<void>((done) => (reached = done));
    const source = await hostileSource((_req, res) => {
      if (state === 'backoff') {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '300' });
        res.end('{}', () => reached());
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`[${JSON.stringify(record(1))},`, () => reached());
      }
    });
    const child = spawn(
      process.execPath,
      ['bin/records.js', 'harvest', 'LIT', `${source.url}${base}`, '--db', join(work, `sigterm-${state}.db`)],
      { cwd: repoRoot, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    await inState;
    // The harvester learns of the answer a moment after the source sent it.
    await new Promise((done) => setTimeout(done, 500));
    const started = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    const ms = performance.now() - started;
    results[state] = {
      exitCode: code,
      msToExit: Math.round(ms),
      today: 'SIGTERM ignored (with the backtracking prolog and the 200 MB record)',
    };
    log(`SIGTERM ${state}: exit ${code} after ${Math.round(ms)} ms`);
    await source.close();
  }
  return results;
}

// --- hostile headers -----------------------------------------------------------------------

async function hostileHeaders(work: string, db: string, log: Log) {
  const results: Record<string, unknown> = {};
  const cases: [string, string, (res: ServerResponse, url: URL, origin: string) => void][] = [
    [
      'Retry-After: 599.9',
      '8 immediate retries',
      (res) => (res.writeHead(503, { 'retry-after': '599.9', 'content-type': 'application/json' }), res.end('{}')),
    ],
    [
      'next link with credentials',
      'retried 8 times',
      (res, url, origin) => {
        const next = new URL(url.pathname, origin);
        next.username = 'u';
        next.password = 'p';
        next.searchParams.set('page', '2');
        res.writeHead(200, { 'content-type': 'application/json', link: `<${next.href}>; rel="next"` });
        res.end(JSON.stringify([record(1)]));
      },
    ],
    [
      '1 MB Link header',
      'retried 8 times',
      (res) => (res.writeHead(200, { 'content-type': 'application/json', link: `<${'a'.repeat(2 ** 20)}>; rel="next"` }), res.end('[]')),
    ],
  ];
  for (const [name, today, answer] of cases) {
    const times: number[] = [];
    const source = await hostileSource((_req, res, url) => {
      times.push(performance.now());
      answer(res, url, source.url);
    });
    const run = await runHarvest(source, work, name.replace(/\W+/g, '-'));
    const gaps = times.slice(1).map((time, i) => Math.round(time - times[i]!));
    results[name] = { requests: source.requests(), msBetweenTries: gaps, outcome: run.outcome, today };
    log(`${name}: ${source.requests()} requests (gaps ${gaps.join(', ') || 'none'} ms): ${run.outcome.slice(0, 120)}`);
    await source.close();
  }
  const server: Child = await startChild(
    process.execPath,
    ['bin/records.js', 'serve', '--db', db, '--port', '{port}'],
    '/lit/opensearch.xml',
  );
  try {
    const unapi = await fetch(`${server.url}/unapi?id=%ZZ`);
    await unapi.arrayBuffer();
    const stackLogged = /\n\s+at /.test(server.output());
    results['/unapi?id=%ZZ'] = { status: unapi.status, stackLogged, today: '500 with a stack in the log per request' };
    log(`/unapi?id=%ZZ: ${unapi.status}, stack logged: ${stackLogged}`);
    const hosted: Record<string, string | null> = {};
    for (const path of [`${base}/records?rows=2`, '/lit/opensearch.xml']) {
      const { request } = await import('node:http');
      hosted[path] = await new Promise<string | null>((done, fail) => {
        const req = request(`${server.url}${path}`, { headers: { Host: 'attacker.example' } }, (res) => {
          res.resume();
          done(String(res.headers['cache-control'] ?? null));
        });
        req.on('error', fail);
        req.end();
      });
    }
    results['Host: attacker.example'] = {
      cacheControl: hosted,
      today: 'the Host in Link, record links and opensearch.xml, cached publicly for an hour',
    };
    log(`Host: attacker.example: ${JSON.stringify(hosted)}`);
  } finally {
    await server.stop();
  }
  return results;
}

/** Every attack of this module against the corpus at `db`, with `ids` records for the read walk. */
export async function hostileInputAttacks(db: string, ids: number, log: Log) {
  const work = mkdtempSync(join(tmpdir(), 'records-attack-input-'));
  try {
    return {
      unauthenticatedReads: await unauthenticatedReads(db, work, ids, log),
      xmlProlog: xmlProlog(log),
      hostileHarvests: await hostileHarvests(work, log),
      sigterm: await sigterm(work, log),
      hostileHeaders: await hostileHeaders(work, db, log),
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

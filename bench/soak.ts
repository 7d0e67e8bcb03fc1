/**
 * Soak test: the real server (`node bin/records.js serve`, a child process) under a
 * realistic mix of requests — searches, filtered and deep-paged lists, single records,
 * XML, BibTeX, full texts and requests that must fail — at concurrency 64 for 60 s, over
 * loopback only. Every answer is checked (status, content type, body shape); the run
 * fails (exit 1) on any transport error, timeout, 5xx, unexpected status or malformed
 * body, or if the server does not shut down cleanly on SIGTERM afterwards.
 *
 *   npm run soak
 *   SOAK_SECONDS=10 SOAK_CONCURRENCY=16 npm run soak
 *
 * Settings (environment): SOAK_SECONDS (60), SOAK_CONCURRENCY (64), SOAK_RECORDS
 * (generated records per deployment, 5000), SOAK_SEED (1), SOAK_TIMEOUT_MS (10000, per
 * request). The database is built in bench/tmp/ (gitignored) with the CLI's own code
 * (openStoreWriter + generateRecords) and reused while the generator, the store's writing
 * code, the count and the seed are unchanged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { deployments } from '../src/deployments/registry';
import type { Deployment } from '../src/deployments/schema';
import { generateRecords } from '../src/server/corpus/generate';
import { openStoreWriter } from '../src/server/store/sqlite/sqlite';
import { storeSources } from './corpus';

const root = fileURLToPath(new URL('../', import.meta.url));
const tmpDir = resolve(root, 'bench/tmp');

function setting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive whole number, not '${raw}'`);
  return value;
}

const seconds = setting('SOAK_SECONDS', 60);
const concurrency = setting('SOAK_CONCURRENCY', 64);
const perDeployment = setting('SOAK_RECORDS', 5000);
const seed = setting('SOAK_SEED', 1);
const timeoutMs = setting('SOAK_TIMEOUT_MS', 10_000);

const log = (line: string) => console.log(`soak: ${line}`);
const sleep = (ms: number) => new Promise((resolvePromise) => setTimeout(resolvePromise, ms));

// ---------------------------------------------------------------------------------------
// The database

/** Everything that decides what ends up in the file. */
function fingerprint(): string {
  const hash = createHash('sha256').update(`${perDeployment} ${seed}\n`);
  const sources = [
    ...readdirSync(resolve(root, 'src/server/corpus'))
      .filter((name) => name.endsWith('.ts') && !name.includes('.test.') && !name.includes('.tmp.'))
      .map((name) => `src/server/corpus/${name}`),
    ...readdirSync(resolve(root, 'src/deployments'))
      .filter((name) => name.endsWith('.ts') && !name.includes('.test.'))
      .map((name) => `src/deployments/${name}`),
    ...storeSources,
  ];
  for (const file of sources.sort()) if (existsSync(resolve(root, file))) hash.update(file).update(readFileSync(resolve(root, file)));
  return hash.digest('hex').slice(0, 12);
}

function prepareDatabase(): string {
  mkdirSync(tmpDir, { recursive: true });
  const print = fingerprint();
  const path = resolve(tmpDir, `soak-${perDeployment}-s${seed}-${print}.db`);
  if (existsSync(path)) {
    log(`reusing ${path}`);
    return path;
  }
  // Older soak databases are stale now; keep bench/tmp from filling up.
  for (const name of readdirSync(tmpDir)) if (/^soak-.*\.db/.test(name)) rmSync(resolve(tmpDir, name), { force: true });
  const building = `${path}.building`;
  log(`generating ${perDeployment.toLocaleString('en')} records per deployment into ${path} ...`);
  const started = performance.now();
  const writer = openStoreWriter(building, { bulk: true });
  try {
    for (const deployment of deployments) writer.put(deployment.key, generateRecords(deployment, perDeployment, { seed }));
  } finally {
    writer.close();
  }
  renameSync(building, path);
  log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s (${(statSync(path).size / 1e6).toFixed(1)} MB)`);
  return path;
}

// ---------------------------------------------------------------------------------------
// The server, as an operator starts it

interface Server {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

async function startServer(db: string): Promise<Server> {
  const noApp = resolve(tmpDir, 'soak-no-app');
  mkdirSync(noApp, { recursive: true });
  const child = spawn(
    process.execPath,
    [resolve(root, 'bin/records.js'), 'serve', '--db', db, '--port', '0', '--host', '127.0.0.1', '--static', noApp],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) =>
    child.on('exit', (code, signal) => resolvePromise({ code, signal })),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0];
    // Ready once every deployment's count is printed: the store's workers are answering.
    if (url && (stdout.match(/\(\d+ records\)/g) ?? []).length === deployments.length) return { child, url, exited, stderr: () => stderr };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${stdout}\n${stderr}`);
    await sleep(50);
  }
}

/** Resident set size of a process in bytes (Linux /proc; `ps` elsewhere). */
function rssOf(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function peakRssOf(pid: number): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------
// HTTP

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
}

class Timeout extends Error {}

function get(url: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolvePromise, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        try {
          const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
          resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body });
        } catch (error) {
          reject(error);
        }
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Timeout(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}

// ---------------------------------------------------------------------------------------
// What clients ask for

type Format = 'json' | 'xml' | 'bibtex';
const acceptOf: Record<Format, string> = { json: 'application/json', xml: 'application/xml', bibtex: 'application/x-bibtex' };

interface Planned {
  readonly kind: string;
  readonly path: string;
  readonly format: Format;
  readonly expect: number;
  /** Full texts are plain text, whatever Accept says. */
  readonly text?: boolean;
  readonly gzip?: boolean;
}

interface Sample {
  readonly ids: string[];
  readonly words: string[];
  readonly surnames: string[];
  readonly fulltexts: string[];
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const chance = (p: number) => Math.random() < p;

function dateParam(deployment: Deployment, year: number, month: number, day: number): string {
  const mm = String(month).padStart(2, '0');
  const dd = String(day).padStart(2, '0');
  return deployment.dateFormat === 'MM-DD-YYYY' ? `${mm}-${dd}-${year}` : `${mm}/${dd}/${year}`;
}

/** Collects ids, title words, author surnames and full-text links from the served data. */
async function sampleData(url: string): Promise<Map<string, Sample>> {
  const samples = new Map<string, Sample>();
  for (const deployment of deployments) {
    const sample: Sample = { ids: [], words: [], surnames: [], fulltexts: [] };
    for (const page of [1, 7, 23]) {
      const reply = await get(`${url}${deployment.basePath}/records?rows=100&page=${page}`, { accept: 'application/json' });
      if (reply.status !== 200) throw new Error(`sampling ${deployment.key} gave ${reply.status}`);
      for (const record of JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>[]) {
        sample.ids.push(String(record.repo_id));
        for (const word of String(record.title ?? '').split(/[^\p{L}\p{N}]+/u)) if (word.length >= 5) sample.words.push(word.toLowerCase());
        const author = (record.authors as string[] | undefined)?.[0];
        if (author) sample.surnames.push(author.split(',')[0]!.trim());
        for (const link of (record.links as { rel: string; href: string }[] | undefined) ?? []) {
          if (link.rel === 'fulltext' && link.href.startsWith(url)) sample.fulltexts.push(link.href.slice(url.length));
        }
      }
    }
    if (sample.ids.length === 0 || sample.words.length === 0) throw new Error(`${deployment.key} has no records to sample`);
    samples.set(deployment.key, sample);
  }
  return samples;
}

function plan(samples: Map<string, Sample>): Planned {
  const deployment = pick(deployments);
  const sample = samples.get(deployment.key)!;
  const records = `${deployment.basePath}/records`;
  const q = (text: string) => encodeURIComponent(text);
  const roll = Math.random();
  if (roll < 0.28) {
    const text = chance(0.5)
      ? pick(sample.words)
      : chance(0.5)
        ? `"${pick(sample.words)} ${pick(sample.words)}"`
        : `${pick(sample.words)} OR ${pick(sample.words)}*`;
    return {
      kind: 'search',
      path: `${records}?q=${q(text)}&rows=${pick([10, 20, 50])}&page=${pick([1, 1, 1, 2, 3])}`,
      format: 'json',
      expect: 200,
      gzip: chance(0.5),
    };
  }
  if (roll < 0.38) {
    const from = 1990 + Math.floor(Math.random() * 25);
    const filters = [
      `author=${q(pick(sample.surnames))}`,
      `publication_date_start=${q(dateParam(deployment, from, 1, 1))}&publication_date_end=${q(dateParam(deployment, from + 5, 12, 31))}`,
      `title=${q(pick(sample.words))}&sort=${pick(['title', 'publication_date desc', 'entry_date'])}`,
    ];
    return { kind: 'filtered', path: `${records}?${pick(filters)}`, format: 'json', expect: 200, gzip: chance(0.5) };
  }
  if (roll < 0.46) {
    return { kind: 'browse', path: `${records}?page=${1 + Math.floor(Math.random() * 50)}&rows=20`, format: 'json', expect: 200 };
  }
  if (roll < 0.66) return { kind: 'record', path: `${records}/${encodeURIComponent(pick(sample.ids))}`, format: 'json', expect: 200 };
  if (roll < 0.74) return { kind: 'xml-list', path: `${records}?q=${q(pick(sample.words))}&rows=20`, format: 'xml', expect: 200 };
  if (roll < 0.81) return { kind: 'xml-record', path: `${records}/${encodeURIComponent(pick(sample.ids))}`, format: 'xml', expect: 200 };
  if (roll < 0.88) {
    return chance(0.5)
      ? { kind: 'bibtex-list', path: `${records}?q=${q(pick(sample.words))}&rows=20`, format: 'bibtex', expect: 200 }
      : { kind: 'bibtex-record', path: `${records}/${encodeURIComponent(pick(sample.ids))}`, format: 'bibtex', expect: 200 };
  }
  if (roll < 0.93) {
    const withText = [...samples.values()].flatMap((other) => other.fulltexts);
    if (withText.length > 0) return { kind: 'fulltext', path: pick(withText), format: 'json', expect: 200, text: true };
  }
  const format = pick<Format>(['json', 'xml', 'bibtex']);
  return pick<Planned>([
    { kind: 'error-404', path: `${records}/no-such-record-${Math.floor(Math.random() * 1e6)}`, format, expect: 404 },
    { kind: 'error-400', path: `${records}?titel=${q(pick(sample.words))}`, format, expect: 400 },
    { kind: 'error-400', path: `${records}?rows=0`, format, expect: 400 },
    { kind: 'error-400', path: `${records}?publication_date_start=02%2F30%2F2024`, format, expect: 400 },
    { kind: 'error-400', path: `${records}?q=%E0%A4%A`, format, expect: 400 },
  ]);
}

/** Why an answer is wrong, or undefined when it is right. */
function defect(planned: Planned, reply: Reply): string | undefined {
  if (reply.status !== planned.expect) return `status ${reply.status}, expected ${planned.expect}`;
  const type = String(reply.headers['content-type']);
  const text = reply.body.toString('utf8');
  if (planned.text) return type === 'text/plain; charset=utf-8' && text.length > 0 ? undefined : `full text as ${type}`;
  if (reply.status === 200) {
    if (planned.format === 'json') {
      if (type !== 'application/json; charset=utf-8') return `content type ${type}`;
      const body = JSON.parse(text) as unknown;
      if (!Array.isArray(body)) return 'JSON body is not an array';
      if (planned.kind === 'record' && body.length !== 1) return `record answer has ${body.length} records`;
      if (!/^\d+$/.test(String(reply.headers['x-total-count']))) return 'no X-Total-Count';
      return undefined;
    }
    if (planned.format === 'xml')
      return type === 'application/xml; charset=utf-8' && text.includes('<records') ? undefined : `XML answer ${type}`;
    return type === 'application/x-bibtex; charset=utf-8' && (text.trim() === '' || text.trimStart().startsWith('@misc{'))
      ? undefined
      : `BibTeX answer ${type}`;
  }
  // Errors: the spec's Error object in the negotiated format.
  if (planned.format === 'json') {
    const error = JSON.parse(text) as { statusCode?: unknown; statusMessage?: unknown; errorDescription?: unknown };
    return error.statusCode === reply.status && typeof error.statusMessage === 'string' && typeof error.errorDescription === 'string'
      ? undefined
      : 'malformed JSON Error';
  }
  if (planned.format === 'xml') return text.includes(`<error><statusCode>${reply.status}</statusCode>`) ? undefined : 'malformed XML Error';
  const lines = text.replace(/\n$/, '').split('\n');
  return lines.length === 3 && lines[0] === String(reply.status) ? undefined : 'malformed BibTeX-requested Error';
}

// ---------------------------------------------------------------------------------------
// The run

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);

async function main(): Promise<number> {
  const db = prepareDatabase();
  const server = await startServer(db);
  const pid = server.child.pid!;
  const stopServer = () => server.child.exitCode === null && server.child.kill('SIGKILL');
  process.once('SIGINT', () => {
    stopServer();
    process.exit(130);
  });
  try {
    log(`server pid ${pid} at ${server.url}`);
    const samples = await sampleData(server.url);
    const rssBefore = rssOf(pid);

    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const kinds = new Map<string, number[]>();
    const failures: string[] = [];
    let errors = 0;
    let timeouts = 0;
    let peak = rssBefore ?? 0;
    const rssTimer = setInterval(() => (peak = Math.max(peak, rssOf(pid) ?? 0)), 1000);

    log(`${seconds} s at concurrency ${concurrency}, ${perDeployment.toLocaleString('en')} records per deployment ...`);
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          const planned = plan(samples);
          const headers: Record<string, string> = { accept: acceptOf[planned.format] };
          if (planned.gzip) headers['accept-encoding'] = 'gzip';
          const sent = performance.now();
          try {
            const reply = await get(`${server.url}${planned.path}`, headers);
            const took = performance.now() - sent;
            latencies.push(took);
            (kinds.get(planned.kind) ?? kinds.set(planned.kind, []).get(planned.kind)!).push(took);
            statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
            const wrong = defect(planned, reply);
            if (wrong) {
              errors++;
              if (failures.length < 10) failures.push(`${planned.kind} ${planned.path}: ${wrong}`);
            }
          } catch (error) {
            if (error instanceof Timeout) timeouts++;
            else errors++;
            if (failures.length < 10) failures.push(`${planned.kind} ${planned.path}: ${(error as Error).message}`);
          }
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(rssTimer);
    const rssAfter = rssOf(pid);
    peak = Math.max(peak, rssAfter ?? 0, peakRssOf(pid) ?? 0);
    agent.destroy();

    // Shutdown as an operator does it: SIGTERM, and the process must exit 0 promptly.
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const exit = await Promise.race([server.exited, sleep(15_000).then(() => undefined)]);
    const shutdownSeconds = (performance.now() - signalled) / 1000;
    const cleanExit = exit?.code === 0;

    const sorted = Float64Array.from(latencies).sort();
    const fiveHundreds = [...statuses].filter(([status]) => status >= 500).reduce((sum, [, n]) => sum + n, 0);
    const summary = {
      seconds: Number(elapsed.toFixed(1)),
      concurrency,
      recordsPerDeployment: perDeployment,
      requests: latencies.length,
      rps: Math.round(latencies.length / elapsed),
      p50Ms: Number(percentile(sorted, 50).toFixed(2)),
      p90Ms: Number(percentile(sorted, 90).toFixed(2)),
      p99Ms: Number(percentile(sorted, 99).toFixed(2)),
      maxMs: Number((sorted.at(-1) ?? Number.NaN).toFixed(2)),
      statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
      errors,
      timeouts,
      fiveHundreds,
      rssBeforeBytes: rssBefore,
      rssAfterBytes: rssAfter,
      rssPeakBytes: peak || undefined,
      shutdownSeconds: Number(shutdownSeconds.toFixed(2)),
      shutdownExitCode: exit?.code ?? null,
    };

    console.log('');
    console.log(
      `requests     ${summary.requests.toLocaleString('en')} in ${summary.seconds} s (${summary.rps.toLocaleString('en')} per second) at concurrency ${concurrency}`,
    );
    console.log(`latency      p50 ${ms(summary.p50Ms)}   p90 ${ms(summary.p90Ms)}   p99 ${ms(summary.p99Ms)}   max ${ms(summary.maxMs)}`);
    console.log(
      `statuses     ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}: ${n.toLocaleString('en')}`)
        .join('   ')}`,
    );
    console.log(
      'by kind      ' +
        [...kinds]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([kind, times]) => {
            const kindSorted = Float64Array.from(times).sort();
            return `${kind} ${times.length.toLocaleString('en')} (p50 ${ms(percentile(kindSorted, 50))}, p99 ${ms(percentile(kindSorted, 99))})`;
          })
          .join('\n             '),
    );
    console.log(`errors       ${errors}`);
    console.log(`timeouts     ${timeouts} (limit ${timeoutMs} ms)`);
    console.log(`5xx          ${fiveHundreds}`);
    console.log(`server RSS   before ${mb(rssBefore)}, after ${mb(rssAfter)}, peak ${mb(summary.rssPeakBytes)}`);
    console.log(
      `shutdown     SIGTERM → ${exit ? `exit ${exit.code ?? exit.signal} in ${shutdownSeconds.toFixed(2)} s` : 'still running after 15 s'}`,
    );
    for (const failure of failures) console.log(`  failure: ${failure}`);
    if (server.stderr().trim()) console.log(`server stderr:\n${server.stderr().trim().split('\n').slice(0, 20).join('\n')}`);
    writeFileSync(resolve(tmpDir, 'soak-last.json'), `${JSON.stringify(summary, null, 2)}\n`);

    const ok = errors === 0 && timeouts === 0 && fiveHundreds === 0 && cleanExit && latencies.length > 0;
    console.log(ok ? '\nsoak: PASS' : '\nsoak: FAIL');
    return ok ? 0 : 1;
  } finally {
    stopServer();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error('soak:', error);
    process.exit(1);
  },
);

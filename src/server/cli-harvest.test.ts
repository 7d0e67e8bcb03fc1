import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { generateRecords } from './corpus/generate';
import {
  passThrough,
  servedRecords,
  serveStore,
  startProxy,
  storedRecords,
  type ProxyRule,
  type TestProxy,
  type TestSource,
} from './harvest/source.test-support';
import { tablesOf } from './store/sqlite/schema';
import { openStoreWriter } from './store/sqlite/sqlite';

/**
 * `records harvest` as an operator runs it: a real process against a real source. Killed
 * outright mid-run it keeps every batch it committed and the next run resumes from there;
 * Ctrl-C stops it cleanly after the pages in hand; a private source takes its token from
 * --token-file; bad options are one-line errors.
 */

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));
const dc1 = deploymentByKey('DC1')!;
const dir = mkdtempSync(join(tmpdir(), 'records-cli-harvest-'));
const sourcePath = join(dir, 'source.db');
const sourceCount = 2000;
const token = 'harvest-test-token-7f3a';
let source: TestSource;
let privateSource: TestSource;
let proxy: TestProxy;
let mirrors = 0;
const children = new Set<ChildProcess>();

const newMirror = () => join(dir, `mirror-${++mirrors}.db`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A source that pages 20 at a time (it refuses rows=1000) and answers each page slowly. */
const slowSmallPages: ProxyRule = async (context) => {
  if (Number(context.url.searchParams.get('rows') ?? '20') > 100) {
    context.res.writeHead(400, { 'content-type': 'application/json' });
    context.res.end('{"statusCode":400,"statusMessage":"Bad Request","errorDescription":"rows must be at most 100"}');
    return;
  }
  await sleep(30);
  await passThrough(context);
};

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function records(args: readonly string[]) {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<Finished>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  return { child, exited };
}

/** Reads how many records a running harvest has committed, once it has committed any. */
async function whenCommitted(path: string, atLeast: number, withinMs = 30_000): Promise<number> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    try {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      try {
        db.pragma('busy_timeout = 2000');
        // Batches count as committed once the harvest state that points past them is too.
        const { n } = db.prepare<[], { n: number }>(`SELECT coalesce(max(harvested), 0) AS n FROM harvest_state`).get()!;
        if (n >= atLeast) return n;
      } finally {
        db.close();
      }
    } catch {
      // not created yet, or mid-write
    }
    await sleep(25);
  }
  throw new Error(`no ${atLeast} records committed in ${path} within ${withinMs} ms`);
}

function expectMirrorOfSource(mirror: string, origin: string): void {
  const expected = servedRecords(sourcePath, dc1, origin);
  const mirrored = storedRecords(mirror, dc1);
  expect(mirrored.size).toBe(expected.size);
  for (const [id, record] of expected) expect(mirrored.get(id), id).toEqual(record);
}

beforeAll(async () => {
  const writer = openStoreWriter(sourcePath);
  writer.put('DC1', generateRecords(dc1, sourceCount, { seed: 11 }));
  writer.close();
  source = await serveStore(sourcePath);
  privateSource = await serveStore(sourcePath, token);
  proxy = await startProxy(source.url);
});

afterEach(() => proxy.reset());

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await proxy.close();
  await source.close();
  await privateSource.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('records harvest', () => {
  it('killed mid-run (SIGKILL) keeps its committed batches, and the next run resumes from them', async () => {
    proxy.rule = slowSmallPages;
    const mirror = newMirror();
    const base = `${proxy.url}${dc1.basePath}`;
    const run = records(['harvest', 'DC1', base, '--db', mirror]);
    const committed = await whenCommitted(mirror, 1000);
    run.child.kill('SIGKILL');
    await run.exited;
    expect(committed).toBeLessThan(sourceCount);
    const firstRunRequests = proxy.requests.length;
    await proxy.reset();

    proxy.rule = slowSmallPages;
    const resumed = await records(['harvest', 'DC1', base, '--db', mirror]).exited;
    expect(resumed.stderr).not.toMatch(/Error:|\n\s+at /);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/where the last run ended/);
    // The resumed run asks for what the killed one had not stored, not for everything again.
    const entryStart = new URL(proxy.requests[0]!, proxy.url).searchParams.get('entry_date_start');
    expect(entryStart).toMatch(/^\d\d\/\d\d\/\d{4}$/);
    expect(firstRunRequests).toBeGreaterThan(1000 / 20);
    expect(proxy.requests.length).toBeLessThan(1 + sourceCount / 20);
    expectMirrorOfSource(mirror, proxy.url);
  });

  it('stops on SIGINT after the pages in hand, indexes what it wrote and says how to resume', async () => {
    proxy.rule = slowSmallPages;
    const mirror = newMirror();
    const run = records(['harvest', 'DC1', `${proxy.url}${dc1.basePath}`, '--db', mirror, '--contact', 'mirror-ops@example.org']);
    await whenCommitted(mirror, 1000);
    run.child.kill('SIGINT');
    const finished = await run.exited;
    expect(finished.code).toBe(130);
    expect(finished.stdout).toMatch(/Stopped before the last page; every batch written is kept/);
    // Not a terminal: progress comes as plain lines, never carriage returns.
    expect(finished.stderr).toMatch(/^DC1 from .*: [\d,]+ of 2,000 records \(\d+%\), [\d,]+\/s/m);
    expect(finished.stderr).not.toContain('\r');
    const kept = storedRecords(mirror, dc1).size;
    expect(kept).toBeGreaterThanOrEqual(1000);
    const db = new Database(mirror, { readonly: true });
    const postings = db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${tablesOf(dc1).postings}`).get()!.n;
    db.close();
    expect(postings).toBeGreaterThan(0);
  });

  it('sends the token from --token-file to a private source, and stops with a clear message without it', async () => {
    const base = `${privateSource.url}${dc1.basePath}`;
    const refused = await records(['harvest', 'DC1', base, '--db', newMirror()]).exited;
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^records: The source refused access \(401\) to .*the source needs a token: give it with --token-file/m);

    const badTokenFile = join(dir, 'bad-token');
    writeFileSync(badTokenFile, 'two\nlines');
    const bad = await records(['harvest', 'DC1', base, '--db', newMirror(), '--token-file', badTokenFile]).exited;
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/The token in --token-file must be visible ASCII without spaces or line breaks/);

    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, `${token}\n`);
    const mirror = newMirror();
    const accepted = await records(['harvest', 'DC1', base, '--db', mirror, '--token-file', tokenFile]).exited;
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toMatch(
      /Harvested 2,000 DC1 records .*: 2,000 new, 0 replaced, 0 unchanged\.\nThe source reports 2,000 records in all\.\nEvery reported record was received\./,
    );
    expectMirrorOfSource(mirror, privateSource.url);
  });

  it.each([
    [['--store', 'sqlite:other.db'], /Give either --db or --store, not both/],
    [['--concurrency', '9'], /--concurrency must be a whole number from 1 to 4; got '9'/],
    [['--since', '2024-02-30'], /--since must be a real date written as MM\/DD\/YYYY or YYYY-MM-DD; got '2024-02-30'/],
    [['--format', 'bibtex'], /--format must be json or xml/],
    [['--contact', 'me (at) home'], /--contact must be an e-mail address or an http\(s\) URL/],
  ])('refuses %j with a one-line message', async (extra, message) => {
    const mirror = newMirror();
    const finished = await records(['harvest', 'DC1', `${proxy.url}${dc1.basePath}`, '--db', mirror, ...extra]).exited;
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(message);
    expect(finished.stderr.trim().split('\n')).toHaveLength(1);
    expect(proxy.requests).toHaveLength(0);
  });

  it('says when the base URL is not a records API', async () => {
    const finished = await records(['harvest', 'DC1', `${proxy.url}/nowhere`, '--db', newMirror()]).exited;
    expect(finished.code).toBe(1);
    expect(finished.stderr).toMatch(/^records: The source answered 404 to .*\/nowhere\/records\?/m);
  });
});

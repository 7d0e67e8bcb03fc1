import { mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { harvest, maxBarrenPages, type HarvestOptions } from './harvest';
import { HarvestError } from './request';
import { summarize } from './summary';
import { startProxy, type ProxyContext, type TestProxy } from './source.test-support';

/**
 * A harvest against a source that means harm: it must end, with a one-line reason, and hold
 * no more than a page and a record at a time whatever the source sends.
 */

const dc1 = deploymentByKey('DC1')!;
const dir = mkdtempSync(join(tmpdir(), 'records-hostile-source-'));
let source: TestProxy;
let targets = 0;

beforeAll(async () => {
  // Nothing behind it: every answer is the rule's own.
  source = await startProxy('http://127.0.0.1:9');
});
afterEach(() => source.reset());
afterAll(async () => {
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

const quickRetry = { attempts: 5, baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 5000 };

function options(extra: Partial<HarvestOptions> = {}): HarvestOptions {
  return {
    deployment: dc1,
    baseUrl: `${source.url}${dc1.basePath}`,
    dbPath: join(dir, `mirror-${++targets}.db`),
    userAgent: 'records-explorer-test',
    retry: quickRetry,
    ...extra,
  };
}

const record = (id: number) => ({ osti_id: String(id), title: `Record ${id}`, entry_date: '2024-01-01T00:00:00Z' });

/** A JSON page with a `next` link to page n + 1, forever. */
function endlessPage(context: ProxyContext, body: string): void {
  const n = Number(context.url.searchParams.get('page') ?? '1');
  const next = new URL(context.url);
  next.searchParams.set('page', String(n + 1));
  context.res.writeHead(200, { 'content-type': 'application/json', link: `<${next.href}>; rel="next"` });
  context.res.end(body);
}

async function harvestError(extra: Partial<HarvestOptions> = {}): Promise<Error> {
  const error = await harvest(options(extra)).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(HarvestError);
  return error as Error;
}

describe('a source that never ends', () => {
  it('stops a chain of distinct next links to empty pages, saying why', async () => {
    source.rule = async (context) => endlessPage(context, '[]');
    const error = await harvestError();
    expect(error.message).toMatch(
      new RegExp(`^The source sent ${maxBarrenPages} pages in a row with no record not received before .*; its paging does not end\\.$`),
    );
    expect(source.requests.length).toBe(maxBarrenPages);
  });

  it('stops when the same ten records come back page after page', async () => {
    const same = JSON.stringify(Array.from({ length: 10 }, (_, i) => record(i + 1)));
    source.rule = async (context) => endlessPage(context, same);
    const error = await harvestError();
    expect(error.message).toMatch(/pages in a row with no record not received before/);
    expect(source.requests.length).toBe(maxBarrenPages + 1);
  });

  it('stops a source that brings one new record among many old ones on every page', async () => {
    const old = Array.from({ length: 500 }, (_, i) => record(i + 1));
    source.rule = async (context) => {
      const n = Number(context.url.searchParams.get('page') ?? '1');
      endlessPage(context, JSON.stringify([...old, record(100_000 + n)]));
    };
    const error = await harvestError();
    expect(error.message).toMatch(/^The source sent [\d,]+ records for [\d,]+ different ones .*; its paging repeats itself\.$/);
    expect(source.requests.length).toBeLessThan(100);
  });
});

describe('a source that sends too much', () => {
  it('refuses a record over the limit as it arrives, naming page, position, id and size, without reading the rest', async () => {
    let sent = 0;
    let finished: () => void;
    const closed = new Promise<void>((resolve) => (finished = resolve));
    source.rule = async (context) => {
      context.res.writeHead(200, { 'content-type': 'application/json' });
      context.res.on('close', () => finished());
      context.res.write(`[${JSON.stringify(record(1))},{"osti_id":"4242","title":"`);
      // 200 MB of title, a megabyte at a time, each after the client took the last.
      const megabyte = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 200 && !context.res.destroyed; i++) {
        sent += megabyte.length;
        if (!context.res.write(megabyte)) await new Promise((resolve) => context.res.once('drain', resolve).once('close', resolve));
      }
      context.res.end('"}]');
    };
    const error = await harvestError();
    expect(error.message).toMatch(
      /^Refused the page http:\/\/\S+: its record 2 \(id 4242\) is larger than 4\.0 MB \([\d.]+ MB read when it was refused\); records over 4\.0 MB are refused\.$/,
    );
    await closed;
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses a page over the page limit, whatever its records', async () => {
    source.rule = async (context) => endlessPage(context, JSON.stringify(Array.from({ length: 5000 }, (_, i) => record(i + 1))));
    const error = await harvestError({ maxPageBytes: 100_000 });
    expect(error.message).toMatch(/^The page \S+ is larger than 0\.10 MB; ask for fewer rows\.$/);
  });
});

describe('failures that cannot pass are not retried', () => {
  it('a next link with credentials in it', async () => {
    source.rule = async (context) => {
      const next = new URL(context.url);
      next.username = 'user';
      next.password = 'secret';
      next.searchParams.set('page', '2');
      context.res.writeHead(200, { 'content-type': 'application/json', link: `<${next.href}>; rel="next"` });
      context.res.end(JSON.stringify([record(1)]));
    };
    const error = await harvestError();
    expect(error.message).toMatch(/next page carries credentials/);
    expect(error.message).not.toContain('secret');
    expect(source.requests.length).toBe(1);
  });

  it('a megabyte of Link header', async () => {
    source.rule = async (context) => {
      context.res.writeHead(200, { 'content-type': 'application/json', link: `<${'a'.repeat(1024 * 1024)}>; rel="next"` });
      context.res.end('[]');
    };
    const error = await harvestError();
    expect(error.message).toMatch(/cannot be read: UND_ERR_HEADERS_OVERFLOW/);
    expect(source.requests.length).toBe(1);
  });

  it('a page in another format than the one asked for: the base URL is not a records API', async () => {
    source.rule = async (context) => {
      context.res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      context.res.end('<!doctype html><p>Welcome');
    };
    const error = await harvestError();
    expect(error.message).toMatch(
      /^The source answered \S+ in another format \(expected JSON, received text\/html\): is the base URL a records API/,
    );
    expect(source.requests.length).toBe(1);
  });

  it('a 4xx other than 408 and 429, while a 408 is tried again', async () => {
    for (const status of [400, 404, 410, 451]) {
      source.rule = async (context) => {
        context.res.writeHead(status, { 'content-type': 'application/json' });
        context.res.end(JSON.stringify({ statusCode: status, statusMessage: 'No', errorDescription: 'never' }));
      };
      await harvestError();
      expect(source.requests.length, String(status)).toBe(status === 400 ? 2 : 1);
      await source.reset();
    }
    source.rule = async (context) => {
      context.res.writeHead(context.n === 1 ? 408 : 200, { 'content-type': 'application/json' });
      context.res.end(context.n === 1 ? '{}' : JSON.stringify([record(1)]));
    };
    const report = await harvest(options());
    expect(report.requests).toBe(2);
    expect(report.distinct).toBe(1);
  });
});

describe('a source that lies about its size', () => {
  it('sends an X-Total-Count of 10^23, which is no total and is neither compared nor printed', async () => {
    source.rule = async (context) => {
      context.res.writeHead(200, { 'content-type': 'application/json', 'x-total-count': `1${'0'.repeat(23)}` });
      context.res.end(JSON.stringify([record(1), record(2)]));
    };
    const report = await harvest(options());
    expect(report).toMatchObject({ complete: true, distinct: 2 });
    expect(report.reportedFirst).toBeUndefined();
    const summary = summarize(report, 'DC1', 'http://source.example').join('\n');
    expect(summary).toMatch(/sends no total/);
    expect(summary).not.toMatch(/100,000/);
  });
});

describe('a mirror moved away mid-run', () => {
  it('stops when a file is moved over the database, saying so, writing nothing into the file it replaced', async () => {
    const mirror = join(dir, 'moved-over.db');
    const other = join(dir, 'other.db');
    writeFileSync(other, '');
    source.rule = async (context) => {
      const n = Number(context.url.searchParams.get('page') ?? '1');
      // Moved over the database once page 2 is asked for: the run stops at its next batch.
      if (n === 2) renameSync(other, mirror);
      const next = new URL(context.url);
      next.searchParams.set('page', String(n + 1));
      context.res.writeHead(200, { 'content-type': 'application/json', ...(n < 3 ? { link: `<${next.href}>; rel="next"` } : {}) });
      context.res.end(JSON.stringify([record(2 * n - 1), record(2 * n)]));
    };
    const error = await harvestError({ dbPath: mirror, batchRecords: 2 });
    expect(error.message).toMatch(
      /^Cannot write to .*moved-over\.db: the file was moved, removed or replaced by another while this run wrote to it/,
    );
    // What is at the path now is the file moved there, untouched.
    expect(statSync(mirror).size).toBe(0);
  });
});

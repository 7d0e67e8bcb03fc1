import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { openStoreWriter } from '../store/sqlite/sqlite';
import { harvest, type HarvestOptions } from './harvest';
import { HarvestError } from './request';
import { openHarvestState } from '../store/sqlite/harvest-ledger';
import { summarize } from './summary';
import { passThrough, servedRecords, serveStore, startProxy, storedRecords, type TestProxy, type TestSource } from './source.test-support';

/**
 * A harvest against a real local source (`startServer` over a store of generated
 * records) behind a proxy that counts requests and misbehaves when told to: the mirror
 * must end up holding exactly what the source serves, fetch only what changed on the next
 * run, and come through busy, flaky and picky sources.
 */

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const dc1 = deploymentByKey('DC1')!;
const sourceCount = 2100;
const dir = mkdtempSync(join(tmpdir(), 'records-harvest-'));
const sourcePath = join(dir, 'source.db');
let source: TestSource;
let proxy: TestProxy;
let targets = 0;

/** Quick retries, so the flaky-source tests take a second rather than a minute. */
const quickRetry = { attempts: 5, baseDelayMs: 20, maxDelayMs: 200, maxRetryAfterMs: 5000 };

function newTarget(): string {
  return join(dir, `mirror-${++targets}.db`);
}

function options(dbPath: string, extra: Partial<HarvestOptions> = {}): HarvestOptions {
  return {
    deployment: dc1,
    baseUrl: `${proxy.url}${dc1.basePath}`,
    dbPath,
    userAgent: 'records-explorer-test',
    retry: quickRetry,
    ...extra,
  };
}

function expectMirrorOfSource(mirrorPath: string): void {
  const expected = servedRecords(sourcePath, dc1, proxy.url);
  const mirrored = storedRecords(mirrorPath, dc1);
  expect(mirrored.size).toBe(expected.size);
  for (const [id, record] of expected) expect(mirrored.get(id), id).toEqual(record);
}

beforeAll(async () => {
  const writer = openStoreWriter(sourcePath);
  writer.put('DC1', generateRecords(dc1, sourceCount, { seed: 7 }));
  writer.close();
  source = await serveStore(sourcePath);
  proxy = await startProxy(source.url);
});

afterEach(() => proxy.reset());

/** Pages of 1,000 the whole source takes (it grows in the incremental test). */
const fullPages = () => Math.ceil(storedRecords(sourcePath, dc1).size / 1000);

afterAll(async () => {
  await proxy.close();
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a full harvest', () => {
  it('copies every record of the source into an empty store, 1,000 per page, in entry-date order', async () => {
    const mirror = newTarget();
    const report = await harvest(options(mirror));
    expect(report).toMatchObject({
      received: sourceCount,
      distinct: sourceCount,
      added: sourceCount,
      replaced: 0,
      complete: true,
      stopped: false,
    });
    expect(report.reportedFirst).toBe(sourceCount);
    expect(proxy.requests).toHaveLength(3);
    const first = new URL(proxy.requests[0]!, proxy.url).searchParams;
    expect(Object.fromEntries(first)).toEqual({ sort: 'entry_date', order: 'asc', rows: '1000' });
    expectMirrorOfSource(mirror);
  });

  it('reads XML when asked, to the same records', async () => {
    const mirror = newTarget();
    const report = await harvest(options(mirror, { format: 'xml' }));
    expect(report.distinct).toBe(sourceCount);
    expectMirrorOfSource(mirror);
  });

  it('maps a source that speaks the upstream names (osti_id, doe_contract_number)', async () => {
    proxy.rule = async (context) => {
      const upstream = await context.forward();
      const records = JSON.parse(upstream.body.toString('utf8')) as Record<string, unknown>[];
      const renamed = records.map(({ repo_id, agency_contract_number, ...rest }) => ({
        osti_id: Number(repo_id),
        doe_contract_number: agency_contract_number,
        ...rest,
      }));
      context.send({ ...upstream, body: Buffer.from(JSON.stringify(renamed)) });
    };
    const mirror = newTarget();
    await harvest(options(mirror));
    expectMirrorOfSource(mirror);
  });

  it('falls back to the source default page size when rows=1000 is refused, following its next links', async () => {
    proxy.rule = async (context) => {
      if (Number(context.url.searchParams.get('rows') ?? '20') > 100) {
        context.res.writeHead(400, { 'content-type': 'application/json' });
        context.res.end(JSON.stringify({ statusCode: 400, statusMessage: 'Bad Request', errorDescription: 'rows must be at most 100' }));
        return;
      }
      await passThrough(context);
    };
    const mirror = newTarget();
    const report = await harvest(options(mirror, { batchRecords: 500 }));
    // One refusal, then the default 20 rows a page.
    expect(proxy.requests).toHaveLength(1 + sourceCount / 20);
    expect(proxy.requests.slice(1).every((path) => !path.includes('rows=1000'))).toBe(true);
    expect(report.distinct).toBe(sourceCount);
    expectMirrorOfSource(mirror);
  });

  it('keeps up to --concurrency pages in flight, no more, and still stores every record', async () => {
    proxy.rule = async (context) => {
      if (Number(context.url.searchParams.get('rows') ?? '20') > 100) {
        context.res.writeHead(400, { 'content-type': 'application/json' });
        context.res.end('{"statusCode":400,"statusMessage":"Bad Request","errorDescription":"too many rows"}');
        return;
      }
      const upstream = await context.forward();
      // Hold the body back a moment after the head, as a slow network would.
      context.res.writeHead(upstream.status, { ...upstream.headers, 'content-length': upstream.body.length });
      context.res.flushHeaders();
      await new Promise((resolve) => setTimeout(resolve, 15));
      context.res.end(upstream.body);
    };
    const mirror = newTarget();
    const report = await harvest(options(mirror, { concurrency: 3, since: { year: 2015, month: 1, day: 1 } }));
    expect(report.complete).toBe(true);
    const inFlight = proxy.peakInFlight();
    expect(inFlight).toBeGreaterThan(1);
    expect(inFlight).toBeLessThanOrEqual(3);
    const expected = [...servedRecords(sourcePath, dc1, proxy.url).values()].filter((record) => String(record.entry_date) >= '2015-01-01');
    expect(storedRecords(mirror, dc1).size).toBe(expected.length);
  });
});

describe('incremental harvests', () => {
  it('fetches only the records entered since the last run (and its boundary day), replacing changed ones', async () => {
    const mirror = newTarget();
    await harvest(options(mirror));
    const firstRun = proxy.requests.length;
    proxy.requests.length = 0;

    // The source gains 150 records entered after the first harvest and one changed record.
    const added = [...generateRecords(dc1, 150, { seed: 8, startId: 70_000_001 })].map((stored, index) => ({
      ...stored,
      record: { ...stored.record, entry_date: `2026-07-${String(1 + (index % 28)).padStart(2, '0')}T10:00:00Z` },
    }));
    const [oldest] = [...storedRecords(sourcePath, dc1).values()].sort((a, b) => String(a.entry_date).localeCompare(String(b.entry_date)));
    const changed = { record: { ...oldest!, title: 'A corrected title', entry_date: '2026-08-01T00:00:00Z' } };
    await source.close();
    const writer = openStoreWriter(sourcePath);
    writer.put('DC1', [...added, changed]);
    writer.close();
    source = await serveStore(sourcePath);
    proxy.target = source.url;

    const state = openHarvestState(mirror);
    const boundary = state.get('DC1', `${proxy.url}${dc1.basePath}`)!.newestEntry.slice(0, 10);
    state.close();
    const report = await harvest(options(mirror));
    expect(report.resumed).toBe(true);
    expect(new URL(proxy.requests[0]!, proxy.url).searchParams.get('entry_date_start')).toBe(
      `${boundary.slice(5, 7)}/${boundary.slice(8, 10)}/${boundary.slice(0, 4)}`,
    );
    expect(report.added).toBe(150);
    // Everything else it received is the boundary day, fetched again on purpose.
    const boundaryDay = [...storedRecords(sourcePath, dc1).values()].filter((record) => String(record.entry_date).startsWith(boundary));
    expect(report.distinct).toBe(150 + 1 + boundaryDay.length);
    expect(report).toMatchObject({ added: 150, replaced: 1, unchanged: boundaryDay.length });
    expect(proxy.requests.length).toBe(Math.ceil(report.distinct / 1000));
    expect(proxy.requests.length).toBeLessThan(firstRun);
    expect(storedRecords(mirror, dc1).get(oldest!.repo_id)!.title).toBe('A corrected title');
    expectMirrorOfSource(mirror);
  });

  it('starts from --since when given, whatever the stored state says', async () => {
    const mirror = newTarget();
    const report = await harvest(options(mirror, { since: { year: 2026, month: 7, day: 1 } }));
    expect(report.resumed).toBe(false);
    expect(report.distinct).toBeGreaterThanOrEqual(151);
    expect(new URL(proxy.requests[0]!, proxy.url).searchParams.get('entry_date_start')).toBe('07/01/2026');
  });
});

describe('a difficult source', () => {
  it('waits as long as Retry-After says while the source answers 503, then carries on', async () => {
    proxy.rule = async (context) => {
      if (context.n <= 2) {
        context.res.writeHead(503, { 'retry-after': '1', 'content-type': 'application/json' });
        context.res.end('{"statusCode":503,"statusMessage":"Service Unavailable","errorDescription":"busy"}');
        return;
      }
      await passThrough(context);
    };
    const mirror = newTarget();
    const started = Date.now();
    const report = await harvest(options(mirror));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(report.requests).toBe(2 + fullPages());
    expectMirrorOfSource(mirror);
  });

  it('backs off on 429 without Retry-After and stops after the last allowed try', async () => {
    proxy.rule = async (context) => {
      context.res.writeHead(429, { 'content-type': 'application/json' });
      context.res.end('{"statusCode":429,"statusMessage":"Too Many Requests","errorDescription":"slow down"}');
    };
    const error = await harvest(options(newTarget())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HarvestError);
    expect((error as Error).message).toMatch(/Gave up after 5 tries: the source answered 429/);
    expect(proxy.requests).toHaveLength(5);
  });

  it('gives up on a request that takes longer than the timeout and asks again, saying who it is', async () => {
    const agents = new Set<string | undefined>();
    proxy.rule = async (context) => {
      agents.add(context.req.headers['user-agent']);
      // The second request stalls after its head: no body ever comes.
      if (context.n === 2) {
        context.res.writeHead(200, { 'content-type': 'application/json' });
        context.res.flushHeaders();
        return;
      }
      await passThrough(context);
    };
    const mirror = newTarget();
    const notes: string[] = [];
    const progress = { update: () => {}, note: (message: string) => notes.push(message), done: () => {} };
    // Collections while the request stalls: a timeout held only weakly would be lost.
    const collecting = setInterval(collectGarbage, 100);
    const report = await harvest(
      options(mirror, { timeoutMs: 4000, progress, userAgent: 'records-explorer/test (harvest; +ops@example.org)' }),
    ).finally(() => clearInterval(collecting));
    expect(report.requests).toBe(fullPages() + 1);
    expect(notes.some((note) => /no complete answer within 4 s; trying again/.test(note))).toBe(true);
    expect([...agents]).toEqual(['records-explorer/test (harvest; +ops@example.org)']);
    expectMirrorOfSource(mirror);
  });

  it('asks again for a page whose connection dropped half-way', async () => {
    proxy.rule = async (context) => {
      const upstream = await context.forward();
      if (context.n === 2) {
        context.res.writeHead(upstream.status, { ...upstream.headers, 'content-length': upstream.body.length });
        context.res.write(upstream.body.subarray(0, upstream.body.length >> 1));
        setTimeout(() => context.res.destroy(), 10);
        return;
      }
      context.send(upstream);
    };
    const mirror = newTarget();
    const report = await harvest(options(mirror));
    expect(report.requests).toBe(fullPages() + 1);
    expectMirrorOfSource(mirror);
  });

  it('stops on a record that does not fit the deployment, naming it and the field, keeping the batches before it', async () => {
    proxy.rule = async (context) => {
      const upstream = await context.forward();
      if (context.n !== 2) return context.send(upstream);
      const records = JSON.parse(upstream.body.toString('utf8')) as Record<string, unknown>[];
      records[4] = { ...records[4], authors: 42 };
      context.send({ ...upstream, body: Buffer.from(JSON.stringify(records)) });
    };
    const mirror = newTarget();
    const error = await harvest(options(mirror)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HarvestError);
    expect((error as Error).message).toMatch(/does not fit DC1: .*record 5 \(id \d+\), field authors: expected a list of strings/);
    expect(storedRecords(mirror, dc1).size).toBe(1000);
  });

  it('keeps what it wrote when the network goes for good, and the next run resumes from there', async () => {
    proxy.rule = async (context) => {
      if (context.url.searchParams.get('page') === '2') {
        context.req.socket.destroy();
        return;
      }
      await passThrough(context);
    };
    const mirror = newTarget();
    const error = await harvest(options(mirror)).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^Gave up after 5 tries: no answer from .*page=2/);
    expect(storedRecords(mirror, dc1).size).toBe(1000);
    await proxy.reset();
    const resumed = await harvest(options(mirror));
    expect(resumed).toMatchObject({ resumed: true, complete: true });
    expect(resumed.received).toBeLessThan(storedRecords(sourcePath, dc1).size);
    expectMirrorOfSource(mirror);
  });

  it('resumes where a stopped run ended', async () => {
    const mirror = newTarget();
    const stop = new AbortController();
    proxy.rule = async (context) => {
      if (context.url.searchParams.get('page') === '2') stop.abort();
      await passThrough(context);
    };
    const first = await harvest(options(mirror, { stop: stop.signal }));
    expect(first.stopped).toBe(true);
    expect(first.complete).toBe(false);
    const kept = storedRecords(mirror, dc1).size;
    expect(kept).toBeGreaterThanOrEqual(1000);
    expect(kept).toBeLessThan(storedRecords(sourcePath, dc1).size);
    proxy.rule = passThrough;
    const second = await harvest(options(mirror));
    expect(second.resumed).toBe(true);
    expect(second.complete).toBe(true);
    expectMirrorOfSource(mirror);
  });

  it('explains a difference between what it received and what the source reported', async () => {
    let lastOfFirstPage: unknown;
    proxy.rule = async (context) => {
      const upstream = await context.forward();
      const records = JSON.parse(upstream.body.toString('utf8')) as unknown[];
      if (context.n === 1) lastOfFirstPage = records.at(-1);
      // Page 2 starts with page 1's last record again (a record was deleted meanwhile)
      // and the source's count drops by one.
      const shifted = context.n === 2 ? [lastOfFirstPage, ...records.slice(0, -1)] : records;
      const total = context.n === 1 ? upstream.headers['x-total-count'] : String(Number(upstream.headers['x-total-count']) - 1);
      context.send({ ...upstream, headers: { ...upstream.headers, 'x-total-count': total }, body: Buffer.from(JSON.stringify(shifted)) });
    };
    const mirror = newTarget();
    const report = await harvest(options(mirror));
    const reported = storedRecords(sourcePath, dc1).size;
    expect(report).toMatchObject({ received: reported, distinct: reported - 1, reportedFirst: reported, reportedLast: reported - 1 });
    const lines = summarize(report, 'DC1', 'http://source.example/api/dc/v1');
    expect(lines).toContain("1 record came twice (the source's pages shifted while being read); each is stored once.");
    expect(lines).toContain(
      `The source's count went from ${reported.toLocaleString('en-US')} to ${(reported - 1).toLocaleString('en-US')} during the harvest: records were added, changed or removed meanwhile.`,
    );
    expect(lines).toContain('Every reported record was received.');
  });

  it('follows a redirect within the source, and refuses one to another origin', async () => {
    proxy.rule = async (context) => {
      if (context.url.pathname.startsWith('/moved/')) {
        context.res.writeHead(308, { location: context.req.url!.slice('/moved'.length) });
        context.res.end();
        return;
      }
      if (context.url.pathname.startsWith('/away/')) {
        context.res.writeHead(302, { location: `http://127.0.0.2:9${context.req.url!.slice('/away'.length)}` });
        context.res.end();
        return;
      }
      await passThrough(context);
    };
    const mirror = newTarget();
    const report = await harvest(options(mirror, { baseUrl: `${proxy.url}/moved${dc1.basePath}` }));
    expect(report.complete).toBe(true);
    expectMirrorOfSource(mirror);
    const error = await harvest(options(newTarget(), { baseUrl: `${proxy.url}/away${dc1.basePath}` })).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/redirects .* to another origin \(http:\/\/127\.0\.0\.2:9\/api\/dc\/v1\/records/);
  });

  it('saves no resume point mid-run from a source that ignores the entry-date order', async () => {
    const stop = new AbortController();
    proxy.rule = async (context) => {
      if (context.url.searchParams.get('page') === '3') stop.abort();
      const upstream = await context.forward();
      const records = (JSON.parse(upstream.body.toString('utf8')) as unknown[]).reverse();
      context.send({ ...upstream, body: Buffer.from(JSON.stringify(records)) });
    };
    const mirror = newTarget();
    const stopped = await harvest(options(mirror, { stop: stop.signal }));
    expect(stopped).toMatchObject({ inOrder: false, stopped: true });
    expect(storedRecords(mirror, dc1).size).toBeGreaterThanOrEqual(1000);
    const state = openHarvestState(mirror);
    expect(state.get('DC1', `${proxy.url}${dc1.basePath}`)).toBeUndefined();
    state.close();
    expect(summarize(stopped, 'DC1', 'http://source.example')).toContain(
      'The source did not list the records in entry-date order as asked, so the resume point is not moved: the next run starts where this one did.',
    );

    const complete = await harvest(options(mirror));
    expect(complete).toMatchObject({ inOrder: false, complete: true, resumed: false });
    const after = openHarvestState(mirror);
    const newest = [...storedRecords(sourcePath, dc1).values()]
      .map((record) => String(record.entry_date))
      .sort()
      .at(-1);
    expect(after.get('DC1', `${proxy.url}${dc1.basePath}`)?.newestEntry).toBe(newest);
    after.close();
    expectMirrorOfSource(mirror);
  });

  it("does not mistake a source's per-page X-Total-Count for its total", async () => {
    proxy.rule = async (context) => {
      const upstream = await context.forward();
      const count = (JSON.parse(upstream.body.toString('utf8')) as unknown[]).length;
      context.send({ ...upstream, headers: { ...upstream.headers, 'x-total-count': String(count) } });
    };
    const report = await harvest(options(newTarget()));
    expect(report.complete).toBe(true);
    expect(report.reportedLast).toBeUndefined();
    expect(summarize(report, 'DC1', 'http://source.example')[1]).toMatch(/sends no total/);
  });

  it('refuses next links that lead to another origin', async () => {
    proxy.rule = async (context) => {
      const upstream = await context.forward();
      const link = String(upstream.headers.link ?? '').replaceAll(proxy.url, 'http://127.0.0.2:9');
      context.send({ ...upstream, headers: { ...upstream.headers, link } });
    };
    const error = await harvest(options(newTarget())).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/next page is on another origin/);
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { startProxy, type ProxyContext, type TestProxy } from './harvest/source.test-support';

/**
 * `records harvest` stops on SIGTERM in every state it can be in — waiting out a source's
 * Retry-After, mid-download from a source that stalls, reading a large page, parsing a large
 * XML page — with the exit code of an interrupted run. Each state is held far longer than any
 * test may run, so a harvest that ignored the signal would fail by the suite's time limit.
 */

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));
const dc1 = deploymentByKey('DC1')!;
const dir = mkdtempSync(join(tmpdir(), 'records-harvest-stop-'));
let source: TestProxy;
let mirrors = 0;
const running = new Set<ReturnType<typeof spawn>>();

beforeAll(async () => {
  source = await startProxy('http://127.0.0.1:9');
});
afterEach(() => source.reset());
afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

const record = (id: number) => ({ osti_id: String(id), title: `Record ${id}`, entry_date: '2024-01-01T00:00:00Z' });

/** A harvest of the source, with a promise of its end and one of the first stderr text matching a pattern. */
function startHarvest(...flags: string[]) {
  const child = spawn(
    process.execPath,
    [bin, 'harvest', 'DC1', `${source.url}${dc1.basePath}`, '--db', join(dir, `mirror-${++mirrors}.db`), ...flags],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const saidOnStderr = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      const listen = (chunk: Buffer) => {
        stderr += chunk.toString();
        if (pattern.test(stderr)) resolve();
      };
      child.stderr.on('data', listen);
    });
  const exited = new Promise<{ code: number | null; stdout: string; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, at: performance.now() })),
  );
  return { child, exited, saidOnStderr };
}

/** Resolves when the source has answered a request's head (or all of it) as the rule does. */
function sourceReached(rule: (context: ProxyContext, reached: () => void) => Promise<void>): Promise<void> {
  return new Promise<void>((resolve) => {
    source.rule = (context) => rule(context, resolve);
  });
}

describe('SIGTERM', () => {
  it('stops a harvest waiting out a Retry-After of five minutes', async () => {
    source.rule = async (context) => {
      context.res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '300' });
      context.res.end('{"statusCode":503,"statusMessage":"Service Unavailable","errorDescription":"busy"}');
    };
    const run = startHarvest();
    await run.saidOnStderr(/trying again in 300\.0 s/);
    run.child.kill('SIGTERM');
    const { code, stdout } = await run.exited;
    expect(code).toBe(130);
    expect(stdout).toMatch(/Stopped before the last page/);
  });

  it('stops a harvest mid-download from a source that sent half a page and stalls', async () => {
    const stalled = sourceReached(async (context, reached) => {
      context.res.writeHead(200, { 'content-type': 'application/json' });
      context.res.write(`[${JSON.stringify(record(1))},`, () => reached());
      // …and nothing more, for as long as the connection lasts.
    });
    const run = startHarvest();
    await stalled;
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(130);
  });

  it('stops a harvest reading a large page, whose next page never comes', async () => {
    const page = JSON.stringify(Array.from({ length: 60_000 }, (_, i) => record(i + 1)));
    const sent = sourceReached(async (context, reached) => {
      if (context.url.searchParams.get('page') === '2') {
        context.res.writeHead(200, { 'content-type': 'application/json' });
        context.res.flushHeaders();
        return;
      }
      const next = new URL(context.url);
      next.searchParams.set('page', '2');
      context.res.writeHead(200, { 'content-type': 'application/json', link: `<${next.href}>; rel="next"` });
      context.res.end(page, () => reached());
    });
    const run = startHarvest();
    await sent;
    run.child.kill('SIGTERM');
    expect((await run.exited).code).toBe(130);
  });

  it('stops a harvest parsing an XML page of 58 MB, records just under the size limit, within a second', { timeout: 120_000 }, async () => {
    const words = ['plasma', 'reactor', 'neutron', 'flux', 'beam', 'model', 'measured', 'data'];
    const description = Array.from({ length: 490_000 }, (_, i) => `${words[i % words.length]!}${i % 7}`).join(' ');
    const records = Array.from(
      { length: 15 },
      (_, i) =>
        `<record><osti_id>${900_000 + i}</osti_id><title>Large ${i}</title><entry_date>2024-03-01T00:00:00Z</entry_date><description>${description}</description></record>`,
    );
    const page = `<?xml version="1.0"?><records>${records.join('')}</records>`;
    source.rule = async (context) => {
      context.res.writeHead(200, { 'content-type': 'application/xml' });
      context.res.end(page);
    };
    const run = startHarvest('--format', 'xml');
    // Said once the page is read whole, as its parse begins (seconds for a page this size).
    await run.saidOnStderr(/reading a page of \d+\.\d MB/);
    const signalled = performance.now();
    run.child.kill('SIGTERM');
    const { code, at } = await run.exited;
    expect(code).toBe(130);
    // A second on a quiet machine; 3 s leaves room for a loaded one, where the parse alone takes over 15 s.
    expect(at - signalled).toBeLessThan(3000);
  });
});

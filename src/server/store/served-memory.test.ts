import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { openRecordWriter } from './open-writer';
import type { FromServer, ToServer } from './served-memory-server.test-support';
import { openStoreWriter } from './sqlite/sqlite';

/**
 * A server's memory comes back to where it began after every generation: 20 writes into a
 * served file, each served by a new generation that answers a search, its facets, a type-ahead
 * and a "did you mean", leave it within 10% of where it stood before the first write, once the
 * first generation had answered each of those once. Before, each write's new generation
 * started search workers beside the ones still answering, and the shelf kept them all idle for
 * later generations (pool/threads.ts), each with a heap of its own: the server gained two
 * threads at the first write and held them for good. Now the search workers beyond the
 * current generation's end once writes stop, so it is read once the shelves are at rest.
 *
 * Measured as the server process's resident memory (after collecting its main thread's
 * garbage), not as a heap figure: what grew was the workers' heaps and malloc arenas, which
 * the main thread's heap figures do not count. Three readings at each end, their medians
 * compared, so one taken while the machine is busy does not decide.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-served-memory-'));
const server = fileURLToPath(new URL('./served-memory-server.test-support.ts', import.meta.url));
let child: ChildProcess | undefined;

afterAll(() => {
  if (child?.connected) child.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

/** The served process: its messages, each awaited as it comes. */
function serve(path: string) {
  const running = fork(server, [path, '2'], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: 'inherit' });
  child = running;
  const waiting: ((message: FromServer) => boolean)[] = [];
  running.on('message', (message: FromServer) => {
    const at = waiting.findIndex((take) => take(message));
    if (at >= 0) waiting.splice(at, 1);
  });
  const exited = new Promise<never>((_, reject) => running.on('exit', (code) => reject(new Error(`the server exited (${code})`))));
  /** The next message that has `key`. */
  const next = <K extends string>(key: K) =>
    Promise.race([
      exited,
      new Promise<number | string>((resolve) =>
        waiting.push((message) => key in message && (resolve((message as Record<K, number>)[key]), true)),
      ),
    ]);
  const send = (message: ToServer) => running.send(message);
  return { next, send };
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[1]!;

const writes = 20;

describe(`a served file written ${writes} times`, () => {
  it('leaves the server’s memory within 10% of where it began', { timeout: 240_000 }, async () => {
    const path = join(dir, 'served.db');
    const bulk = openStoreWriter(path, { bulk: true });
    bulk.put('LIT', generateRecords(lit, 300, { seed: 3, startId: 1 }));
    bulk.close();
    const { next, send } = serve(path);
    const url = await next('url');
    const ask = async (query: string) => {
      const response = await fetch(`${url}${lit.basePath}/${query}`);
      await response.arrayBuffer();
      expect(response.status, query).toBe(200);
    };
    const rss: number[] = [];
    const measure = async () => {
      const measured = next('rss');
      send({ measure: true });
      rss.push((await measured) as number);
    };
    // Where it began: the first generation has answered each kind of request once.
    await Promise.all([ask('records?q=energy'), ask('facets?q=energy'), ask('complete?prefix=ene'), ask('suggest?q=enrgy')]);
    for (let reading = 0; reading < 3; reading++) await measure();
    for (let write = 1; write <= writes; write++) {
      // As `records generate LIT 1 --db served.db` writes, while the file is served.
      const writer = await openRecordWriter({ db: path }, { wholeNewFile: true });
      await writer.put('LIT', generateRecords(lit, 1, { seed: 10 + write, startId: 50_000_001 + (await writer.count('LIT')) }));
      await writer.close();
      const served = next('generation');
      send({ check: true });
      expect(await served).toBe(write + 1);
      // Each generation answers what the app asks as a person types and searches, before it retires.
      await Promise.all([ask('records?q=energy'), ask('facets?q=energy'), ask('complete?prefix=ene'), ask('suggest?q=enrgy')]);
    }
    for (let reading = 0; reading < 3; reading++) await measure();
    const began = median(rss.slice(0, 3));
    const last = median(rss.slice(3));
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    expect(last, `${mb(began)} before the first write, ${mb(last)} after the ${writes}th`).toBeLessThanOrEqual(began * 1.1);
  });
});

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
 * A server's memory comes back to its level after every generation: 50 writes into a served
 * file, each served by a new generation that answers a search, its facets, a type-ahead and a
 * "did you mean", leave it within 10% of where it stood after the first few. Before, what each
 * retired generation built stayed in the heaps of the worker threads kept for the next
 * (pool/threads.ts), which an idle thread never collects, and the server grew with every write.
 *
 * Measured as the server process's resident memory (after collecting its main thread's
 * garbage), not as a heap figure: what grew was the workers' heaps, which the main thread's
 * heap figures do not count. The workers' allocator still takes some 25 MB over the first few
 * dozen generations and then holds level (flat from the 50th write to the 120th), so the level
 * is read after 23–25 writes and compared with the 48th–50th: a leak of what retired
 * generations built grows it by more than a megabyte a write and fails. Three readings at each
 * end, their medians compared, so one taken while the machine is busy does not decide.
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

describe('a served file written 50 times', () => {
  it('leaves the server’s memory within 10% of where it settled', { timeout: 180_000 }, async () => {
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
    for (let write = 1; write <= 50; write++) {
      // As `records generate LIT 1 --db served.db` writes, while the file is served.
      const writer = await openRecordWriter({ db: path }, { wholeNewFile: true });
      await writer.put('LIT', generateRecords(lit, 1, { seed: 10 + write, startId: 50_000_001 + (await writer.count('LIT')) }));
      await writer.close();
      const served = next('generation');
      send({ check: true });
      expect(await served).toBe(write + 1);
      // Each generation answers what the app asks as a person types and searches, before it retires.
      await Promise.all([ask('records?q=energy'), ask('facets?q=energy'), ask('complete?prefix=ene'), ask('suggest?q=enrgy')]);
      if ((write > 22 && write <= 25) || write > 47) {
        const measured = next('rss');
        send({ measure: true });
        rss.push((await measured) as number);
      }
    }
    const settled = median(rss.slice(0, 3));
    const last = median(rss.slice(3));
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    expect(last, `${mb(settled)} after the 23rd to 25th writes, ${mb(last)} after the 48th to 50th`).toBeLessThanOrEqual(settled * 1.1);
  });
});

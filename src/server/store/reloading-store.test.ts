import { copyFileSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { startServer, type RunningServer } from '../http/server';
import { rawRequest } from '../http/server-fixture.test-support';
import { openPooledStore } from './pooled-store';
import { reloadingStore } from './reloading-store';
import { openStoreWriter } from './sqlite/sqlite';

/**
 * A running server over a database that changes: a file moved over the served path, an
 * import committed into it, a path that goes away for a while. Requests never see a mix of
 * two generations, and new records are found without a restart.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-reload-'));
const path = join(dir, 'records.db');
const lines: string[] = [];
let failedChecks = 0;
let store: Awaited<ReturnType<typeof reloadingStore>>;
let server: RunningServer;

function write(target: string, count: number, startId: number) {
  const writer = openStoreWriter(target);
  try {
    writer.put('LIT', generateRecords(lit, count, { seed: 5, startId }));
  } finally {
    writer.close();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Each request on a connection of its own: the writes here block this process, the server's
 * too, for seconds on a busy machine, after which the server's keep-alive timer and the
 * client's reuse of the idle connection race, and a request sent as the server closes it is
 * reset.
 */
const get = (path: string) => rawRequest(`${server.url}${lit.basePath}${path}`, { headers: { connection: 'close' } });
const status = async (id: number) => (await get(`/records/${id}`)).status;
const total = async (query: string) => Number((await get(`/records?${query}`)).headers['x-total-count']);

async function until(condition: () => Promise<boolean>, withinMs = 10_000) {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(25);
  }
}

beforeAll(async () => {
  write(path, 300, 1);
  store = await reloadingStore(path, (file) => openPooledStore(file, { size: 2 }), {
    checkMs: 50,
    maxBackoffMs: 400,
    log: (line) => lines.push(line),
    onFailure: () => failedChecks++,
  });
  server = await startServer({ store, port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a served database that changes', () => {
  it('picks up a file moved over the path: the new records are found, and then never missing', async () => {
    expect(await status(1000)).toBe(404);
    const before = await total('q=data');
    const side = join(dir, 'side.db');
    copyFileSync(path, side);
    write(side, 800, 301);
    const generations = store.generations;
    renameSync(side, path);
    await until(async () => (await status(1000)) === 200);
    expect(store.generations).toBe(generations + 1);
    // Every later answer comes from the new generation: totals and records agree.
    const after = await total('q=data');
    expect(after).toBeGreaterThan(before);
    for (let i = 0; i < 30; i++) {
      expect(await status(1000)).toBe(200);
      expect(await total('q=data')).toBe(after);
    }
  });

  it('picks up an import committed into the served file', async () => {
    expect(await status(1500)).toBe(404);
    write(path, 200, 1101);
    await until(async () => (await status(1300)) === 200);
    expect(await status(1101)).toBe(200);
  });

  it('keeps serving what it has while the path cannot be opened, says so once, and recovers', async () => {
    const away = join(dir, 'away.db');
    const failedBefore = failedChecks;
    renameSync(path, away);
    // Three failed attempts in a row (with growing pauses between them), however long they take.
    await until(async () => failedChecks >= failedBefore + 3);
    expect(await status(1)).toBe(200);
    expect(lines.filter((line) => line.includes('cannot open'))).toHaveLength(1);
    renameSync(away, path);
    await until(async () => lines.some((line) => line.includes('can be opened again')));
    expect(await status(1)).toBe(200);
  });
});

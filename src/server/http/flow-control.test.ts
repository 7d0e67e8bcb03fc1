import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { apiErrorSchema } from '../../formats/error';
import { generateRecords } from '../corpus/generate';
import { openPooledStore } from '../store/pooled-store';
import { openStoreWriter } from '../store/sqlite/sqlite';
import type { RecordStore } from '../store/types';
import { startFixture, type Fixture } from './test-fixture';

/**
 * Hostile clients cannot take the server's memory or its workers from others: answers
 * wait for room on their connection, connections beyond the cap and waits beyond the
 * bound get 503, a client that stops reading loses its connection, and a search past the
 * time budget is a 503 rather than a stuck worker.
 */

const lit = deploymentByKey('LIT')!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A store whose every search answers a thousand records of `recordBytes` each, counting searches. */
function bulkyStore(store: RecordStore, counter: { searches: number }, { delayMs = 0, recordBytes = 10_000 } = {}): RecordStore {
  const padding = 'x'.repeat(recordBytes);
  return {
    ...store,
    // Its pages are rendered by the HTTP layer from `search`, not by the store underneath.
    page: undefined,
    revision: store.revision,
    async search() {
      counter.searches++;
      if (delayMs) await sleep(delayMs);
      const records = Array.from({ length: 1000 }, (_, i) => ({ repo_id: String(i), title: padding }));
      return { total: 1000, records };
    },
  };
}

/** A client that sends requests and never reads what comes back. */
function silentClient(url: string, requests: number, path = `${lit.basePath}/records?rows=1000`): Promise<Socket> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      const request = `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/xml\r\n\r\n`;
      socket.write(request.repeat(requests));
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

async function timedGet(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

describe('a client that pipelines and never reads', () => {
  const counter = { searches: 0 };
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ wrapStore: (store) => bulkyStore(store, counter), flow: { writeTimeoutMs: 60_000 } });
  });
  afterAll(() => fx.close());

  it('gets one answer worked on at a time, while another client is answered', async () => {
    const socket = await silentClient(fx.url, 20);
    await sleep(1_000);
    // The first answer fills what the connection can hold; the other nineteen wait.
    expect(counter.searches).toBeLessThanOrEqual(2);
    const other = await timedGet(`${fx.url}${lit.basePath}/records/1003`);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(2_000);
    socket.destroy();
  });
});

describe('hundreds of clients that pipeline bulk pages and never read', () => {
  it('fill at most part of the buffer bound: a user’s records keep coming', async () => {
    const fx = await startFixture({
      wrapStore: (store) => bulkyStore(store, { searches: 0 }),
      flow: { totalBufferBytes: 16 * 2 ** 20, writeTimeoutMs: 60_000 },
    });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 300; i++) sockets.push(await silentClient(fx.url, 20));
      await sleep(1_000);
      // One user reading records one after another for three seconds, on one connection.
      let answered = 0;
      const until = performance.now() + 3_000;
      while (performance.now() < until) {
        const { status } = await timedGet(`${fx.url}${lit.basePath}/records/${1001 + (answered % 10)}`);
        expect(status).toBe(200);
        answered++;
      }
      // Were the records waiting for stalled connections to be shed, a few would come through.
      expect(answered).toBeGreaterThan(50);
    } finally {
      for (const socket of sockets) socket.destroy();
      await fx.close();
    }
  });
});

describe('bounds', () => {
  /** What the server says to one more connection, read until it closes it (or `ms` passes). */
  const newcomer = (url: string, ms = 3_000) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      setTimeout(() => {
        socket.destroy();
        resolve(text || 'still open');
      }, ms);
    });

  /** A server capped at three connections, filled by `open`; the sockets are closed after `check`. */
  async function atTheCap(
    open: (url: string) => Promise<Socket>,
    check: (url: string, sockets: Socket[]) => Promise<void>,
    store?: (store: RecordStore) => RecordStore,
  ) {
    const fx = await startFixture({ ...(store ? { wrapStore: store } : {}), flow: { maxConnections: 3 } });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) sockets.push(await open(fx.url));
      await check(fx.url, sockets);
    } finally {
      for (const socket of sockets) socket.destroy();
      await fx.close();
    }
  }

  it('answers connections beyond the cap with a 503 Error object and closes them, while every connection is in use', async () => {
    const slowStore = (store: RecordStore) => bulkyStore(store, { searches: 0 }, { delayMs: 5_000, recordBytes: 10 });
    await atTheCap(
      (url) => silentClient(url, 1),
      async (url) => {
        await sleep(100);
        const extra = await newcomer(url);
        expect(extra).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
        expect(extra).toMatch(/\r\nRetry-After: \d+\r\n/);
        expect(apiErrorSchema.parse(JSON.parse(extra.slice(extra.indexOf('\r\n\r\n') + 4))).statusCode).toBe(503);
      },
      slowStore,
    );
  });

  it('at the cap, lets a newcomer take the place of a connection that only sits there', async () => {
    await atTheCap(
      async (url) => (await silentClient(url, 0)).resume(),
      async (url, sockets) => {
        const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', () => resolve(true))));
        // Just connected is not unused yet: a client may be about to ask.
        expect(await newcomer(url)).toMatch(/^HTTP\/1\.1 503 /);
        await sleep(1_200);
        const { status } = await timedGet(`${url}${lit.basePath}/records/1003`);
        expect(status).toBe(200);
        // The one open the longest without asking made the room.
        expect(await Promise.race([closed[0], sleep(1_000).then(() => false)])).toBe(true);
        expect(sockets.slice(1).every((socket) => !socket.destroyed)).toBe(true);
      },
    );
  });

  it('at the cap, leaves a kept-alive connection between two requests alone', async () => {
    await atTheCap(
      async (url) => {
        const socket = await silentClient(url, 1, `${lit.basePath}/records/1003`);
        const answered = new Promise((resolve) => socket.once('data', resolve));
        socket.resume();
        await answered;
        return socket;
      },
      async (url, sockets) => {
        await sleep(1_200);
        expect(await newcomer(url)).toMatch(/^HTTP\/1\.1 503 /);
        expect(sockets.every((socket) => !socket.destroyed && !socket.readableEnded)).toBe(true);
      },
    );
  });

  it('closes a connection whose client stops reading an answer', async () => {
    const fx = await startFixture({
      wrapStore: (store) => bulkyStore(store, { searches: 0 }, { recordBytes: 40_000 }),
      flow: { writeTimeoutMs: 300 },
    });
    // 40 MB: more than the kernel's socket buffers hold, so the rest waits in the server.
    try {
      const socket = await silentClient(fx.url, 1);
      await sleep(1_500);
      // Reading again now finds only what the kernel held before the server gave up.
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.on('error', () => undefined);
      const closed = new Promise((resolve) => socket.once('close', () => resolve('closed')));
      socket.resume();
      expect(await Promise.race([closed, sleep(5_000).then(() => 'open')])).toBe('closed');
      expect(received).toBeLessThan(40_000_000);
    } finally {
      await fx.close();
    }
  });

  it('answers 503 with Retry-After when a request waits too long for room', async () => {
    const fx = await startFixture({
      wrapStore: (store) => bulkyStore(store, { searches: 0 }, { delayMs: 1_000 }),
      flow: { maxActive: 1, maxActiveLight: 1, waitMs: 200 },
    });
    try {
      const slow = fetch(`${fx.url}${lit.basePath}/records?q=wind`);
      await sleep(50);
      const response = await fetch(`${fx.url}${lit.basePath}/records?q=solar`);
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(apiErrorSchema.parse(await response.json()).errorDescription).toContain('busy');
      expect((await slow).status).toBe(200);
    } finally {
      await fx.close();
    }
  });
});

describe('the time budget over HTTP', () => {
  let dir: string;
  let fx: Fixture;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'records-budget-'));
    const path = join(dir, 'records.db');
    const writer = openStoreWriter(path, { bulk: true });
    writer.put('LIT', generateRecords(lit, 3000, { seed: 9 }));
    writer.close();
    fx = await startFixture({ wrapStore: () => openPooledStore(path, { size: 2, budgetMs: 1, cacheBytes: 0, engine: { matchSets: 0 } }) });
  });
  afterAll(async () => {
    await fx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a search that runs past it with 503, Retry-After and the Error object', async () => {
    const response = await fetch(`${fx.url}${lit.basePath}/records?q=${encodeURIComponent('a* OR e* OR i* OR o*')}`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(apiErrorSchema.parse(await response.json()).errorDescription).toMatch(/took longer than/);
  });
});

describe('memory under the slow-reader attack (a server in its own process)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'records-rss-'));
    const writer = openStoreWriter(join(dir, 'records.db'), { bulk: true });
    writer.put('LIT', generateRecords(lit, 3000, { seed: 4 }));
    writer.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stays within its bound while 100 clients pipeline 20 large XML pages each and read none', async () => {
    const child = spawn(process.execPath, ['bin/records.js', 'serve', '--db', join(dir, 'records.db'), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const deadline = Date.now() + 60_000;
      let url: string | undefined;
      while (!(url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0]) || !output.includes('Energy literature')) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${output}`);
        await sleep(50);
      }
      const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;
      const sockets = await Promise.all(Array.from({ length: 100 }, () => silentClient(url, 20)));
      let peak = rss();
      const until = Date.now() + 8_000;
      while (Date.now() < until) {
        peak = Math.max(peak, rss());
        await sleep(100);
      }
      const probe = await timedGet(`${url}${lit.basePath}/records/50000010`);
      expect(probe.status).toBe(200);
      expect(peak, `peak RSS ${Math.round(peak / 2 ** 20)} MB`).toBeLessThan(600 * 2 ** 20);
      for (const socket of sockets) socket.destroy();
    } finally {
      child.kill('SIGKILL');
    }
  }, 90_000);
});

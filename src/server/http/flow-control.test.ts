import { spawn } from 'node:child_process';
import { once } from 'node:events';
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
import { defaultFlowLimits, type FlowControl, type FlowEvent, type FlowLimits } from './flow-control';
import { startFixture, type Fixture } from './server-fixture.test-support';

/**
 * Hostile clients cannot take the server's memory or its workers from others: answers
 * wait for room on their connection, connections beyond the cap and waits beyond the
 * bound get 503, a client that stops reading loses its connection, and a search past the
 * time budget is a 503 rather than a stuck worker.
 */

const lit = deploymentByKey('LIT')!;

/** A count that can be waited on: `atLeast(n)` settles once it reaches n. */
class Count {
  value = 0;
  private readonly waiters: { n: number; resolve: () => void }[] = [];
  add() {
    this.value++;
    for (const waiter of this.waiters.filter(({ n }) => this.value >= n)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }
  atLeast(n: number): Promise<void> {
    return this.value >= n ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ n, resolve }));
  }
}

/** A gate that holds searches until it is opened. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * A store whose every search answers a thousand records of `recordBytes` each, counting
 * searches for pages (not the lookups of which records are generated); with `held`, each
 * search waits until that gate opens.
 */
function bulkyStore(
  store: RecordStore,
  searches: Count,
  { held, recordBytes = 10_000 }: { held?: Promise<void>; recordBytes?: number } = {},
) {
  const padding = 'x'.repeat(recordBytes);
  return {
    ...store,
    // Its pages are rendered by the HTTP layer from `search`, not by the store underneath.
    page: undefined,
    revision: store.revision,
    async search(_key, criteria) {
      if (criteria.repoIds === undefined) searches.add();
      await held;
      const records = Array.from({ length: 1000 }, (_, i) => ({ repo_id: String(i), title: padding }));
      return { total: 1000, records, generated: [] };
    },
  } satisfies RecordStore;
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

async function statusOf(url: string): Promise<number> {
  const response = await fetch(url);
  await response.arrayBuffer();
  return response.status;
}

/** Settles once `until` holds, looked at after each `name` event of the flow control. */
async function flowEvent(flow: FlowControl, name: FlowEvent, until: () => boolean): Promise<void> {
  while (!until()) await once(flow.events, name);
}

describe('a client that pipelines and never reads', () => {
  const searches = new Count();
  let fx: Fixture;
  beforeAll(async () => {
    // 40 MB answers: more than the kernel's socket buffers hold, so each stays unsent in the server.
    fx = await startFixture({
      wrapStore: (store) => bulkyStore(store, searches, { recordBytes: 40_000 }),
      flow: { writeTimeoutMs: 60_000 },
    });
  });
  afterAll(() => fx.close());

  it('gets one answer worked on at a time, while another client is answered', async () => {
    const socket = await silentClient(fx.url, 20);
    try {
      // Its first answer is handed over and fills what the connection may hold.
      await once(fx.flow.events, 'handed');
      expect(await statusOf(`${fx.url}${lit.basePath}/records/1003`)).toBe(200);
      // The other nineteen still wait: not one was worked on meanwhile.
      expect(searches.value).toBe(1);
      expect(fx.flow.counters().waiting).toBe(19);
    } finally {
      socket.destroy();
    }
  });
});

describe('hundreds of clients that pipeline bulk pages and never read', () => {
  it('fill at most part of the buffer bound: a user’s records keep coming', async () => {
    const fx = await startFixture({
      wrapStore: (store) => bulkyStore(store, new Count()),
      // Nobody's connection is shed or timed out here: the records must come through without that.
      flow: { totalBufferBytes: 16 * 2 ** 20, writeTimeoutMs: 600_000, stalledGraceMs: 600_000 },
    });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 300; i++) sockets.push(await silentClient(fx.url, 20));
      const { bound } = fx.flow.counters();
      // The flood has filled its share of the bound and waits for room.
      await flowEvent(fx.flow, 'handed', () => fx.flow.counters().unsent.bulk > bound.bulk);
      // One user reading fifty records one after another, on one connection.
      for (let answered = 0; answered < 50; answered++)
        expect(await statusOf(`${fx.url}${lit.basePath}/records/${1001 + (answered % 10)}`)).toBe(200);
      const after = fx.flow.counters();
      // All the while the flood's pages waited; past their share, bulk answers hold at most
      // those that were being computed when it was reached (about 10 MB each).
      expect(after.waiting).toBeGreaterThan(1000);
      expect(after.unsent.bulk).toBeLessThan(bound.bulk + defaultFlowLimits.maxActive * 11 * 2 ** 20);
      expect(after.unsent.light).toBe(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      await fx.close();
    }
  });
});

describe('bounds', () => {
  /** What the server says to one more connection, read until it closes it. */
  const newcomer = (url: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });

  /** A server capped at three connections, filled by `open`; the sockets are closed after `check`. */
  async function atTheCap(
    open: (url: string) => Promise<Socket>,
    check: (url: string, sockets: Socket[], flow: FlowControl) => Promise<void>,
    options: { store?: (store: RecordStore) => RecordStore; flow?: Partial<FlowLimits> } = {},
  ) {
    const fx = await startFixture({ ...(options.store ? { wrapStore: options.store } : {}), flow: { maxConnections: 3, ...options.flow } });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) sockets.push(await open(fx.url));
      await check(fx.url, sockets, fx.flow);
    } finally {
      for (const socket of sockets) socket.destroy();
      await fx.close();
    }
  }

  it('answers connections beyond the cap with a 503 Error object and closes them, while every connection is in use', async () => {
    const searches = new Count();
    const held = gate();
    await atTheCap(
      (url) => silentClient(url, 1),
      async (url) => {
        // All three connections are in use: their searches are under way.
        await searches.atLeast(3);
        const extra = await newcomer(url);
        held.open();
        expect(extra).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
        expect(extra).toMatch(/\r\nRetry-After: \d+\r\n/);
        expect(apiErrorSchema.parse(JSON.parse(extra.slice(extra.indexOf('\r\n\r\n') + 4))).statusCode).toBe(503);
      },
      { store: (store) => bulkyStore(store, searches, { held: held.opened, recordBytes: 10 }) },
    );
  });

  it('closes a connection beyond the cap once its 503 is out, reading none of the requests it pipelined', async () => {
    const searches = new Count();
    const held = gate();
    await atTheCap(
      (url) => silentClient(url, 1),
      async (url, _sockets, flow) => {
        await searches.atLeast(3);
        let dropped = 0;
        flow.events.on('dropped', () => dropped++);
        // Twenty newcomers pipelining twenty large pages each: a flood of slow readers past the cap.
        const answers = await Promise.all(
          Array.from(
            { length: 20 },
            () =>
              new Promise<string>((resolve) => {
                const socket = connect(Number(new URL(url).port), '127.0.0.1', () =>
                  socket.write(`GET ${lit.basePath}/records?rows=1000 HTTP/1.1\r\nHost: localhost\r\n\r\n`.repeat(20)),
                );
                let text = '';
                socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
                socket.on('close', () => resolve(text));
                // Closed with its requests unread, the connection may be reset after the answer.
                socket.on('error', () => undefined);
              }),
          ),
        );
        held.open();
        expect(answers.filter((answer) => /^HTTP\/1\.1 503 /.test(answer))).toHaveLength(20);
        // Read, each would have been parsed into a request and a response only to be thrown away.
        expect(dropped).toBe(0);
      },
      { store: (store) => bulkyStore(store, searches, { held: held.opened, recordBytes: 10 }) },
    );
  });

  it('at the cap, a connection just opened is not taken as unused: a client may be about to ask', async () => {
    await atTheCap(
      async (url) => (await silentClient(url, 0)).resume(),
      async (url, sockets) => {
        expect(await newcomer(url)).toMatch(/^HTTP\/1\.1 503 /);
        expect(sockets.every((socket) => !socket.destroyed)).toBe(true);
      },
      { flow: { silentGraceMs: 600_000 } },
    );
  });

  it('at the cap, lets a newcomer take the place of the connection that sat there without asking the longest', async () => {
    await atTheCap(
      async (url) => (await silentClient(url, 0)).resume(),
      async (url, sockets, flow) => {
        const firstClosed = once(sockets[0]!, 'close');
        const evicted = once(flow.events, 'evicted');
        expect(await statusOf(`${url}${lit.basePath}/records/1003`)).toBe(200);
        await evicted;
        await firstClosed;
        expect(sockets.slice(1).every((socket) => !socket.destroyed)).toBe(true);
      },
      { flow: { silentGraceMs: 0 } },
    );
  });

  it('at the cap, leaves a kept-alive connection between two requests alone', async () => {
    await atTheCap(
      async (url) => {
        const socket = await silentClient(url, 1, `${lit.basePath}/records/1003`);
        const answered = once(socket, 'data');
        socket.resume();
        await answered;
        return socket;
      },
      async (url, sockets) => {
        expect(await newcomer(url)).toMatch(/^HTTP\/1\.1 503 /);
        expect(sockets.every((socket) => !socket.destroyed && !socket.readableEnded)).toBe(true);
      },
      // Without grace: only their being kept-alive connections of users keeps them.
      { flow: { silentGraceMs: 0, stalledGraceMs: 0 } },
    );
  });

  it('closes a connection whose client stops reading an answer', async () => {
    const fx = await startFixture({
      wrapStore: (store) => bulkyStore(store, new Count(), { recordBytes: 40_000 }),
      flow: { writeTimeoutMs: 300 },
    });
    // 40 MB: more than the kernel's socket buffers hold, so the rest waits in the server.
    try {
      const timedOut = once(fx.flow.events, 'timed-out');
      const socket = await silentClient(fx.url, 1);
      await timedOut;
      // Reading again now finds only what the kernel held before the server gave up.
      let received = 0;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.on('error', () => undefined);
      const closed = once(socket, 'close');
      socket.resume();
      await closed;
      expect(received).toBeLessThan(40_000_000);
    } finally {
      await fx.close();
    }
  });

  it('answers 503 with Retry-After when a request waits too long for room', async () => {
    const searches = new Count();
    const held = gate();
    const fx = await startFixture({
      wrapStore: (store) => bulkyStore(store, searches, { held: held.opened }),
      flow: { maxActive: 1, maxActiveLight: 1, waitMs: 200 },
    });
    try {
      const slow = fetch(`${fx.url}${lit.basePath}/records?q=wind`);
      // The only place for an answer is taken until the gate opens.
      await searches.atLeast(1);
      const response = await fetch(`${fx.url}${lit.basePath}/records?q=solar`);
      held.open();
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(apiErrorSchema.parse(await response.json()).errorDescription).toContain('busy');
      expect((await slow).status).toBe(200);
      expect(searches.value).toBe(1);
    } finally {
      held.open();
      await fx.close();
    }
  });
});

describe('the time budget over HTTP', () => {
  let dir: string;
  let fx: Fixture;
  let pooled: RecordStore;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'records-budget-'));
    const path = join(dir, 'records.db');
    const writer = openStoreWriter(path, { bulk: true });
    writer.put('LIT', generateRecords(lit, 3000, { seed: 9 }));
    writer.close();
    pooled = await openPooledStore(path, { size: 2, budgetMs: 1, cacheBytes: 0 });
    fx = await startFixture({ wrapStore: () => pooled });
  });
  afterAll(async () => {
    await fx.close();
    await pooled.close();
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
    const started = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const url = /http:\/\/127\.0\.0\.1:\d+/.exec(output)?.[0];
        if (url && output.includes('Energy literature')) resolve(url);
      });
      child.once('exit', () => reject(new Error(`serve did not start: ${output}`)));
    });
    try {
      const url = await started;
      const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) * 1024;
      let peak = rss();
      // Each client's first bytes arrive once the server has rendered and handed it a page; the
      // memory is looked at then. Two buffer bounds' worth of pages (about 1.5 MB each) means the
      // server has filled its bound, shed the stalled readers and filled it again.
      const answered = new Count();
      const sockets = await Promise.all(Array.from({ length: 100 }, () => silentClient(url, 20)));
      for (const socket of sockets) {
        socket.once('readable', () => {
          peak = Math.max(peak, rss());
          answered.add();
        });
        socket.on('error', () => undefined);
      }
      await answered.atLeast(40);
      peak = Math.max(peak, rss());
      expect(await statusOf(`${url}${lit.basePath}/records/50000010`)).toBe(200);
      expect(peak, `peak RSS ${Math.round(peak / 2 ** 20)} MB`).toBeLessThan(600 * 2 ** 20);
      for (const socket of sockets) socket.destroy();
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});

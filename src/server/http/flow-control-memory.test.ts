import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { controlFlow, defaultFlowLimits } from './flow-control';
import { startFixture } from './test-fixture';

/**
 * What the server keeps of a connection once it has closed: nothing. Under a pipelining
 * flood, a closed connection still waiting for room, or its pipelined responses (which
 * never emit 'close' themselves), would otherwise keep its socket, parser and requests.
 */

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = 2 ** 20;
const lit = deploymentByKey('LIT')!;

let server: Server | undefined;
const clients: Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A server whose every bulk answer is `bytes` long, under the flow control with a small buffer bound. */
async function bulkServer(bytes: number): Promise<{ port: number; serverSockets: Socket[] }> {
  const body = Buffer.alloc(bytes, 'x');
  const serverSockets: Socket[] = [];
  const running = createServer();
  const flow = controlFlow(running, { ...defaultFlowLimits, totalBufferBytes: 4 * mib, connectionBufferBytes: 4 * mib }, (socket) =>
    socket.destroy(),
  );
  running.on('connection', (socket: Socket) => serverSockets.push(socket));
  running.on('request', (req, res) =>
    flow.admit(
      req,
      res,
      async () => {
        res.end(body);
      },
      () => {
        res.statusCode = 503;
        res.end();
      },
    ),
  );
  await new Promise<void>((resolve) => running.listen(0, '127.0.0.1', resolve));
  server = running;
  return { port: (running.address() as AddressInfo).port, serverSockets };
}

/** A client that pipelines `requests` bulk pages and reads nothing. */
function silent(port: number, requests: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('GET /records?rows=1000 HTTP/1.1\r\nHost: localhost\r\n\r\n'.repeat(requests));
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
    clients.push(socket);
  });
}

describe('connections that close while they wait for room', () => {
  it('are let go: their sockets are collected while the bound still holds everyone else', async () => {
    const { port, serverSockets } = await bulkServer(2 * mib);
    // Two readers that never read fill the bulk share of the bound (3 of 4 MiB).
    await silent(port, 1);
    await silent(port, 1);
    await sleep(300);
    // Twenty more wait for room; then their clients give up.
    const waiting = await Promise.all(Array.from({ length: 20 }, () => silent(port, 20)));
    await sleep(300);
    const theirs = serverSockets.slice(2).map((socket) => new WeakRef(socket));
    expect(theirs).toHaveLength(20);
    for (const socket of waiting) socket.destroy();
    serverSockets.length = 0;
    let alive = theirs.length;
    for (let round = 0; round < 20 && alive > 0; round++) {
      await sleep(100);
      collectGarbage();
      alive = theirs.filter((ref) => ref.deref() !== undefined).length;
    }
    expect(alive).toBe(0);
  });
});

describe('clients that pipeline and leave', () => {
  it('leave nothing behind: the server’s heap returns to where it was', async () => {
    // Every search waits a while, so the pipelined requests are still waiting when their clients leave.
    const fx = await startFixture({
      wrapStore: (store) => ({
        ...store,
        page: undefined,
        revision: store.revision,
        search: async (key, criteria) => (await sleep(2_000), store.search(key, criteria)),
      }),
    });
    try {
      const { port } = new URL(fx.url);
      const settle = async () => {
        for (let round = 0; round < 5; round++) {
          await sleep(100);
          collectGarbage();
        }
        return process.memoryUsage().heapUsed;
      };
      const flood = async () => {
        const sockets = await Promise.all(
          Array.from(
            { length: 400 },
            () =>
              new Promise<Socket>((resolve, reject) => {
                const socket = connect(Number(port), '127.0.0.1', () => {
                  socket.write(
                    `GET ${lit.basePath}/records?rows=1000 HTTP/1.1\r\nHost: localhost\r\nAccept: application/xml\r\n\r\n`.repeat(20),
                  );
                  resolve(socket);
                });
                socket.on('error', reject);
              }),
          ),
        );
        await sleep(500);
        for (const socket of sockets) socket.destroy();
        await sleep(1_000);
      };
      // The first flood warms up what is kept for good (code, caches); the second must add nothing.
      await flood();
      const before = await settle();
      await flood();
      const after = await settle();
      expect(after - before, `heap grew by ${Math.round((after - before) / mib)} MB`).toBeLessThan(4 * mib);
    } finally {
      await fx.close();
    }
  }, 60_000);
});

import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { controlFlow, defaultFlowLimits, type FlowControl, type FlowEvent } from './flow-control';
import { startFixture } from './server-fixture.test-support';

/**
 * What the server keeps of a connection once it has closed: nothing. Under a pipelining
 * flood, a closed connection still waiting for room, or its pipelined responses (which
 * never emit 'close' themselves), would otherwise keep its socket, parser and requests.
 * Checked by the flow control's own counts and by the sockets being collected, at the
 * events that mean it (a connection closed, an answer handed over), never after a pause.
 */

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const mib = 2 ** 20;
const lit = deploymentByKey('LIT')!;

let server: Server | undefined;
const clients: Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** Settles once `until` holds, looked at after each `name` event of the flow control. */
async function flowEvent(flow: FlowControl, name: FlowEvent, until: () => boolean): Promise<void> {
  while (!until()) await once(flow.events, name);
}

/** A server whose every bulk answer is `bytes` long, under the flow control with a small buffer bound. */
async function bulkServer(bytes: number): Promise<{ port: number; serverSockets: Socket[]; flow: FlowControl }> {
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
  return { port: (running.address() as AddressInfo).port, serverSockets, flow };
}

/** A client that pipelines `requests` bulk pages and reads nothing. */
function silent(port: number, requests: number, path = '/records?rows=1000'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: application/xml\r\n\r\n`.repeat(requests));
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
    clients.push(socket);
  });
}

describe('connections that close while they wait for room', () => {
  it('are let go: their sockets are collected while the bound still holds everyone else', async () => {
    const { port, serverSockets, flow } = await bulkServer(16 * mib);
    // A reader that never reads fills the bulk share of the bound (3 of 4 MiB): its answer is more than the kernel holds.
    await silent(port, 1);
    await flowEvent(flow, 'handed', () => flow.counters().unsent.bulk > flow.counters().bound.bulk);
    // Twenty more wait for room, every one of their twenty requests; then their clients give up.
    const waiting = await Promise.all(Array.from({ length: 20 }, () => silent(port, 20)));
    await flowEvent(flow, 'queued', () => flow.counters().waiting === 400);
    expect(flow.counters()).toMatchObject({ connections: 21, waitingConnections: 20, active: { light: 0, bulk: 0 } });
    const theirs = serverSockets.slice(1).map((socket) => new WeakRef(socket));
    const closed = serverSockets.slice(1).map((socket) => once(socket, 'close'));
    serverSockets.length = 0;
    for (const socket of waiting) socket.destroy();
    await Promise.all(closed);
    // Nothing of them is kept by the server's own count, and the bound still holds the reader's answer.
    expect(flow.counters()).toMatchObject({ connections: 1, waiting: 0, waitingConnections: 0, ready: 0 });
    expect(flow.counters().unsent.bulk).toBeGreaterThan(flow.counters().bound.bulk);
    let alive = theirs.length;
    // A WeakRef's target is kept until the task that read it ends, so each collection runs in a task of its own.
    for (let round = 0; round < 10 && alive > 0; round++) {
      await new Promise(setImmediate);
      collectGarbage();
      await new Promise(setImmediate);
      alive = theirs.filter((ref) => ref.deref() !== undefined).length;
    }
    expect(alive).toBe(0);
  });
});

describe('clients that pipeline and leave', () => {
  it('leave nothing behind: the server’s own counts return to nothing, and their answers are never computed', async () => {
    // Every search waits until the clients have left, so their pipelined requests are still waiting when they do.
    let open!: () => void;
    const held = new Promise<void>((resolve) => (open = resolve));
    let searches = 0;
    const fx = await startFixture({
      wrapStore: (store) => ({
        ...store,
        page: undefined,
        revision: store.revision,
        search: async (key, criteria) => {
          if (criteria.repoIds === undefined) searches++;
          await held;
          return store.search(key, criteria);
        },
      }),
    });
    try {
      const { flow } = fx;
      const sockets = await Promise.all(
        Array.from({ length: 400 }, () => silent(Number(new URL(fx.url).port), 20, `${lit.basePath}/records?rows=1000`)),
      );
      // Every connection has asked (its requests wait, or its first is being computed).
      await flowEvent(
        flow,
        'queued',
        () => flow.counters().connections === 400 && flow.counters().waitingConnections + flow.counters().active.bulk >= 400,
      );
      const started = searches;
      const gone = flowEvent(flow, 'closed', () => flow.counters().connections === 0);
      for (const socket of sockets) socket.destroy();
      await gone;
      open();
      // The answers under way finish and are dropped; nothing else is started for the clients that left.
      await flowEvent(flow, 'handed', () => flow.counters().active.bulk === 0 && flow.counters().active.light === 0);
      expect(searches).toBe(started);
      expect(flow.counters()).toEqual({
        connections: 0,
        waiting: 0,
        waitingConnections: 0,
        ready: 0,
        active: { light: 0, bulk: 0 },
        unsent: { light: 0, bulk: 0 },
        bound: flow.counters().bound,
      });
    } finally {
      open();
      await fx.close();
    }
  }, 60_000);
});

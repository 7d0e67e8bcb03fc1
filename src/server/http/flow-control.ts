import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Memory bounded by design: a request is only worked on when its connection and the server
 * have room for the answer. A connection gets one answer at a time (pipelined requests wait
 * their turn, so a client that sends twenty and reads none gets one), a connection whose
 * client stops reading gets nothing more and is closed after the write timeout, all
 * connections together hold at most so many unsent bytes, at most so many answers are
 * being computed at once, and connections beyond the cap are answered 503 and closed.
 */

export interface FlowLimits {
  /** Open connections; the next one is answered 503 and closed. */
  readonly maxConnections: number;
  /** Bulk answers (pages of more than 100 records) being computed at once; later ones wait. */
  readonly maxActive: number;
  /** Light answers (records, ordinary pages) being computed at once; later ones wait. */
  readonly maxActiveLight: number;
  /** Connections with requests waiting for room; a request on one more is answered 503 at once. */
  readonly maxWaiting: number;
  /** Requests one connection may have waiting (pipelined); one more is answered 503 at once. */
  readonly maxPipelined: number;
  /** Unsent bytes one connection may hold before its next request waits. */
  readonly connectionBufferBytes: number;
  /** Unsent bytes of all connections together before any new request waits. */
  readonly totalBufferBytes: number;
  /** A connection holding unsent bytes that its client does not read for this long is closed. */
  readonly writeTimeoutMs: number;
  /** How long a request may wait for room before it is answered 503. */
  readonly waitMs: number;
}

const mib = 1024 * 1024;

export const defaultFlowLimits: FlowLimits = {
  maxConnections: 1024,
  maxActive: 4,
  maxActiveLight: 32,
  maxWaiting: 4096,
  maxPipelined: 32,
  connectionBufferBytes: 1 * mib,
  totalBufferBytes: 64 * mib,
  writeTimeoutMs: 30_000,
  waitMs: 15_000,
};

/** How long a client may take none of its answer before it counts as stalled when memory is short. */
const stallGraceMs = 1_000;

/** Seconds a client told "busy" should wait before trying again. */
export const busyRetryAfterSeconds = 2;

interface Waiting {
  /** A small answer (a record, a page of the usual size): started before bulk ones. */
  readonly light: boolean;
  readonly socket: Socket;
  readonly since: number;
  readonly start: () => void;
  readonly refuse: () => void;
}

interface ConnectionState {
  /** An answer is being computed or written on this connection. */
  busy: boolean;
  /** Its requests waiting for room. */
  queued: number;
  /** Unsent bytes at the last look, and since when the client has taken none of them. */
  unsent: number;
  stalledSince?: number;
}

export interface FlowControl {
  /**
   * Runs `handle` (which settles once the answer is handed to the connection) when there is
   * room for it; `busy` answers the request instead when it waited too long or too many are
   * waiting.
   */
  admit(req: IncomingMessage, res: ServerResponse, handle: () => Promise<void>, busy: () => void): void;
}

/** Pages of at most this many records count as light. */
const lightRows = 100;

/** A request whose answer is small: anything but a page of more than `lightRows` records. */
export function isLight(url: string): boolean {
  const rows = /[?&]rows=(\d+)/.exec(url)?.[1];
  return rows === undefined || Number(rows) <= lightRows;
}

export function controlFlow(server: Server, limits: FlowLimits, refuseConnection: (socket: Socket) => void): FlowControl {
  const connections = new Map<Socket, ConnectionState>();
  const waiting: Waiting[] = [];
  /** Answers being computed, light and bulk. */
  const active = { light: 0, bulk: 0 };
  const room = (light: boolean) => (light ? active.light < limits.maxActiveLight : active.bulk < limits.maxActive);
  /** Connections with at least one request waiting. */
  let waitingConnections = 0;

  /** Takes entry `i` out of the queue. */
  function dequeue(i: number): Waiting {
    const [entry] = waiting.splice(i, 1);
    const state = connections.get(entry!.socket);
    if (state && --state.queued === 0) waitingConnections--;
    return entry!;
  }

  server.on('connection', (socket: Socket) => {
    if (connections.size >= limits.maxConnections) {
      refuseConnection(socket);
      return;
    }
    connections.set(socket, { busy: false, queued: 0, unsent: 0 });
    socket.on('drain', pump);
    socket.once('close', () => {
      if (connections.get(socket)!.queued > 0) waitingConnections--;
      connections.delete(socket);
      pump();
    });
  });

  const unsent = () => {
    let total = 0;
    for (const socket of connections.keys()) total += socket.writableLength;
    return total;
  };

  /** A client that takes none of an answer's bytes for the write timeout loses its connection. */
  function closeStalled(now: number) {
    for (const [socket, state] of connections) {
      const unsentNow = socket.writableLength;
      if (unsentNow === 0 || unsentNow < state.unsent) state.stalledSince = undefined;
      else state.stalledSince ??= now;
      state.unsent = unsentNow;
      if (state.stalledSince !== undefined && now - state.stalledSince > limits.writeTimeoutMs) socket.destroy();
    }
  }

  /**
   * Over the total, the connections whose clients have read nothing the longest are closed
   * first: they hold the memory, and waiting for their timeout would hold up everyone else.
   */
  function shedStalled(total: number): number {
    const now = performance.now();
    const stalled = [...connections]
      .filter(([, state]) => state.stalledSince !== undefined && now - state.stalledSince >= stallGraceMs)
      .sort(([, a], [, b]) => a.stalledSince! - b.stalledSince!);
    for (const [socket] of stalled) {
      if (total <= limits.totalBufferBytes) break;
      total -= socket.writableLength;
      socket.destroy();
    }
    return total;
  }

  /** Requests that waited too long (and are not merely next in line on their own connection) are answered busy. */
  function refuseExpired(now: number) {
    for (let i = waiting.length - 1; i >= 0; i--) {
      const entry = waiting[i]!;
      if (now - entry.since > limits.waitMs && !connections.get(entry.socket)?.busy) dequeue(i).refuse();
    }
  }

  function canStart(socket: Socket, total: number): boolean {
    const state = connections.get(socket);
    if (!state || state.busy) return false;
    return socket.writableLength <= limits.connectionBufferBytes && total <= limits.totalBufferBytes;
  }

  function pump() {
    let total = unsent();
    if (total > limits.totalBufferBytes) total = shedStalled(total);
    // Light requests first, so bulk downloads queued by many connections cannot hold up a
    // user's record or first page; each kind in arrival order.
    for (const light of [true, false]) {
      for (let i = 0; i < waiting.length && room(light); ) {
        const entry = waiting[i]!;
        if (entry.socket.destroyed) {
          dequeue(i);
        } else if (entry.light === light && canStart(entry.socket, total)) {
          dequeue(i).start();
          total = unsent();
        } else {
          i++;
        }
      }
    }
  }

  // Stalled clients and long waits are found by looking: nothing else would wake them.
  const sweep = setInterval(() => {
    const now = performance.now();
    closeStalled(now);
    refuseExpired(now);
    pump();
  }, Math.min(250, limits.writeTimeoutMs / 2, limits.waitMs / 2));
  sweep.unref();
  server.once('close', () => clearInterval(sweep));

  return {
    admit(req, res, handle, busy) {
      const socket = req.socket;
      // A connection over the cap was answered 503 and closed already.
      if (!connections.has(socket)) {
        res.destroy();
        return;
      }
      const connection = connections.get(socket)!;
      const light = isLight(req.url ?? '/');
      if (connection.queued >= limits.maxPipelined || (connection.queued === 0 && waitingConnections >= limits.maxWaiting)) {
        busy();
        return;
      }
      const start = () => {
        const state = connections.get(socket);
        if (state) state.busy = true;
        // The connection takes its next request once this answer is written out; the
        // server its next piece of work once this one is handed over.
        const written = () => {
          if (state) state.busy = false;
          pump();
        };
        res.once('finish', written);
        res.once('close', written);
        const kind = light ? 'light' : 'bulk';
        active[kind]++;
        void handle().finally(() => {
          active[kind]--;
          pump();
        });
      };
      waiting.push({ light, socket, since: performance.now(), start, refuse: busy });
      if (connection.queued++ === 0) waitingConnections++;
      pump();
    },
  };
}

import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Memory bounded by design: a request is only worked on when its connection and the server
 * have room for the answer. A connection gets one answer at a time (pipelined requests wait
 * their turn, so a client that sends twenty and reads none gets one), a connection whose
 * client stops reading gets nothing more and is closed after the write timeout, all
 * connections together hold at most so many unsent bytes, at most so many answers are
 * being computed at once, and at the connection cap a newcomer replaces a connection held
 * without use or is answered 503 and closed.
 */

export interface FlowLimits {
  /** Open connections; the next one replaces one held without use, or is answered 503 and closed. */
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
  /** How long a client may ask nothing on a new connection before it may be reclaimed. */
  readonly silentGraceMs: number;
  /**
   * How long a client may take none of its answer before its connection may be reclaimed.
   * Longer than for silence: each reclaimed reader's room goes to the next answer waiting,
   * and when those are asked by more clients that never read, a short grace only has the
   * server render page after page for them.
   */
  readonly stalledGraceMs: number;
}

const mib = 1024 * 1024;

export const defaultFlowLimits: FlowLimits = {
  maxConnections: 512,
  maxActive: 4,
  maxActiveLight: 32,
  maxWaiting: 4096,
  maxPipelined: 32,
  connectionBufferBytes: 1 * mib,
  totalBufferBytes: 32 * mib,
  writeTimeoutMs: 30_000,
  waitMs: 15_000,
  silentGraceMs: 1_000,
  stalledGraceMs: 5_000,
};

/** Seconds a client told "busy" should wait before trying again. */
export const busyRetryAfterSeconds = 2;

interface Waiting {
  readonly kind: Kind;
  readonly since: number;
  readonly start: () => void;
  readonly refuse: () => void;
}

interface ConnectionState {
  /** An answer is being computed or written on this connection. */
  busy: boolean;
  /** Its requests waiting for room, in the order they came. */
  readonly queue: Waiting[];
  /** The ready list its first waiting request stands in, if any. */
  ready?: Kind;
  /** The kind of the last answer started on it: its unsent bytes count against that kind's bound. */
  kind: Kind;
  /** Unsent bytes at the last look, and since when the client has taken none of them. */
  unsent: number;
  stalledSince?: number;
  /** When it opened, while nothing has been asked on it yet. */
  silentSince?: number;
}

/** What the flow control holds now, by its own counts. */
export interface FlowCounters {
  readonly connections: number;
  /** Requests waiting for room, and the connections they wait on. */
  readonly waiting: number;
  readonly waitingConnections: number;
  /** Connections in line for the next piece of work. */
  readonly ready: number;
  /** Answers being computed. */
  readonly active: Readonly<Record<Kind, number>>;
  /** Bytes handed to connections that their clients have not taken yet, by the kind of answer they belong to. */
  readonly unsent: Readonly<Record<Kind, number>>;
  /** The bound on each kind's unsent bytes, past which no answer of that kind starts. */
  readonly bound: Readonly<Record<Kind, number>>;
}

/**
 * What the flow control did, as it does it: `queued` (a request waits for room), `handed`
 * (an answer was handed to its connection), `refused` (a request answered busy), `shed` (a
 * stalled connection closed to make room), `timed-out` (a connection closed after the write
 * timeout), `evicted` (a connection held without use closed for a newcomer), `closed` (a
 * connection closed and let go), `dropped` (a request read from a connection already let go,
 * thrown away). Each is emitted with its Kind when it has one.
 */
export type FlowEvent = 'queued' | 'handed' | 'refused' | 'shed' | 'timed-out' | 'evicted' | 'closed' | 'dropped';

export interface FlowControl {
  /**
   * Runs `handle` (which settles once the answer is handed to the connection) when there is
   * room for it; `busy` answers the request instead when it waited too long or too many are
   * waiting.
   */
  admit(req: IncomingMessage, res: ServerResponse, handle: () => Promise<void>, busy: () => void): void;
  counters(): FlowCounters;
  /** FlowEvent names; for tests and diagnostics, which wait on them rather than on time. */
  readonly events: EventEmitter;
}

/** Pages of at most this many records count as light. */
const lightRows = 100;

/** A request whose answer is small: anything but a page of more than `lightRows` records. */
export function isLight(url: string): boolean {
  const rows = /[?&]rows=(\d+)/.exec(url)?.[1];
  return rows === undefined || Number(rows) <= lightRows;
}

/**
 * Bulk pages are written out on the main thread one per turn of the event loop. Their
 * records often come back from the workers together, and written back to back they held
 * the thread for a few hundred milliseconds while a user's request waited unread; between
 * turns, what has arrived meanwhile is read and answered.
 */
const bulkTurns: (() => void)[] = [];
let turning = false;
function nextBulkTurn() {
  const next = bulkTurns.shift();
  turning = next !== undefined;
  if (!next) return;
  next();
  // Queued from within this phase, so it runs after the next poll for I/O.
  setImmediate(nextBulkTurn);
}

/** Resolves when it is this bulk page's turn to be written (light answers never wait for one). */
export function bulkTurn(rows: number): Promise<void> {
  if (rows <= lightRows) return Promise.resolve();
  return new Promise((resolve) => {
    bulkTurns.push(resolve);
    if (!turning) {
      turning = true;
      setImmediate(nextBulkTurn);
    }
  });
}

export type Kind = 'light' | 'bulk';

/**
 * Bulk answers may hold this share of the buffer bound, light ones the rest: each kind's
 * unsent bytes are counted apart, so bulk downloads never leave a user's record waiting
 * for memory.
 */
const bulkBufferShare = 0.75;

/**
 * Sockets in arrival order. A socket that closes leaves at once: while the buffer bound
 * holds the list still, closed sockets waiting in it would keep their parsers and pipelined
 * requests alive (about 100 KB each under a pipelining flood).
 */
class ReadyList {
  private readonly sockets = new Set<Socket>();
  push(socket: Socket) {
    this.sockets.add(socket);
  }
  take(): Socket | undefined {
    const [first] = this.sockets;
    if (first) this.sockets.delete(first);
    return first;
  }
  remove(socket: Socket) {
    this.sockets.delete(socket);
  }
  get size() {
    return this.sockets.size;
  }
}

export function controlFlow(server: Server, limits: FlowLimits, refuseConnection: (socket: Socket) => void): FlowControl {
  const connections = new Map<Socket, ConnectionState>();
  const events = new EventEmitter();
  /**
   * Connections whose first waiting request could start now but for the server's room: only
   * those, so finding the next piece of work never walks every queued request.
   */
  const ready = { light: new ReadyList(), bulk: new ReadyList() };
  /** Answers being computed, light and bulk. */
  const active = { light: 0, bulk: 0 };
  const bufferBound = { light: limits.totalBufferBytes * (1 - bulkBufferShare), bulk: limits.totalBufferBytes * bulkBufferShare };
  /** Connections with at least one request waiting. */
  let waitingConnections = 0;

  /** Puts a connection that can take its next request in line for it. */
  function offer(socket: Socket, state: ConnectionState) {
    const next = state.queue[0];
    if (state.busy || !next || state.ready || socket.writableLength > limits.connectionBufferBytes) return;
    state.ready = next.kind;
    ready[state.ready].push(socket);
  }

  function takeNext(state: ConnectionState): Waiting {
    state.ready = undefined;
    const entry = state.queue.shift()!;
    if (state.queue.length === 0) waitingConnections--;
    return entry;
  }

  server.on('connection', (socket: Socket) => {
    if (connections.size >= limits.maxConnections && !evictUnused()) {
      refuseConnection(socket);
      return;
    }
    const state: ConnectionState = { busy: false, queue: [], unsent: 0, kind: 'light', silentSince: performance.now() };
    connections.set(socket, state);
    socket.on('drain', () => {
      offer(socket, state);
      schedulePump();
    });
    socket.once('close', () => {
      if (state.queue.length > 0) waitingConnections--;
      state.queue.length = 0;
      if (state.ready) ready[state.ready].remove(socket);
      connections.delete(socket);
      schedulePump();
      events.emit('closed', state.kind);
    });
  });

  const unsent = () => {
    const total = { light: 0, bulk: 0 };
    for (const [socket, state] of connections) total[state.kind] += socket.writableLength;
    return total;
  };

  /** A client that takes none of an answer's bytes for the write timeout loses its connection. */
  function closeStalled(now: number) {
    for (const [socket, state] of connections) {
      const unsentNow = socket.writableLength;
      if (unsentNow === 0 || unsentNow < state.unsent) state.stalledSince = undefined;
      else state.stalledSince ??= now;
      state.unsent = unsentNow;
      if (state.stalledSince !== undefined && now - state.stalledSince > limits.writeTimeoutMs) {
        socket.destroy();
        events.emit('timed-out', state.kind);
      }
    }
  }

  /**
   * Over the bound, the connections whose clients have read nothing the longest are closed
   * first: they hold the memory, and waiting for their timeout would hold up everyone else.
   */
  function shedStalled(kind: Kind, total: number): number {
    const now = performance.now();
    const bound = bufferBound[kind];
    const stalled = [...connections]
      .filter(([, state]) => state.kind === kind && state.stalledSince !== undefined && now - state.stalledSince >= limits.stalledGraceMs)
      .sort(([, a], [, b]) => a.stalledSince! - b.stalledSince!);
    for (const [socket] of stalled) {
      if (total <= bound) break;
      total -= socket.writableLength;
      socket.destroy();
      events.emit('shed', kind);
    }
    return total;
  }

  /**
   * At the cap, a newcomer takes the place of a connection held without use: the one whose
   * client has read nothing the longest, else the one open the longest without asking
   * anything (a second at least). A kept-alive connection between two requests is a user's,
   * and is left alone. Only when there is neither is the newcomer refused.
   */
  function evictUnused(): boolean {
    const now = performance.now();
    let stalled: [Socket, number] | undefined;
    let silent: [Socket, number] | undefined;
    for (const [socket, state] of connections) {
      const { stalledSince, silentSince } = state;
      if (stalledSince !== undefined && now - stalledSince >= limits.stalledGraceMs && (!stalled || stalledSince < stalled[1]))
        stalled = [socket, stalledSince];
      if (silentSince !== undefined && now - silentSince >= limits.silentGraceMs && (!silent || silentSince < silent[1]))
        silent = [socket, silentSince];
    }
    const victim = (stalled ?? silent)?.[0];
    if (!victim) return false;
    victim.destroy();
    connections.delete(victim);
    events.emit('evicted');
    return true;
  }

  /** Requests that waited too long (and are not merely next in line on their own busy connection) are answered busy. */
  function refuseExpired(now: number) {
    for (const state of connections.values()) {
      if (state.busy) continue;
      while (state.queue.length > 0 && now - state.queue[0]!.since > limits.waitMs) {
        const entry = takeNext(state);
        entry.refuse();
        events.emit('refused', entry.kind);
      }
    }
  }

  function pump() {
    pumpScheduled = false;
    const total = unsent();
    // Light requests first, so bulk downloads queued by many connections cannot hold up a
    // user's record or first page; each kind in arrival order.
    for (const kind of ['light', 'bulk'] as const) {
      if (total[kind] > bufferBound[kind]) total[kind] = shedStalled(kind, total[kind]);
      const limit = kind === 'light' ? limits.maxActiveLight : limits.maxActive;
      while (active[kind] < limit && total[kind] <= bufferBound[kind] && ready[kind].size > 0) {
        const socket = ready[kind].take()!;
        const state = connections.get(socket);
        // A connection leaves the list by closing or by its request being refused.
        if (!state || state.ready !== kind) continue;
        takeNext(state).start();
      }
    }
  }

  /** Many events can free room in one turn of the loop; the work is looked for once. */
  let pumpScheduled = false;
  function schedulePump() {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(pump);
  }

  // Stalled clients and long waits are found by looking: nothing else would wake them.
  const sweep = setInterval(
    () => {
      const now = performance.now();
      closeStalled(now);
      refuseExpired(now);
      for (const [socket, state] of connections) offer(socket, state);
      pump();
    },
    Math.min(250, limits.writeTimeoutMs / 2, limits.waitMs / 2),
  );
  sweep.unref();
  server.once('close', () => clearInterval(sweep));

  return {
    events,
    counters() {
      let waiting = 0;
      for (const state of connections.values()) waiting += state.queue.length;
      return {
        connections: connections.size,
        waiting,
        waitingConnections,
        ready: ready.light.size + ready.bulk.size,
        active: { ...active },
        unsent: unsent(),
        bound: { ...bufferBound },
      };
    },
    admit(req, res, handle, busy) {
      const socket = req.socket;
      const connection = connections.get(socket);
      // A connection over the cap was answered 503 and closed already.
      if (!connection) {
        res.destroy();
        events.emit('dropped');
        return;
      }
      const kind: Kind = isLight(req.url ?? '/') ? 'light' : 'bulk';
      const first = connection.queue.length === 0;
      if (connection.queue.length >= limits.maxPipelined || (first && waitingConnections >= limits.maxWaiting)) {
        busy();
        events.emit('refused', kind);
        return;
      }
      const start = () => {
        connection.busy = true;
        connection.kind = kind;
        // The connection takes its next request once this answer is written out; the
        // server its next piece of work once this one is handed over.
        let done = false;
        const written = () => {
          if (done) return;
          done = true;
          connection.busy = false;
          offer(socket, connection);
          schedulePump();
        };
        res.once('finish', written);
        res.once('close', written);
        active[kind]++;
        void handle().finally(() => {
          active[kind]--;
          schedulePump();
          events.emit('handed', kind);
        });
      };
      connection.silentSince = undefined;
      connection.queue.push({ kind, since: performance.now(), start, refuse: busy });
      if (first) waitingConnections++;
      events.emit('queued', kind);
      offer(socket, connection);
      schedulePump();
    },
  };
}

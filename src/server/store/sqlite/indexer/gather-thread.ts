import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { Deployment } from '../../../../deployments/schema';
import type { StoredRecord } from '../../types';
import type { TextInstances } from './text-instances';
import type { PairHelper, PairJob, PieceBatch } from './pair-ranges';
import { bundleThread } from '../../../bundle-thread.js';
import { bundledModule } from '../../../module-bundle.js';

/**
 * A full build's text gathered on a thread of its own (gather-worker.ts), beside the writer's
 * thread that writes the records' rows: tokenizing the text was a good part of a bulk load's
 * work, and a load runs on one core otherwise. The thread is given each record as its row
 * keeps it (the JSON the writer stores, and its full text), so it gathers what a build from
 * the stored rows would; its instances come back in the order the build writes them, a batch
 * ahead, while the writer encodes the last.
 *
 * Once it has handed the instances over, the thread builds pieces of the pair lists beside the
 * writer (pair-ranges.ts's PairJob), the one part of the build that otherwise kept a core idle.
 *
 * The writer's work is synchronous (one transaction), so it waits for the thread by Atomics
 * on shared counters and reads its replies with receiveMessageOnPort, never through its event
 * loop.
 */

export interface GatherData {
  readonly deployment: string;
  readonly port: MessagePort;
  readonly signal: SharedArrayBuffer;
  readonly options: GatherOptions;
}

export interface GatherOptions {
  /** InstanceGatherer's ranges. */
  readonly ranges?: { readonly rangeBytes?: number; readonly rangeTokens?: number };
  /** Numbers of triples handed back in one batch, about. */
  readonly batchNumbers?: number;
}

export type GatherRequest =
  | { readonly ids: readonly number[]; readonly jsons: readonly string[]; readonly fulltexts: readonly (string | null)[] }
  | { readonly finish: true }
  | { readonly pairs: PairJob };

export type GatherReply =
  | { readonly lengths: Uint32Array; readonly rows: number; readonly tokens: number }
  | { readonly batch: readonly string[]; readonly triples: Int32Array; readonly ends: Int32Array }
  | { readonly done: true }
  | { readonly pieces: PieceBatch }
  | { readonly piecesDone: true }
  | { readonly error: string };

/** The shared counters: replies posted by the thread, batches of records it gathered, batches of instances the writer took. */
export const signals = { replies: 0, gathered: 1, taken: 2 } as const;

/** Records sent to the thread at once. */
const batchRecords = 256;
/** Batches of records sent and not yet gathered, at most: the thread's queue is bounded. */
const batchesAhead = 64;
/** How long a wait lasts before the thread is checked for having ended. */
const checkMs = 1000;

export class GatherThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4 * 3));
  private received = 0;
  private sent = 0;
  private ids: number[] = [];
  private jsons: string[] = [];
  private fulltexts: (string | null)[] = [];
  /** Whether the thread has nothing left to hand over (the instances, then any pair pieces): dropped then, it ends on its own. */
  private ended = false;

  /** `script` is gather-worker.ts as the thread can load it (module-bundle.js). */
  constructor(script: URL, deployment: Deployment, options: GatherOptions = {}) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const data: GatherData = { deployment: deployment.key, port: port2, signal: this.signal.buffer, options };
    this.worker = bundleThread(script, { workerData: data, transferList: [port2] });
    // Its end is seen by checking, not by events: the writer's thread waits without its event loop.
    this.worker.unref();
    this.worker.on('error', () => {});
  }

  /** Record `id` as its row keeps it: `json` its stored JSON. Ids must increase from one record to the next. */
  add(id: number, stored: StoredRecord, json: string): void {
    this.ids.push(id);
    this.jsons.push(json);
    this.fulltexts.push(stored.fulltext ?? null);
    if (this.ids.length === batchRecords) this.send();
  }

  private send(): void {
    if (this.ids.length === 0) return;
    this.waitUntil(signals.gathered, (gathered) => this.sent - gathered < batchesAhead);
    this.port.postMessage({ ids: this.ids, jsons: this.jsons, fulltexts: this.fulltexts } satisfies GatherRequest);
    this.sent++;
    this.ids = [];
    this.jsons = [];
    this.fulltexts = [];
  }

  /** Waits until `ready` holds of counter `at`; throws the thread's error, or that it ended. */
  private waitUntil(at: number, ready: (value: number) => boolean): void {
    for (;;) {
      if (Atomics.load(this.signal, signals.replies) > this.received) {
        const message = this.peekError();
        if (message) throw new Error(`gathering the text failed: ${message}`);
      }
      const value = Atomics.load(this.signal, at);
      if (ready(value)) return;
      if (Atomics.wait(this.signal, at, value, checkMs) === 'timed-out' && this.gone()) {
        throw new Error('the thread gathering the text ended');
      }
    }
  }

  private pending: GatherReply | undefined;

  /** A reply waiting, if it is an error: kept to be read in turn otherwise. */
  private peekError(): string | undefined {
    this.pending ??= receiveMessageOnPort(this.port)?.message as GatherReply | undefined;
    return this.pending && 'error' in this.pending ? this.pending.error : undefined;
  }

  private gone(): boolean {
    return Object.keys(this.worker.resourceLimits ?? {}).length === 0;
  }

  /** The thread's next reply, waited for. */
  private next(): GatherReply {
    this.waitUntil(signals.replies, (replies) => replies > this.received);
    const reply = this.pending ?? (receiveMessageOnPort(this.port)?.message as GatherReply | undefined);
    this.pending = undefined;
    if (!reply) throw new Error('the thread gathering the text posted no reply');
    this.received++;
    if ('error' in reply) throw new Error(`gathering the text failed: ${reply.error}`);
    return reply;
  }

  /** Every token's instances of the records added; `each` can be called once. */
  finish(): TextInstances {
    this.send();
    this.port.postMessage({ finish: true } satisfies GatherRequest);
    const totals = this.next();
    if (!('lengths' in totals)) throw new Error('the thread gathering the text replied out of turn');
    return {
      ...totals,
      each: (visit) => {
        for (let reply = this.next(); !('done' in reply); reply = this.next()) {
          if (!('batch' in reply)) throw new Error('the thread gathering the text replied out of turn');
          Atomics.add(this.signal, signals.taken, 1);
          Atomics.notify(this.signal, signals.taken);
          const { batch, triples, ends } = reply;
          batch.forEach((token, i) => visit(token, triples.subarray(i === 0 ? 0 : ends[i - 1], ends[i])));
        }
        this.ended = true;
      },
      drop: () => this.drop(),
      pairHelper: this.pairHelper,
    };
  }

  private readonly pairHelper: PairHelper = {
    start: (job) => {
      this.ended = false;
      this.port.postMessage({ pairs: job } satisfies GatherRequest);
    },
    drain: (take, wait) => {
      for (;;) {
        if (this.ended) return true;
        if (!wait && Atomics.load(this.signal, signals.replies) <= this.received) return false;
        const reply = this.next();
        if ('pieces' in reply) take(reply.pieces);
        else if ('piecesDone' in reply) this.ended = true;
        else throw new Error('the thread building pair lists replied out of turn');
      }
    },
  };

  /** Ends the thread and what it holds. */
  drop(): void {
    this.port.close();
    if (!this.ended) void this.worker.terminate();
  }
}

/** gather-worker.ts as a thread loads it, for WriterOptions' `gatherScript`. */
export const gatherScript = (): Promise<URL> => bundledModule(new URL('./gather-worker.ts', import.meta.url));

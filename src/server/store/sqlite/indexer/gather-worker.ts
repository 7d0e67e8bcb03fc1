import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { deploymentByKey } from '../../../../deployments/registry';
import { textColumns } from '../../../../formats/index-text';
import { InstanceGatherer } from './text-instances';
import { buildRanges } from './pair-ranges';
import { signals, type GatherData, type GatherReply, type GatherRequest } from './gather-thread';

/**
 * A full build's text gathered on a thread of its own (gather-thread.ts): each record's
 * columns and tokens as the writer's thread would take them, from the record as its row
 * keeps it, into an InstanceGatherer of this thread's own scratch database, then every
 * token's instances handed back in order, a batch ahead of the writer; then pieces of the
 * pair lists, from every other range of records (pair-ranges.ts's buildRanges).
 */

/** Instances (as triples' numbers) in one batch of tokens handed back, about, unless told. */
const defaultBatchNumbers = 1 << 20;
/** Batches handed back that the writer has not yet taken, at most. */
const batchesAhead = 2;

const { deployment: key, port, signal: shared, options } = workerData as GatherData;
const { ranges, batchNumbers = defaultBatchNumbers } = options;
const deployment = deploymentByKey(key)!;
const signal = new Int32Array(shared);
// A database of its own, in a temporary file: the writer's connection is not this thread's.
const db = new Database('');
const gatherer = new InstanceGatherer(db, 'gather', ranges);

function reply(message: GatherReply, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
  Atomics.add(signal, signals.replies, 1);
  Atomics.notify(signal, signals.replies);
}

function handOver(): void {
  const text = gatherer.finish();
  const lengths = text.lengths;
  reply({ lengths, rows: text.rows, tokens: text.tokens }, [lengths.buffer as ArrayBuffer]);
  let tokens: string[] = [];
  let parts: Int32Array[] = [];
  let numbers = 0;
  let sent = 0;
  const send = () => {
    // Not more than `batchesAhead` waiting: a store's instances do not fit in memory twice.
    for (let taken = Atomics.load(signal, signals.taken); sent - taken >= batchesAhead; taken = Atomics.load(signal, signals.taken)) {
      Atomics.wait(signal, signals.taken, taken);
    }
    const triples = new Int32Array(numbers);
    const ends = new Int32Array(parts.length);
    let at = 0;
    parts.forEach((part, i) => {
      triples.set(part, at);
      ends[i] = at += part.length;
    });
    reply({ batch: tokens, triples, ends }, [triples.buffer]);
    sent++;
    tokens = [];
    parts = [];
    numbers = 0;
  };
  text.each((token, triples) => {
    tokens.push(token);
    parts.push(triples);
    numbers += triples.length;
    if (numbers >= batchNumbers) send();
  });
  if (tokens.length > 0) send();
  reply({ done: true });
  text.drop();
}

port.on('message', (request: GatherRequest) => {
  try {
    if ('finish' in request) {
      // The port stays open for the pair lists' job; the writer closes it when the build ends.
      handOver();
      db.close();
      return;
    }
    if ('pairs' in request) {
      buildRanges(request.pairs, 1, (pieces) =>
        reply({ pieces }, [pieces.pieces.buffer as ArrayBuffer, pieces.bytes.buffer as ArrayBuffer]),
      );
      reply({ piecesDone: true });
      return;
    }
    const { ids, jsons, fulltexts } = request;
    for (let i = 0; i < ids.length; i++) {
      const fulltext = fulltexts[i];
      const record = JSON.parse(jsons[i]!) as Record<string, unknown>;
      gatherer.add(ids[i]!, textColumns(deployment, fulltext === null ? { record } : { record, fulltext }));
    }
    Atomics.add(signal, signals.gathered, 1);
    Atomics.notify(signal, signals.gathered);
  } catch (error) {
    reply({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    port.close();
  }
});

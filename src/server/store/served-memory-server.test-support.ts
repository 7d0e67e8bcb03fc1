import { startServer } from '../http/server';
import { CostBook } from './admission';
import { openPooledStore } from './pooled-store';
import { shelvesAtRest } from './pool/threads';
import { reloadingStore } from './reloading-store';

/**
 * `records serve` over the file named first, as the command opens it (a reloading store of
 * worker pools, one book of costs for the process), in a child process of the memory test
 * (served-memory.test.ts) so what is measured is the server alone. It speaks over IPC: it
 * says its URL and each generation serving facets (the last step of a new generation), looks
 * at the file when asked rather than every second, and measures its memory when asked, once
 * every generation before the current one has closed (its workers' stores closed and their
 * garbage collected) and the idle threads kept for the next have come to rest (pool/threads.ts),
 * after collecting the main thread's garbage (run with --expose-gc).
 */

export type ToServer = { readonly check: true } | { readonly measure: true };
export type FromServer = { readonly url: string } | { readonly generation: number } | { readonly rss: number };

const [path, size] = process.argv.slice(2);
const say = (message: FromServer) => process.send!(message);
const costs = new CostBook();
const closed = new Set<number>();
let closing: (() => void) | undefined;
const store = await reloadingStore(path!, (file) => openPooledStore(file, { size: Number(size), costs }), {
  checkMs: 3_600_000,
  log: () => undefined,
  onGeneration: (generation, facets) => facets && say({ generation }),
  onClosed: (generation) => {
    closed.add(generation);
    closing?.();
  },
});
/** Settles once the generation before the current one has closed (the ones before it closed earlier). */
const retired = () =>
  new Promise<void>((resolve) => {
    closing = () => (store.generations === 1 || closed.has(store.generations - 1)) && resolve();
    closing();
  });
const server = await startServer({ store, port: 0 });
const gc = (globalThis as { gc?: () => void }).gc!;

process.on('message', (message: ToServer) => {
  if ('check' in message) store.checkNow();
  else
    void retired()
      .then(shelvesAtRest)
      .then(() => {
        gc();
        say({ rss: process.memoryUsage.rss() });
      });
});
// The test ended (or failed): nothing is left running.
process.on(
  'disconnect',
  () =>
    void server
      .close()
      .then(() => store.close())
      .finally(() => process.exit(0)),
);
say({ url: server.url });

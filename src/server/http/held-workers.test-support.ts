import { get, type Agent } from 'node:http';
import type { Worker } from 'node:worker_threads';

/**
 * What a pool gives its workers, recorded in order and, while held, kept back: the pool's
 * queue then stands still until the test lets it go, so the order the workers take the
 * waiting searches in is the pool's choice alone, however fast the machine.
 */
export class HeldWorkers {
  /** The operations the workers are given, in the order given. */
  readonly given: string[] = [];
  private held: (() => void)[] | undefined;

  /** The pool's `onWorker` option. */
  readonly onWorker = (worker: Worker) => {
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (message: { op?: string }) => {
      if (message.op) this.given.push(message.op);
      if (this.held && message.op) this.held.push(() => post(message));
      else post(message);
    };
  };

  hold(): void {
    this.held = [];
  }

  /** Gives the workers what was kept back, and everything later at once. */
  release(): void {
    const waiting = this.held ?? [];
    this.held = undefined;
    for (const post of waiting) post();
  }
}

/** A GET through `agent` (a client address of its own), resolved with the status once the answer is read. */
export function statusThrough(agent: Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    }).on('error', reject);
  });
}

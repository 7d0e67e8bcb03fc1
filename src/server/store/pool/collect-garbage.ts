import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full collection of this thread's heap, for a store worker that has just closed its
 * generation (store-worker.ts). What the generation built (its postings, ranks, facet values
 * and statements) is garbage then, but an idle thread allocates nothing that would make V8
 * collect it, and a thread taken up again by the next generation builds that generation's
 * state before its old space fills: kept threads (threads.ts) held every generation's
 * garbage, and the server's memory rose with every write into a served file
 * (docs/decisions.md, "Worker threads outlive their generation").
 *
 * V8 offers `gc` only to contexts made while `--expose-gc` is set, and a worker cannot be
 * started with the flag, so it is set here and `gc` taken from a fresh context: the flag is
 * the process's, but only contexts made after it see `gc`, and nothing else does.
 */
let collect: (() => void) | undefined;

export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

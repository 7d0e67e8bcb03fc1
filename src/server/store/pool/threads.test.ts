import { describe, expect, it } from 'vitest';
import { bundledModule } from '../../module-bundle.js';
import { borrowThread, shelvesAtRest } from './threads';

/**
 * The idle threads kept for later generations (threads.ts) are what one generation borrows,
 * however many a burst of generations started: the rest end when given back, since nothing
 * would borrow them again and each holds a heap and a malloc arena of its own. Once no thread
 * has been given back for a while, only what is kept at rest stays; each role has its shelf.
 */

const script = await bundledModule(new URL('../store-worker.ts', import.meta.url));
// An ended worker's threadId is -1.
const ended = (threads: readonly { worker: { threadId: number } }[]) => threads.filter(({ worker }) => worker.threadId === -1);

describe('threads given back after a burst', () => {
  it('keeps one generation’s worth idle and ends the rest', { timeout: 60_000 }, async () => {
    const shelf = { script, role: 'search', keepIdle: 4, restIdle: 4 } as const;
    const burst = Array.from({ length: 6 }, () => borrowThread(shelf));
    await Promise.all(burst.map((thread) => thread.giveBack()));
    expect(ended(burst)).toHaveLength(2);
    // The next generation takes the kept ones rather than starting threads; another role's shelf has none of them.
    const reader = borrowThread({ script, role: 'facets', keepIdle: 1, restIdle: 1 });
    const next = Array.from({ length: 4 }, () => borrowThread(shelf));
    const kept = new Set(burst.map(({ worker }) => worker));
    expect(next.filter(({ worker }) => kept.has(worker))).toHaveLength(4);
    expect(kept.has(reader.worker)).toBe(false);
    await Promise.all([...next, reader].map((thread) => thread.end()));
  });

  it('ends the idle threads beyond those kept at rest once none is given back', { timeout: 60_000 }, async () => {
    const shelf = { script, role: 'search', keepIdle: 3, restIdle: 1, restMs: 2_000 } as const;
    const generation = Array.from({ length: 3 }, () => borrowThread(shelf));
    await Promise.all(generation.map((thread) => thread.giveBack()));
    expect(ended(generation)).toHaveLength(0);
    await shelvesAtRest();
    expect(ended(generation)).toHaveLength(2);
    // The one kept at rest is the next generation's.
    const next = borrowThread(shelf);
    expect(next.worker).toBe(generation.find(({ worker }) => worker.threadId !== -1)!.worker);
    await next.end();
  });
});

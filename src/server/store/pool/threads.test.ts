import { describe, expect, it } from 'vitest';
import { bundledModule } from '../../module-bundle.js';
import { borrowThread } from './threads';

/**
 * The idle threads kept for later generations (threads.ts) are what one generation borrows,
 * however many a burst of generations started: the rest end when given back, since nothing
 * would borrow them again and each holds a heap and a malloc arena of its own.
 */

const shelf = { script: await bundledModule(new URL('../store-worker.ts', import.meta.url)), keepIdle: 4 };

describe('threads given back after a burst', () => {
  it('keeps one generation’s worth idle and ends the rest', { timeout: 60_000 }, async () => {
    const burst = Array.from({ length: 6 }, () => borrowThread(shelf));
    await Promise.all(burst.map((thread) => thread.giveBack()));
    // An ended worker's threadId is -1.
    expect(burst.filter(({ worker }) => worker.threadId === -1)).toHaveLength(2);
    // The next generation takes the kept ones rather than starting threads.
    const next = Array.from({ length: 4 }, () => borrowThread(shelf));
    const kept = new Set(burst.map(({ worker }) => worker));
    expect(next.filter(({ worker }) => kept.has(worker))).toHaveLength(4);
    await Promise.all(next.map((thread) => thread.end()));
  });
});

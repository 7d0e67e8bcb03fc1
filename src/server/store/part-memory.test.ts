import { describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { sharedBytes, sharedCopy } from './part-memory';

/**
 * A part's arrays copied to shared memory (part-memory.ts) read the same in every thread,
 * whether small (malloc) or large (a mapping of their own, rounded up to whole pages that the
 * copy does not show).
 */

describe('shared copies', () => {
  it('hold what was copied, at its length, readable by another thread', async () => {
    for (const length of [0, 5, 300_000, 1_000_003]) {
      const array = Int32Array.from({ length }, (_, i) => i * 7 - 3);
      const copy = sharedCopy(array);
      expect(copy).toBeInstanceOf(Int32Array);
      expect(copy.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(copy.length).toBe(length);
      expect(copy).toEqual(array);
      const worker = new Worker(
        'const { parentPort } = require("node:worker_threads"); parentPort.once("message", (a) => { a[a.length - 1] = 42; parentPort.postMessage(a.reduce((s, v) => s + v, 0)); });',
        { eval: true },
      );
      const sum = await new Promise<number>((resolve) => {
        worker.once('message', resolve);
        worker.postMessage(copy);
      });
      await worker.terminate();
      if (length) expect(copy[length - 1]).toBe(42);
      expect(sum).toBe(copy.reduce((total, value) => total + value, 0));
    }
    expect(sharedBytes(3 << 20).byteLength).toBe(3 << 20);
  });
});

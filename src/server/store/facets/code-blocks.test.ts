import { describe, expect, it } from 'vitest';
import { blockDecoder, blockLists, decodeBlock, encodeBlock, recordsPerBlock } from './code-blocks';

/** A seeded source of numbers, so a failing case can be read again. */
function numbers(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state % below;
  };
}

/** Lists of distinct sorted codes, some records holding none, some many and large ones. */
function randomLists(seed: number): number[][] {
  const next = numbers(seed);
  return Array.from({ length: recordsPerBlock }, () => {
    const size = next(4) === 0 ? 0 : next(3) === 0 ? next(300) : next(4);
    const spread = next(2) ? 64 : 2_000_000;
    return [...new Set(Array.from({ length: size }, () => next(spread)))].sort((a, b) => a - b);
  });
}

describe('facet code blocks', () => {
  it('read back every record’s codes as written, for many random blocks', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const lists = randomLists(seed);
      expect(blockLists(decodeBlock(encodeBlock(lists))), `seed ${seed}`).toEqual(lists);
    }
  });

  it('read back as written after some records are rewritten and the block written again', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const next = numbers(seed * 7);
      const lists = blockLists(decodeBlock(encodeBlock(randomLists(seed))));
      for (let i = 0; i < 50; i++) lists[next(recordsPerBlock)] = next(2) ? [] : [next(10), 10 + next(10), 20 + next(100_000)];
      expect(blockLists(decodeBlock(encodeBlock(lists))), `seed ${seed}`).toEqual(lists);
    }
  });

  it('read back as written block after block into the same memory, as a reader’s passes over a column do', () => {
    const decode = blockDecoder();
    const buffers = new Set<ArrayBufferLike>();
    for (let seed = 1; seed <= 40; seed++) {
      const lists = randomLists(seed);
      const decoded = decode(encodeBlock(lists));
      buffers.add(decoded.codes.buffer);
      expect(blockLists(decoded), `seed ${seed}`).toEqual(lists);
    }
    // Grown a few times to the largest block's size, not made again for each block.
    expect(buffers.size).toBeLessThanOrEqual(4);
  });

  it('hold no codes for the records a block was not given (a column’s last block, its tail)', () => {
    const decoded = decodeBlock(encodeBlock([[3], [], [0, 7]]));
    expect(blockLists(decoded).slice(0, 4)).toEqual([[3], [], [0, 7], []]);
    expect(decoded.offsets[recordsPerBlock]).toBe(3);
  });
});

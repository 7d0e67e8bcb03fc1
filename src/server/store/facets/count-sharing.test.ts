import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCodeCounts, countPasses, countTakenJob, declineHelp, helpWith, takeJob, type CountJob, type CountPass } from './count-sharing';

/**
 * The counts are the same whoever counts each half: the poster alone, a helper that took
 * the job, or the poster after no helper came. What the other thread does is played here
 * by the function that would pass it the job; the pool's test runs it on real workers.
 */

const capacity = 60;
const codeCount = 9;
const shared = (values: readonly number[]) => {
  const array = new Int32Array(new SharedArrayBuffer(Math.max(1, values.length) * 4));
  array.set(values);
  return array.subarray(0, values.length);
};

/** Two indexes over the same records (as a request's facet index and broader index), each record holding a few codes. */
const passes = fc
  .tuple(
    fc.array(fc.uniqueArray(fc.integer({ min: 0, max: codeCount - 1 }), { maxLength: 4 }), { minLength: capacity, maxLength: capacity }),
    fc.array(fc.uniqueArray(fc.integer({ min: 0, max: codeCount - 1 }), { maxLength: 4 }), { minLength: capacity, maxLength: capacity }),
    fc
      .uniqueArray(fc.integer({ min: 0, max: capacity - 1 }), { minLength: 2, maxLength: capacity })
      .map((ids) => ids.sort((a, b) => a - b)),
  )
  .map(([first, second, ids]): CountPass[] =>
    [first, second].map((held) => {
      const offsets = [0];
      for (const codes of held) offsets.push(offsets.at(-1)! + codes.length);
      return { offsets: shared(offsets), codes: shared(held.flat()), ids: shared(ids) };
    }),
  );

const alone = (all: readonly CountPass[]) =>
  all.map((pass) => {
    const counts = new Int32Array(codeCount);
    addCodeCounts(pass, counts);
    return counts;
  });

/** Counts with `ask` standing for the pool, starting from zero. */
function counted(all: readonly CountPass[], ask: (job: CountJob) => void, waitMs?: number, helperPatienceMs?: number): Int32Array[] {
  const counts = all.map(() => new Int32Array(codeCount));
  countPasses(all, counts, { ask, fromRecords: 1, ...(waitMs && { waitMs }), ...(helperPatienceMs !== undefined && { helperPatienceMs }) });
  return counts;
}

/** A helper's counts half done: what a slow or failing helper has written when its poster looks. */
const partly = (job: CountJob) => job.passes.forEach(({ out }) => out.fill(7, 0, 3));

describe('counting shared with another thread', () => {
  it('gives the same counts when a helper counts the second half', () => {
    fc.assert(
      fc.property(passes, (all) => {
        let helped = false;
        expect(counted(all, (job) => (helped = helpWith(job)))).toEqual(alone(all));
        expect(helped).toBe(true);
      }),
    );
  });

  it('counts the half no helper took itself, and a helper that comes late leaves it alone', () => {
    fc.assert(
      fc.property(passes, (all) => {
        let posted: CountJob | undefined;
        expect(counted(all, (job) => (posted = job))).toEqual(alone(all));
        // The message reaches a worker after the poster took its job back.
        const before = posted!.passes.map(({ out }) => out.slice());
        expect(helpWith(posted!)).toBe(false);
        expect(posted!.passes.map(({ out }) => out.slice())).toEqual(before);
      }),
    );
  });

  it('counts the whole at once when the pool has no free worker, without waiting out its patience', () => {
    // A poster that waited for a helper after the pool said none is free would outlast the test's time limit.
    fc.assert(
      fc.property(passes, (all) => {
        expect(counted(all, declineHelp, 600_000)).toEqual(alone(all));
      }),
      { numRuns: 20 },
    );
  });

  it('counts the rest itself when a helper that took the job is still counting after its patience, and never reads the helper’s counts', () => {
    fc.assert(
      fc.property(passes, (all) => {
        let slow: CountJob | undefined;
        const ask = (job: CountJob) => {
          expect(takeJob(job)).toBe(true);
          partly((slow = job));
        };
        const counts = counted(all, ask, undefined, 1);
        expect(counts).toEqual(alone(all));
        // The helper finishes after its poster has answered: the answer stays as it was.
        countTakenJob(slow!);
        expect(counts).toEqual(alone(all));
      }),
      { numRuns: 20 },
    );
  });

  it('counts the rest itself at once when its helper fails half-way, never reading the helper’s counts', () => {
    const failing = (job: CountJob): CountJob => ({
      ...job,
      passes: {
        [Symbol.iterator]() {
          partly(job);
          throw new Error('the helper ran out of memory');
        },
      } as unknown as CountJob['passes'],
    });
    fc.assert(
      fc.property(passes, (all) => {
        const ask = (job: CountJob) => {
          expect(takeJob(job)).toBe(true);
          expect(() => countTakenJob(failing(job))).toThrow(/out of memory/);
        };
        // A poster that waited out its patience for a failed helper would outlast the test's time limit.
        expect(counted(all, ask, undefined, 600_000)).toEqual(alone(all));
      }),
      { numRuns: 20 },
    );
  });

  it('asks no one for a count below the size worth sharing, or on arrays another thread cannot read', () => {
    const [pass] = fc.sample(passes, { numRuns: 1, seed: 4 })[0]!;
    const local: CountPass = { offsets: pass!.offsets.slice(), codes: pass!.codes.slice(), ids: pass!.ids.slice() };
    let asked = 0;
    const ask = () => asked++;
    countPasses([pass!], [new Int32Array(codeCount)], { ask, fromRecords: pass!.ids.length + 1 });
    const counts = new Int32Array(codeCount);
    countPasses([local], [counts], { ask, fromRecords: 0 });
    expect(asked).toBe(0);
    expect(counts).toEqual(alone([pass!])[0]);
  });
});

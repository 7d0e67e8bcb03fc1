/**
 * A facets request's counting pass shared between two worker threads, as Lucene runs one
 * query's segments on several threads: counting the value codes of a broad search's records
 * is most of what its facets cost, and while one worker counts, another is often idle.
 *
 * The counting worker posts the second half of its records as a job, counts the first half,
 * then either finds the job done (and adds the helper's counts to its own), or takes it
 * back and counts it too. The job's state is one integer on shared memory that every side
 * changes by compare-and-swap, so exactly one thread counts each half: a job no idle worker
 * took in time is counted by its poster, never waited for, and a helper that comes late
 * finds it taken back and leaves it. The arrays counted (the facet index, the record ids,
 * the helper's counts) are on shared memory, so posting a job copies none of them.
 */

/** One index's codes to count over some records: `counts[code]` grows by one per record holding `code`. */
export interface CountPass {
  readonly offsets: Int32Array;
  readonly codes: Int32Array;
  readonly ids: Int32Array;
}

/** The half a helper counts: per pass, its records and where its counts go (all zero when posted). */
export interface CountJob {
  readonly state: Int32Array;
  readonly passes: readonly (CountPass & { readonly out: Int32Array })[];
}

/** Hands a job to another thread: that thread calls helpWith(job), or declineHelp(job) if none is free. */
export type AskHelp = (job: CountJob) => void;

export interface CountSharing {
  readonly ask: AskHelp;
  /** Records a pass needs before half of it is worth the trip to another thread. */
  readonly fromRecords: number;
  /**
   * How long the poster waits for a helper to take the job once its own half is counted;
   * 0 in service (it counts the rest itself at once), more in tests, so a helper surely takes it.
   */
  readonly waitMs?: number;
  /**
   * How long the poster waits for a helper that took the job and is still counting; past
   * it, the poster counts the rest itself and the helper's counts are never read.
   */
  readonly helperPatienceMs?: number;
}

// A job's state: posted, then taken by a helper and done (or failed), or withdrawn by its
// poster, or declined by the pool. Only a posted job changes hands.
const posted = 0;
const taken = 1;
const done = 2;
const withdrawn = 3;
const declined = 4;
const failed = 5;

/** How long a poster waits for a helper that took its job and is counting, unless CountSharing says otherwise. */
export const defaultHelperPatienceMs = 2_000;

/** Adds, for every record of `ids`, one to the count of each of its codes. */
export function addCodeCounts({ offsets, codes, ids }: CountPass, counts: Int32Array): void {
  for (let r = 0; r < ids.length; r++) {
    const id = ids[r]!;
    for (let k = offsets[id]!, end = offsets[id + 1]!; k < end; k++) counts[codes[k]!]!++;
  }
}

/** Takes a job posted by another thread, unless it was taken back or taken by another helper. */
export function takeJob(job: CountJob): boolean {
  return Atomics.compareExchange(job.state, 0, posted, taken) === posted;
}

/** Counts a job this thread took, and says whether it counted all of it (the poster reads the counts only then). */
export function countTakenJob(job: CountJob): void {
  let outcome = failed;
  try {
    for (const pass of job.passes) addCodeCounts(pass, pass.out);
    outcome = done;
  } finally {
    Atomics.store(job.state, 0, outcome);
    Atomics.notify(job.state, 0);
  }
}

/** Counts a job posted by another thread, unless it was taken back or taken by another helper. */
export function helpWith(job: CountJob): boolean {
  if (!takeJob(job)) return false;
  countTakenJob(job);
  return true;
}

/** Tells the poster no thread is free to help: it counts the job itself at once. */
export function declineHelp(job: CountJob): void {
  if (Atomics.compareExchange(job.state, 0, posted, declined) === posted) Atomics.notify(job.state, 0);
}

const isShared = (array: Int32Array) => array.buffer instanceof SharedArrayBuffer;

/** Each pass's helper counts, reused between requests; forgotten when a helper may still write them. */
const helperCounts = new WeakMap<Int32Array, Int32Array>();

function helperCountsOf(counts: Int32Array): Int32Array {
  let out = helperCounts.get(counts);
  if (!out || out.length !== counts.length) helperCounts.set(counts, (out = new Int32Array(new SharedArrayBuffer(counts.byteLength))));
  return out.fill(0);
}

/**
 * Adds each pass's code counts to `counts[p]`, half of them counted by another thread when
 * `sharing` finds one free and the passes are large and on shared memory.
 */
export function countPasses(passes: readonly CountPass[], counts: readonly Int32Array[], sharing?: CountSharing): void {
  const shareable =
    sharing &&
    passes.some((pass) => pass.ids.length >= sharing.fromRecords) &&
    passes.every((pass) => isShared(pass.offsets) && isShared(pass.codes) && isShared(pass.ids));
  if (!shareable) {
    passes.forEach((pass, p) => addCodeCounts(pass, counts[p]!));
    return;
  }
  const halves = passes.map((pass) => pass.ids.length >> 1);
  const job: CountJob = {
    state: new Int32Array(new SharedArrayBuffer(4)),
    passes: passes.map((pass, p) => ({ ...pass, ids: pass.ids.subarray(halves[p]), out: helperCountsOf(counts[p]!) })),
  };
  sharing.ask(job);
  passes.forEach((pass, p) => addCodeCounts({ ...pass, ids: pass.ids.subarray(0, halves[p]) }, counts[p]!));
  if (sharing.waitMs) Atomics.wait(job.state, 0, posted, sharing.waitMs);
  const countRest = () => job.passes.forEach((pass, p) => addCodeCounts(pass, counts[p]!));
  const state = Atomics.compareExchange(job.state, 0, posted, withdrawn);
  if (state === posted || state === declined || state === failed) return countRest();
  if (state === taken) Atomics.wait(job.state, 0, taken, sharing.helperPatienceMs ?? defaultHelperPatienceMs);
  if (Atomics.load(job.state, 0) !== done) {
    // A helper still counting would write into these later: the next request gets new ones.
    for (const p of counts.keys()) helperCounts.delete(counts[p]!);
    return countRest();
  }
  job.passes.forEach(({ out }, p) => {
    const into = counts[p]!;
    for (let code = 0; code < out.length; code++) into[code]! += out[code]!;
  });
}

import type { RetryPolicy } from '../../client/retry';

/** Limits of a whole-result-set download, shown to the user before it starts. */

/** Most records one download writes: a file a spreadsheet or reference manager still opens. */
export const downloadCap = 100_000;

/**
 * A failed page is tried again after 1, 3 and 9 s (or the pause its server asks for, up to a
 * minute), then the download stops.
 */
export const downloadRetryPolicy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 1_000,
  factor: 3,
  maxDelayMs: 9_000,
  jitter: 0,
  maxRetryAfterMs: 60_000,
};

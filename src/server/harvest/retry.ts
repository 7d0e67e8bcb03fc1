import type { RetryPolicy } from '../../client/retry';

/**
 * A harvest's patience: a busy or briefly broken source is asked again for up to about four
 * minutes, doubling the pause with jitter, and waited for up to ten when it says how long.
 */
export const defaultRetryPolicy: RetryPolicy = {
  attempts: 8,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 10 * 60_000,
};

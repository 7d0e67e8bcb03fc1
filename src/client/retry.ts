/**
 * When a request is asked again and when it is given up. A server that is busy (429, 503)
 * or briefly broken (502, 504, 500, a dropped connection, a timeout) gets the same request
 * again after a growing pause; one that says how long to wait (`Retry-After`) is believed,
 * within reason. The export downloads and the harvester differ only in their policy.
 */

import { ApiRequestError, NetworkError, isTimeout } from './errors';

export interface RetryPolicy {
  /** Tries of one request in all, the first included. */
  readonly attempts: number;
  /** The pause after the first failure; each further failure multiplies it by `factor` (2 unless told). */
  readonly baseDelayMs: number;
  readonly factor?: number;
  readonly maxDelayMs: number;
  /** How far a pause may stray either way, as a fraction of it: a quarter unless told, 0 for none. */
  readonly jitter?: number;
  /** A server asking for a longer pause than this is not waited for: the request fails. */
  readonly maxRetryAfterMs: number;
}

/** Statuses that say "not now" rather than "never": of the 4xx, only 408 and 429. */
export const retryableStatuses: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/**
 * Failures a later try may not meet: a status of `retryableStatuses`, no answer or a broken
 * one, a timeout. Not an abort, an error status that says "never", nor a malformed answer.
 */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiRequestError) return retryableStatuses.has(error.status);
  if (error instanceof NetworkError) return error.transient;
  return isTimeout(error);
}

const day = '(Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const month = '(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/** RFC 9110 §5.6.7's three forms of HTTP-date: IMF-fixdate, then the obsolete RFC 850 and asctime forms. */
const httpDates = [
  new RegExp(`^${day}, \\d{2} ${month} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$`),
  new RegExp(`^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \\d{2}-${month}-\\d{2} \\d{2}:\\d{2}:\\d{2} GMT$`),
  new RegExp(`^${day} ${month} [ \\d]\\d \\d{2}:\\d{2}:\\d{2} \\d{4}$`),
];

/**
 * The pause a `Retry-After` header asks for: delay-seconds (1*DIGIT) or an HTTP-date
 * (RFC 9110 §10.2.3). Undefined when absent or anything else (`599.9`, `-1`, `soon`), so
 * the caller's backoff applies: a value the grammar does not allow is no instruction.
 */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value || value.length > 40) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  if (!httpDates.some((form) => form.test(value))) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The pause before try `attempt + 1` after `attempt` failures (from 1): exponential, with
 * jitter so several clients that failed together do not return together, and never over
 * the cap (at the cap the jitter only shortens the pause).
 */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const { factor = 2, jitter = 0.25 } = policy;
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * factor ** (attempt - 1));
  return Math.min(policy.maxDelayMs, Math.round(exponential * (1 - jitter + 2 * jitter * random())));
}

/** Waits `ms`, or less when `signal` aborts (then rejects with its reason). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface RetryEvent {
  /** Tries so far, all failed. */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: unknown;
}

export interface RetryOptions {
  readonly policy: RetryPolicy;
  /** Whether a failure may pass on another try; `isRetryable` unless told. */
  readonly retryable?: (error: unknown) => boolean;
  /** Told before each pause. */
  readonly onRetry?: (retry: RetryEvent) => void;
  /**
   * What to throw when trying stops: after the last try, or when the server asks for a pause
   * longer than the policy waits (`waitMs`). The failure itself unless told.
   */
  readonly giveUp?: (error: unknown, attempts: number, waitMs: number | undefined) => unknown;
  /** Aborting it ends the pause and the trying, with its reason. */
  readonly signal?: AbortSignal | undefined;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

/**
 * `run(attempt)` until it succeeds, as the policy allows: after a retryable failure, the
 * pause the server asked for (an ApiRequestError's `Retry-After`) or the backoff.
 */
export async function withRetry<T>(run: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { policy, signal } = options;
  const retryable = options.retryable ?? isRetryable;
  const sleep = options.sleep ?? pause;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!retryable(error)) throw error;
      const asked = error instanceof ApiRequestError ? error.retryAfterMs : undefined;
      if (attempt >= policy.attempts) throw options.giveUp ? options.giveUp(error, attempt, undefined) : error;
      if (asked !== undefined && asked > policy.maxRetryAfterMs) throw options.giveUp ? options.giveUp(error, attempt, asked) : error;
      const delayMs = asked ?? backoffMs(policy, attempt, options.random);
      options.onRetry?.({ attempt, delayMs, error });
      await sleep(delayMs, signal);
    }
  }
}

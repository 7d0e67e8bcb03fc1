/**
 * When a harvest asks again and when it gives up. A source that is busy (429, 503) or
 * briefly broken (502, 504, 500, a dropped connection, a timeout) gets the same request
 * again after a growing pause; one that says how long to wait (`Retry-After`) is believed,
 * within reason.
 */

export interface RetryPolicy {
  /** Tries of one request in all, the first included. */
  readonly attempts: number;
  /** The pause after the first failure; each further failure doubles it. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** A source asking for a longer pause than this is not waited for: the harvest stops. */
  readonly maxRetryAfterMs: number;
}

export const defaultRetryPolicy: RetryPolicy = {
  attempts: 8,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  maxRetryAfterMs: 10 * 60_000,
};

/** Statuses that say "not now" rather than "never": of the 4xx, only 408 and 429. */
export const retryableStatuses: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

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
 * jitter so several harvesters that failed together do not return together.
 */
export function backoffMs(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(exponential * (0.75 + 0.5 * random()));
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

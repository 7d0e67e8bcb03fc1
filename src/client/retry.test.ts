import { describe, expect, it } from 'vitest';
import { ApiRequestError, InvalidResponseError, NetworkError } from './errors';
import { backoffMs, isRetryable, retryAfterMs, withRetry, type RetryPolicy } from './retry';

describe('Retry-After', () => {
  it('reads delay-seconds and HTTP dates, and ignores what it cannot read', () => {
    const now = Date.parse('Mon, 23 Nov 2026 04:00:00 GMT');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 04:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 03:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('reads no value outside RFC 9110 as a date: a decimal, a sign or a bare year is no instruction', () => {
    const now = Date.parse('Mon, 23 Nov 2026 04:00:00 GMT');
    for (const bad of ['599.9', '1.5', '-1', '+30', '1e3', '30 s', 'Mon, 23 Nov 2026', `${'9'.repeat(50)}`]) {
      expect(retryAfterMs(bad, now), bad).toBeUndefined();
    }
    expect(retryAfterMs('Monday, 23-Nov-26 04:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('Mon Nov 23 04:00:20 2026', now)).toBe(20_000);
  });
});

const policy: RetryPolicy = { attempts: 4, baseDelayMs: 1000, factor: 3, maxDelayMs: 5000, jitter: 0, maxRetryAfterMs: 60_000 };

describe('backoff', () => {
  it('grows by the factor up to the cap, and strays by the jitter either way', () => {
    expect([1, 2, 3].map((attempt) => backoffMs(policy, attempt))).toEqual([1000, 3000, 5000]);
    const jittery = { ...policy, jitter: 0.5 };
    expect([backoffMs(jittery, 2, () => 0), backoffMs(jittery, 2, () => 1)]).toEqual([1500, 4500]);
  });
});

describe('isRetryable', () => {
  it('tries again after "not now" statuses, lost connections and timeouts, never after a refusal or a bad answer', () => {
    const status = (code: number) => new ApiRequestError(code, 'http://x.test/', undefined);
    expect([408, 429, 500, 502, 503, 504].map((code) => isRetryable(status(code)))).toEqual(Array(6).fill(true));
    expect([400, 401, 404, 410, 501].map((code) => isRetryable(status(code)))).toEqual(Array(5).fill(false));
    expect(isRetryable(new NetworkError('http://x.test/', { cause: new TypeError('fetch failed') }))).toBe(true);
    const overflow = new TypeError('fetch failed', { cause: { code: 'UND_ERR_HEADERS_OVERFLOW' } });
    expect(isRetryable(new NetworkError('http://x.test/', { cause: overflow }))).toBe(false);
    expect(isRetryable(new DOMException('no answer', 'TimeoutError'))).toBe(true);
    expect(isRetryable(new DOMException('stopped', 'AbortError'))).toBe(false);
    expect(isRetryable(new InvalidResponseError('http://x.test/', 'expected JSON.'))).toBe(false);
  });
});

/** A run failing with `failures` in turn, then answering; the pauses asked for are recorded, not waited. */
function flaky(failures: Error[]) {
  const pauses: number[] = [];
  const retries: number[] = [];
  let calls = 0;
  const run = async () => {
    calls++;
    const failure = failures.shift();
    if (failure !== undefined) throw failure;
    return 'answer';
  };
  const options = {
    policy,
    sleep: async (ms: number) => void pauses.push(ms),
    onRetry: ({ attempt }: { attempt: number }) => retries.push(attempt),
  };
  return { run, options, pauses, retries, calls: () => calls };
}

const busy = (retryAfter?: number) => new ApiRequestError(503, 'http://x.test/', undefined, retryAfter);

describe('withRetry', () => {
  it('tries again after the backoff, or the pause the server asked for, and returns the answer', async () => {
    const { run, options, pauses, retries } = flaky([busy(), busy(7000), new NetworkError('http://x.test/')]);
    expect(await withRetry(run, options)).toBe('answer');
    expect(pauses).toEqual([1000, 7000, 5000]);
    expect(retries).toEqual([1, 2, 3]);
  });

  it('gives up after the last try, or at once when the server asks for a longer pause than the policy waits', async () => {
    const last = busy();
    const exhausted = flaky([busy(), busy(), busy(), last]);
    await expect(withRetry(exhausted.run, exhausted.options)).rejects.toBe(last);
    expect(exhausted.calls()).toBe(4);
    const patient = flaky([busy(3_600_000)]);
    const giveUp = (error: unknown, tries: number, waitMs: number | undefined) => new Error(`after ${tries}, asked ${waitMs}`);
    await expect(withRetry(patient.run, { ...patient.options, giveUp })).rejects.toThrow('after 1, asked 3600000');
    expect(patient.pauses).toEqual([]);
  });

  it('does not retry what a retry cannot fix', async () => {
    const notFound = new ApiRequestError(404, 'http://x.test/', undefined);
    const { run, options, calls } = flaky([notFound]);
    await expect(withRetry(run, options)).rejects.toBe(notFound);
    expect(calls()).toBe(1);
  });

  it('an abort during the pause ends the trying with its reason, without another try', async () => {
    const controller = new AbortController();
    const { run, calls } = flaky([busy(), busy()]);
    const pending = withRetry(run, { policy, signal: controller.signal, onRetry: () => controller.abort() });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(calls()).toBe(1);
  });
});

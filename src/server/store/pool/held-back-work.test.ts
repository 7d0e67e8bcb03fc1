import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HeldBackWork } from './held-back-work';

/** Held-back work goes ahead once: when asked, when the pool has stayed idle a moment, or at the latest. */

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(() => {
  vi.useRealTimers();
});

function held() {
  let ran = 0;
  const work = new HeldBackWork(() => ran++, 100);
  return { work, ran: () => ran };
}

describe('held-back work', () => {
  it('goes ahead once the pool has stayed idle for a moment, not while it gets work again', () => {
    const { work, ran } = held();
    work.idle(true);
    vi.advanceTimersByTime(60);
    work.idle(false);
    work.idle(true);
    vi.advanceTimersByTime(60);
    expect(ran()).toBe(0);
    vi.advanceTimersByTime(50);
    expect(ran()).toBe(1);
  });

  it('goes ahead at once when released, and only once whatever comes after', () => {
    const { work, ran } = held();
    work.releaseAfter(2_000);
    work.release();
    expect(ran()).toBe(1);
    work.idle(true);
    work.release();
    vi.advanceTimersByTime(5_000);
    expect(ran()).toBe(1);
  });

  it('goes ahead at the latest when told, with the pool never idle', () => {
    const { work, ran } = held();
    work.releaseAfter(2_000);
    work.idle(false);
    vi.advanceTimersByTime(1_999);
    expect(ran()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(ran()).toBe(1);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl, storeTarget, userAgentFor } from './command';
import { createProgress, progressLine } from './progress';
import { backoffMs } from '../../client/retry';
import { defaultRetryPolicy } from './retry';

/** The small rules a harvest lives by: how long it waits, what it says, who it says it is. */

describe('backoff', () => {
  it('doubles from the base pause with at most a quarter of jitter either way, never over the cap', () => {
    const pauses = [1, 2, 3, 4].map((attempt) => [
      backoffMs(defaultRetryPolicy, attempt, () => 0),
      backoffMs(defaultRetryPolicy, attempt, () => 1),
    ]);
    expect(pauses).toEqual([
      [750, 1250],
      [1500, 2500],
      [3000, 5000],
      [6000, 10_000],
    ]);
    // The cap holds whatever the jitter draws: 60 s, never 63 or 75.
    expect(backoffMs(defaultRetryPolicy, 20, () => 1)).toBe(defaultRetryPolicy.maxDelayMs);
    expect(backoffMs(defaultRetryPolicy, 7, () => 1)).toBe(defaultRetryPolicy.maxDelayMs);
    expect(backoffMs(defaultRetryPolicy, 20, () => 0)).toBe(defaultRetryPolicy.maxDelayMs * 0.75);
  });
});

describe('progress', () => {
  it('gives records of the total, the rate and the time left', () => {
    expect(progressLine('DC1', { received: 1000, total: 4000 }, 500)).toBe('DC1: 1,000 of 4,000 records (25%), 2,000/s, about 2 s left');
    expect(progressLine('DC1', { received: 300 }, 1000)).toBe('DC1: 300 records, 300/s');
  });

  it('rewrites one line on a terminal, and writes plain lines no more often than asked elsewhere', () => {
    let clock = 0;
    const terminal: string[] = [];
    const tty = createProgress({ isTTY: true, write: (text: string) => terminal.push(text) }, 'LIT', { now: () => clock });
    clock = 1000;
    tty.update({ received: 10, total: 20 });
    tty.update({ received: 20, total: 20 });
    tty.note('a retry');
    tty.done();
    expect(terminal).toEqual([
      '\rLIT: 10 of 20 records (50%), 10/s, about 1 s left\x1b[K',
      '\rLIT: 20 of 20 records (100%), 20/s\x1b[K',
      '\n',
      'a retry\n',
    ]);

    const log: string[] = [];
    const plain = createProgress({ write: (text: string) => log.push(text) }, 'LIT', { now: () => clock, logEveryMs: 5000 });
    for (clock = 1000; clock <= 12_000; clock += 1000) plain.update({ received: clock / 100 });
    expect(log).toHaveLength(3);
    expect(log.every((line) => line.endsWith('\n') && !line.includes('\r'))).toBe(true);
  });
});

describe('the command line', () => {
  it('names the product and the operator in the User-Agent, and refuses a contact that could break the header', () => {
    expect(userAgentFor('ops@library.example')).toMatch(/^records-explorer\/\d+\.\d+\.\d+ \(harvest; \+ops@library\.example\)$/);
    expect(userAgentFor('https://library.example/mirror')).toMatch(/\(harvest; \+https:\/\/library\.example\/mirror\)$/);
    expect(userAgentFor(undefined)).toMatch(/^records-explorer\/[\d.]+ \(harvest\)$/);
    expect(() => userAgentFor('ops@example.org\r\nX-Evil: 1')).toThrow(/--contact/);
    expect(() => userAgentFor('javascript:alert(1)')).toThrow(/--contact/);
  });

  it('takes the base URL with or without a trailing slash or /records, http(s) only', () => {
    expect(normalizeBaseUrl('https://host.example/api/dc/v1/')).toBe('https://host.example/api/dc/v1');
    expect(normalizeBaseUrl('https://host.example/api/dc/v1/records')).toBe('https://host.example/api/dc/v1');
    expect(() => normalizeBaseUrl('ftp://host.example/api')).toThrow(/http or https/);
    expect(() => normalizeBaseUrl('https://host.example/api?rows=5')).toThrow(/no query/);
    expect(() => normalizeBaseUrl('https://user:secret@host.example/api')).toThrow(/--token-file/);
    expect(() => normalizeBaseUrl(undefined)).toThrow(/needs the BASE_URL/);
  });

  it('accepts --store sqlite:PATH as --db PATH, and a postgres:// store as the PostgreSQL target', () => {
    const flags = (entries: [string, string][]) => new Map(entries);
    const dir = mkdtempSync(join(tmpdir(), 'records-store-flag-'));
    expect(storeTarget(flags([['store', `sqlite:${dir}/new/a.db`]]), '/unused')).toEqual({ dbPath: `${dir}/new/a.db` });
    rmSync(dir, { recursive: true, force: true });
    expect(storeTarget(flags([['store', 'postgresql://db/records']]), '/unused')).toEqual({
      dbPath: '',
      storeUrl: 'postgresql://db/records',
    });
    expect(() => storeTarget(flags([['store', 'mysql://db']]), '/unused')).toThrow(/--store takes sqlite:PATH or a postgres:\/\/ URL/);
    expect(() =>
      storeTarget(
        flags([
          ['store', 'sqlite:/tmp/x.db'],
          ['db', '/tmp/y.db'],
        ]),
        '/unused',
      ),
    ).toThrow(/either --db or --store/);
  });
});

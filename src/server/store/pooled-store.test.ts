import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../deployments/registry';
import { generateRecords } from '../corpus/generate';
import { openPooledStore } from './pooled-store';
import { openStoreWriter } from './sqlite';
import type { RecordStore } from './types';

const lit = deploymentByKey('LIT')!;
const workers: Worker[] = [];
let dir: string;
let store: RecordStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pooled-store-'));
  const path = join(dir, 'records.db');
  const writer = openStoreWriter(path);
  writer.put('LIT', generateRecords(lit, 50, { seed: 3 }));
  writer.close();
  store = openPooledStore(path, { size: 2, onWorker: (worker) => workers.push(worker) });
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the worker-thread store', () => {
  it('answers from its workers', async () => {
    expect(await store.count('LIT')).toBe(50);
    expect((await store.get('LIT', '50000001'))?.repo_id).toBe('50000001');
  });

  it('fails only the requests a dying worker held, and keeps answering with a replacement', async () => {
    await store.count('LIT'); // both workers are up
    const started = workers.length;
    // Requests spread over both workers; then both die before they can answer.
    const inFlight = Promise.allSettled([store.get('LIT', '50000002'), store.get('LIT', '50000003')]);
    await Promise.all(workers.slice(0, started).map((worker) => worker.terminate()));
    const outcomes = await inFlight;
    for (const outcome of outcomes) {
      // A request either finished before its worker stopped or failed with a clear error.
      if (outcome.status === 'rejected') expect(String(outcome.reason)).toMatch(/store worker stopped/);
    }
    expect(workers.length).toBe(started + 2);
    expect((await store.get('LIT', '50000004'))?.repo_id).toBe('50000004');
    expect(await store.count('LIT')).toBe(50);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../../../deployments/registry';
import { generateRecords } from '../../corpus/generate';
import { openStoreWriter } from './sqlite-writer';

/**
 * A served generation holds a file's write lock for an instant while it moves its snapshot
 * off the log (snapshot-move.ts); a write that meets it waits its turn rather than failing.
 */

const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-writer-lock-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Another thread holds the write lock of `path` until told to let go, as a moving generation does. */
const lockHolder = `
const Database = require('better-sqlite3');
const { parentPort, workerData } = require('node:worker_threads');
const db = new Database(workerData, { fileMustExist: true });
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage('locked');
// Let go shortly after, whatever the thread that asked is doing (it may be blocked in SQLite).
setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('released'); }, 300);
`;

describe('a write into a served file', () => {
  it('waits for a lock held for an instant instead of failing', async () => {
    const path = join(dir, 'locked.db');
    const writer = openStoreWriter(path);
    try {
      writer.put('LIT', generateRecords(lit, 50, { seed: 1, startId: 1 }));
      const holder = new Worker(lockHolder, { eval: true, workerData: path });
      const released = new Promise((resolve) => holder.on('message', (message) => message === 'released' && resolve(message)));
      await new Promise((resolve) => holder.once('message', resolve));
      expect(writer.put('LIT', generateRecords(lit, 20, { seed: 2, startId: 100 }))).toBe(20);
      await released;
      await holder.terminate();
      expect(writer.count('LIT')).toBe(70);
    } finally {
      writer.close();
    }
  });
});

import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { generateRecords } from './corpus/generate';
import { harvest } from './harvest/harvest';
import { startProxy, type TestProxy } from './harvest/source.test-support';
import { openSqliteRecordWriter } from './store/sqlite/record-writer';
import { tablesOf } from './store/sqlite/schema';

/**
 * Records just under the size limit, sent to a mirror: the store grows by no more than the
 * documented factor of what the source sent, and a SIGTERM while such a batch is being
 * written ends the process at once, leaving the store as it was.
 */

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));
const dc1 = deploymentByKey('DC1')!;
const dir = mkdtempSync(join(tmpdir(), 'records-amplification-'));
let source: TestProxy;
let mirrors = 0;
/** The most a SQLite store grows per byte a source sends (docs/decisions.md, "Amplification"). */
const maxGrowthFactor = 6;
const running = new Set<ReturnType<typeof spawn>>();

beforeAll(async () => {
  source = await startProxy('http://127.0.0.1:9');
});
afterEach(() => source.reset());
afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A mirror that already holds some records, as one being kept up to date does. */
async function seededMirror(): Promise<string> {
  const path = join(dir, `mirror-${++mirrors}.db`);
  const writer = await openSqliteRecordWriter(path);
  await writer.put('DC1', generateRecords(dc1, 200, { seed: 7, startId: 1 }));
  await writer.close();
  return path;
}

const bytesOf = (path: string) => [path, `${path}-wal`].reduce((sum, file) => sum + (existsSync(file) ? statSync(file).size : 0), 0);

/** Deterministic letters, so every long word is a different one. */
function letters(seed: number) {
  let state = seed;
  return (length: number) => {
    let word = '';
    for (let i = 0; i < length; i++) {
      state = (state * 1103515245 + 12345) & 0x7fffffff;
      word += String.fromCharCode(97 + (state % 26));
    }
    return word;
  };
}

/** Values joined with `separator` up to about `chars` characters. */
function filled(chars: number, separator: string, next: () => string): string[] {
  const values: string[] = [];
  for (let length = 0; length < chars;) {
    const value = next();
    values.push(value);
    length += value.length + separator.length;
  }
  return values;
}

/**
 * Records of about `chars` characters in the shapes that cost a store the most per byte
 * sent: "words" of thousands of letters, author names of hundreds, and short words.
 */
function nearLimitRecords(count: number, chars: number, firstId: number) {
  const word = letters(firstId);
  return Array.from({ length: count }, (_, i) => {
    const id = firstId + i;
    const record: Record<string, unknown> = { osti_id: String(id), title: `Large record ${id}`, entry_date: '2024-02-01T00:00:00Z' };
    const body = chars - 200;
    if (i % 3 === 0) record.description = filled(body, ' ', () => word(2000)).join(' ');
    if (i % 3 === 1) record.authors = filled(body, '", "', () => `${word(40)}, ${filled(950, ' ', () => word(40)).join(' ')}`);
    if (i % 3 === 2) record.description = filled(body, ' ', () => word(1 + (id % 5))).join(' ');
    return record;
  });
}

describe('records just under the limit', () => {
  it(`grow the store by at most ${maxGrowthFactor} times what the source sent`, async () => {
    const mirror = await seededMirror();
    const maxRecordChars = 256 * 1024;
    const page = JSON.stringify(nearLimitRecords(15, maxRecordChars - 4096, 900_000));
    source.rule = async (context) => {
      context.res.writeHead(200, { 'content-type': 'application/json' });
      context.res.end(page);
    };
    const before = bytesOf(mirror);
    const report = await harvest({
      deployment: dc1,
      baseUrl: `${source.url}${dc1.basePath}`,
      dbPath: mirror,
      userAgent: 'records-explorer-test',
      maxRecordChars,
    });
    expect(report).toMatchObject({ complete: true, added: 15 });
    const grown = bytesOf(mirror) - before;
    expect(grown / Buffer.byteLength(page)).toBeLessThanOrEqual(maxGrowthFactor);
  });
});

describe('SIGTERM during a batch write of large records', () => {
  it('ends the harvest within about a second, the store as it was', async () => {
    const mirror = await seededMirror();
    const count = (path: string) => {
      const db = new Database(path, { readonly: true });
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        return db
          .prepare(`SELECT count(*) FROM ${tablesOf(dc1).records}`)
          .pluck()
          .get() as number;
      } finally {
        db.close();
      }
    };
    const seeded = count(mirror);
    // Ordinary words, so the write is long (seconds) whatever the index keeps of long ones.
    const vocabulary = ['plasma', 'the', 'of', 'data', 'reactor', 'neutron', 'flux', 'and', 'a', 'model', 'measured', 'beam'];
    let n = 0;
    const page = JSON.stringify(
      Array.from({ length: 12 }, (_, i) => ({
        osti_id: String(800_000 + i),
        title: `Long record ${i}`,
        entry_date: '2024-03-01T00:00:00Z',
        description: filled(900_000, ' ', () => `${vocabulary[n++ % vocabulary.length]!}${n % 7}`).join(' '),
      })),
    );
    source.rule = async (context) => {
      context.res.writeHead(200, { 'content-type': 'application/json' });
      context.res.end(page);
    };
    const child = spawn(process.execPath, [bin, 'harvest', 'DC1', `${source.url}${dc1.basePath}`, '--db', mirror], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    running.add(child);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
    );
    await new Promise<void>((resolve) => {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/writing 12 records/.test(stderr)) resolve();
      });
    });
    const signalled = performance.now();
    child.kill('SIGTERM');
    const { code, signal, at } = await exited;
    // Writing the batch whole takes several seconds; the process is gone well before.
    expect(at - signalled).toBeLessThan(1500);
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    expect(count(mirror)).toBe(seeded);
  });
});

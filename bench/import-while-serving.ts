import { spawn } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { tmpDir } from './corpus';
import { repoRoot, startRecordsServer } from './processes';
import { basePath } from './queries';

/**
 * Issue 12's write figures: `records generate LIT 1000` into the benchmark store while a
 * `records serve` on the same file answers a list query over and over, timing the write
 * and the moment the server's answer first counts the new records. The write goes into a
 * copy, so the benchmark database stays the corpus its fingerprint names.
 */

export interface ImportResult {
  readonly records: number;
  readonly storeRecords: number;
  /** From starting the command until it exited (its transaction committed). */
  readonly importSeconds: number;
  /** From starting the command until the running server's total first included the new records. */
  readonly foundSeconds: number;
  /** Requests answered while waiting, and how many were not 200 or showed a total neither before nor after. */
  readonly polls: number;
  readonly badAnswers: number;
  /**
   * The writes of as many records again that followed, one after another, each timed: a
   * write's cost depends on the tails the writes before it left (postings-tails.ts), so the
   * first write into a freshly built store is its cheapest.
   */
  readonly laterWriteSeconds?: readonly number[];
}

const sleep = (ms: number) => new Promise((resolvePromise) => setTimeout(resolvePromise, ms));

function run(args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, ['bin/records.js', ...args], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => resolvePromise({ code, output }));
  });
}

export async function measureImport(db: string, records: number, writes: number, log: (line: string) => void): Promise<ImportResult> {
  const copy = resolve(tmpDir, 'import-while-serving.db');
  const removeCopy = () => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(copy + suffix, { force: true });
  };
  removeCopy();
  copyFileSync(db, copy);
  const server = await startRecordsServer(copy);
  try {
    const listPath = `${server.url}${basePath}/records?rows=1`;
    const totalNow = async (): Promise<number | undefined> => {
      const response = await fetch(listPath);
      await response.arrayBuffer();
      return response.ok ? Number(response.headers.get('x-total-count')) : undefined;
    };
    const before = (await totalNow())!;
    const expected = before + records;
    log(
      `import: generating ${records} records into a copy of the ${before.toLocaleString('en')}-record store while ${server.url} serves it ...`,
    );
    const started = performance.now();
    let importSeconds = Number.NaN;
    let finished = false;
    const write = async () => {
      const result = await run(['generate', 'LIT', String(records), '--db', copy]);
      if (result.code !== 0) throw new Error(`records generate failed (${result.code}):\n${result.output}`);
    };
    const writing = write().finally(() => {
      importSeconds = (performance.now() - started) / 1000;
      finished = true;
    });
    let polls = 0;
    let badAnswers = 0;
    let foundSeconds = Number.NaN;
    // Gives up a generous while after the write committed: a server that never sees it fails the figure.
    let deadline = Number.POSITIVE_INFINITY;
    while (performance.now() < deadline) {
      const total = await totalNow().catch(() => undefined);
      polls++;
      if (total === expected) {
        foundSeconds = (performance.now() - started) / 1000;
        break;
      }
      if (total !== before) badAnswers++;
      if (finished && deadline === Number.POSITIVE_INFINITY) deadline = performance.now() + 60_000;
      await sleep(50);
    }
    await writing;
    const laterWriteSeconds: number[] = [];
    for (let n = 1; n < writes; n++) {
      const start = performance.now();
      await write();
      laterWriteSeconds.push(Math.round((performance.now() - start) / 100) / 10);
      log(`import: write ${n + 1} of ${writes}: ${laterWriteSeconds[n - 1]} s`);
    }
    return { records, storeRecords: before, importSeconds, foundSeconds, polls, badAnswers, laterWriteSeconds };
  } finally {
    await server.stop();
    removeCopy();
  }
}

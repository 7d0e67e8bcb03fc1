import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { repoRoot } from './processes';

export interface Machine {
  readonly cpu: string;
  readonly cores: number;
  readonly memoryBytes: number;
  readonly node: string;
  readonly kernel: string;
  readonly sqlite: string;
  readonly betterSqlite3: string;
}

export function machine(): Machine {
  const db = new Database(':memory:');
  const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  db.close();
  const { version } = JSON.parse(
    execFileSync(process.execPath, ['-p', 'JSON.stringify(require("better-sqlite3/package.json"))'], { cwd: repoRoot, encoding: 'utf8' }),
  ) as { version: string };
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryBytes: totalmem(),
    node: process.version,
    kernel: release(),
    sqlite,
    betterSqlite3: version,
  };
}

/** The 1-minute load average: other work on the machine shows up in the numbers, so it is recorded. */
export const load1 = () => Math.round(loadavg()[0]! * 100) / 100;

/** The commit checked out at `root` (this checkout unless given), and the server files changed since. */
export function gitCommit(root = repoRoot): { commit: string; dirty: string[] } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    return { commit, dirty };
  } catch {
    return { commit: 'unknown', dirty: [] };
  }
}

function cpuTimes(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  const total = values.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** Share of all cores busy over `ms` (0–1), measured while the benchmark itself is idle. */
export async function cpuBusy(ms = 500): Promise<number> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuTimes();
  const total = after.total - before.total;
  return total > 0 ? Math.round(((after.busy - before.busy) / total) * 100) / 100 : 0;
}

/**
 * Other work on this shared machine skews latency. Before each measurement, waits (up to
 * `maxSeconds`) for the cores to be mostly idle, and returns the busy share it settled on,
 * which goes into the results beside the numbers it may have affected.
 */
export async function waitForQuiet(maxSeconds: number, threshold = 0.25): Promise<number> {
  const deadline = performance.now() + maxSeconds * 1000;
  let busy = await cpuBusy();
  while (busy > threshold && performance.now() < deadline) busy = await cpuBusy(1000);
  return busy;
}

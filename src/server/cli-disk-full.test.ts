import Database from 'better-sqlite3';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentByKey } from '../deployments/registry';
import { generateRecords } from './corpus/generate';
import { openStoreWriter } from './store/sqlite/sqlite';

/**
 * Issue 11: the disk filling up at any point of an import or generate is one sentence on
 * stderr and exit code 1; the database is as it was and nothing is left beside it. The disk
 * is a 4 MB tmpfs, which needs root; without it the tests say why they did not run.
 */

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));
const lit = deploymentByKey('LIT')!;
const dir = mkdtempSync(join(tmpdir(), 'records-disk-full-'));
let mounted = false;
let reason = '';

beforeAll(() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    reason = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message).trim();
    console.log(`Skipping the disk-full tests: cannot mount a small tmpfs (${reason}).`);
  }
});

afterAll(() => {
  if (mounted) execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

function stateOf(path: string): unknown {
  const db = new Database(path, { readonly: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      revision: db.prepare(`SELECT value FROM meta WHERE key = 'revision'`).pluck().get(),
      records: db.prepare(`SELECT repo_id, doc FROM lit_records ORDER BY id`).all(),
    };
  } finally {
    db.close();
  }
}

const sideFiles = (name: string) => readdirSync(dir).filter((file) => file.startsWith(`${name}.`) || file.startsWith(`${name}-`));

function expectOneSentence(stderr: string): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^records: Cannot write to the database .* \(the disk is full\); it is unchanged\.$/);
}

describe('a full disk', () => {
  it('while generating into an existing database: one sentence, exit 1, the database as it was, no log or journal left', async (context) => {
    if (!mounted) return context.skip();
    const path = join(dir, 'existing.db');
    const writer = openStoreWriter(path);
    // Small enough that its log is copied into it on close, with room to spare.
    writer.put('LIT', generateRecords(lit, 50, { seed: 3 }));
    writer.close();
    const before = stateOf(path);

    const result = await run(['generate', 'LIT', '3000', '--db', path]);
    expect(result.code, result.stdout).toBe(1);
    expectOneSentence(result.stderr);
    // (Checked before reading: a read-only connection keeps its own log files open.)
    expect(sideFiles('existing.db')).toEqual([]);
    expect(stateOf(path)).toEqual(before);

    // A write that fits still goes in afterwards.
    const small = await run(['generate', 'LIT', '5', '--db', path]);
    expect(small.code, small.stderr).toBe(0);
    expect((stateOf(path) as { records: unknown[] }).records).toHaveLength(55);
    rmSync(path);
  }, 120_000);

  it('while generating a new database: one sentence, exit 1, no database and no side copy', async (context) => {
    if (!mounted) return context.skip();
    const result = await run(['generate', 'LIT', '3000', '--db', join(dir, 'new.db')]);
    expect(result.code, result.stdout).toBe(1);
    expectOneSentence(result.stderr);
    expect(readdirSync(dir).filter((file) => file.startsWith('new.db'))).toEqual([]);
  }, 120_000);
});

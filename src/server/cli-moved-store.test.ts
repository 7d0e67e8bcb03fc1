import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * "Move a finished file over the served path" with a stale log present: a writer killed
 * with SIGKILL leaves committed frames in `X.db-wal`, then another database is moved over
 * `X.db`. `records serve` and `records import` use the new file with its own log only: the
 * served counts are the new file's, the import adds to it and leaves it whole, and the old
 * log is set aside, never replayed. The killed writer's own log, with no move, is kept.
 */

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));
const killedWriter = fileURLToPath(new URL('./store/sqlite/killed-writer.test-support.ts', import.meta.url));
const plasmaLab = fileURLToPath(new URL('../../data/real/dc-v1-plasma-lab-209.json', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'records-moved-store-'));
const children = new Set<ChildProcess>();

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function start(args: readonly string[], script = bin, nodeArgs: readonly string[] = []) {
  const env = { ...process.env };
  delete env.PORT;
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.add(child);
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const done = new Promise<{ code: number | null; output: string }>((resolve) => child.on('exit', (code) => resolve({ code, output })));
  /** Resolves when the output has said `text`. */
  const said = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => output.includes(text) && (listeners.delete(check), resolve());
      listeners.add(check);
      check();
      void done.then(() => reject(new Error(`exited before saying '${text}':\n${output}`)));
    });
  return { child, done, said, output: () => output };
}

async function run(args: readonly string[]) {
  const { code, output } = await start(args).done;
  expect(code, output).toBe(0);
  return output;
}

/** A store with 25 LIT records, last written in place (so in WAL mode), and a writer killed after committing `added` more. */
async function killedWhileWriting(db: string, added: number) {
  await run(['generate', 'LIT', '20', '--db', db]);
  await run(['generate', 'LIT', '5', '--db', db]);
  const writer = start([db, String(added), '900'], killedWriter, ['--import', 'tsx']);
  await writer.said('committed');
  writer.child.kill('SIGKILL');
  await writer.done;
  expect(statSync(`${db}-wal`).size).toBeGreaterThan(0);
}

const importedCount = (output: string) => Number(/Imported (\d+) DC1 records/.exec(output)?.[1]);

function counts(db: string) {
  const reader = new Database(db, { readonly: true });
  try {
    const count = (table: string) => (reader.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { integrity: reader.pragma('integrity_check', { simple: true }), lit: count('lit_records'), dc1: count('dc1_records') };
  } finally {
    reader.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

describe('a database moved over a path with a killed writer’s log beside it', () => {
  it('is served with its own records only, and an import while serving adds to it and leaves it whole', async () => {
    const db = join(dir, 'served.db');
    await killedWhileWriting(db, 30);
    const finished = join(dir, 'finished.db');
    const imported = importedCount(await run(['import', 'DC1', plasmaLab, '--db', finished]));
    renameSync(finished, db);

    const port = await freePort();
    const server = start(['serve', '--db', db, '--port', String(port), '--host', '127.0.0.1']);
    await server.said('Records Explorer is serving');
    const total = async (basePath: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${basePath}/records?rows=1`);
      await response.arrayBuffer();
      expect(response.status).toBe(200);
      return Number(response.headers.get('x-total-count'));
    };
    expect(await total('/api/dc/v1')).toBe(imported);
    expect(await total('/api/lit/v1')).toBe(0);
    expect(server.output()).toContain('set aside');
    expect(readdirSync(dir).some((name) => name.startsWith('served.db-wal.set-aside-'))).toBe(true);

    await run(['generate', 'DC1', '3', '--db', db]);
    expect(counts(db)).toEqual({ integrity: 'ok', lit: 0, dc1: imported + 3 });
    // The server follows the committed import (it looks at the file every second).
    while ((await total('/api/dc/v1')) !== imported + 3) await new Promise((resolve) => setTimeout(resolve, 100));
    server.child.kill('SIGTERM');
    expect((await server.done).code).toBe(0);
  }, 120_000);

  it('replaces the file a running server follows: the new file is served with its own log only', async () => {
    const db = join(dir, 'followed.db');
    await run(['generate', 'LIT', '20', '--db', db]);
    const port = await freePort();
    const server = start(['serve', '--db', db, '--port', String(port), '--host', '127.0.0.1']);
    await server.said('Records Explorer is serving');
    const total = async (basePath: string) =>
      Number((await fetch(`http://127.0.0.1:${port}${basePath}/records?rows=1`)).headers.get('x-total-count'));
    const writer = start([db, '30', '900'], killedWriter, ['--import', 'tsx']);
    await writer.said('committed');
    writer.child.kill('SIGKILL');
    await writer.done;
    while ((await total('/api/lit/v1')) !== 50) await new Promise((resolve) => setTimeout(resolve, 100));
    // The killed writer's log may still be beside the file here (set aside when the new file
    // comes) or already emptied by the server's checkpoint: either way none of it may reach the new file.

    const finished = join(dir, 'replacement.db');
    const imported = importedCount(await run(['import', 'DC1', plasmaLab, '--db', finished]));
    renameSync(finished, db);
    while ((await total('/api/dc/v1')) !== imported) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await total('/api/lit/v1')).toBe(0);
    expect(counts(db)).toEqual({ integrity: 'ok', lit: 0, dc1: imported });
    server.child.kill('SIGTERM');
    expect((await server.done).code).toBe(0);
  }, 120_000);

  it('is imported into whole by a `records import` run first', async () => {
    const db = join(dir, 'imported.db');
    await killedWhileWriting(db, 30);
    const finished = join(dir, 'backup.db');
    await run(['generate', 'LIT', '12', '--db', finished]);
    renameSync(finished, db);
    const output = await run(['import', 'DC1', plasmaLab, '--db', db]);
    expect(output).toContain('set aside');
    expect(counts(db)).toEqual({ integrity: 'ok', lit: 12, dc1: importedCount(output) });
  }, 120_000);

  it('keeps the killed writer’s committed records when nothing was moved', async () => {
    const db = join(dir, 'kept.db');
    await killedWhileWriting(db, 30);
    const output = await run(['import', 'DC1', plasmaLab, '--db', db]);
    expect(output).not.toContain('set aside');
    expect(counts(db)).toEqual({ integrity: 'ok', lit: 55, dc1: importedCount(output) });
  }, 120_000);
});

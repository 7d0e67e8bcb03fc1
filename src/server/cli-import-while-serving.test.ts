import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * A mirror's daily update: `records generate` writes 1,000 records into the file a running
 * `records serve` is answering from. No request fails during the write, every count is the
 * records before or all of them (never a part), the new state once seen stays, and the new
 * records and their words are found afterwards without a restart.
 */

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'records-import-serving-'));
const dbPath = join(dir, 'records.db');
const before = 3000;
const added = 1000;
const children = new Set<ChildProcess>();

function records(args: readonly string[]): { child: ChildProcess; done: Promise<{ code: number | null; output: string }> } {
  const env = { ...process.env };
  delete env.PORT;
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, done: new Promise((resolve) => child.on('exit', (code) => resolve({ code, output }))) };
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

let origin = '';

beforeAll(async () => {
  expect((await records(['generate', 'LIT', String(before), '--db', dbPath]).done).code).toBe(0);
  const port = await freePort();
  records(['serve', '--db', dbPath, '--port', String(port), '--host', '127.0.0.1']);
  origin = `http://127.0.0.1:${port}/api/lit/v1`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${origin}/records?rows=1`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error('records serve did not start');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 120_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function total(query: string): Promise<number> {
  const response = await fetch(`${origin}/records?rows=1&${query}`);
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  return Number(response.headers.get('x-total-count'));
}

async function status(id: number): Promise<number> {
  const response = await fetch(`${origin}/records/${id}`);
  await response.arrayBuffer();
  return response.status;
}

describe('records serve while records generate writes 1,000 records into its file', () => {
  it('answers every request with a whole state, then finds the new records without a restart', async () => {
    // `generate` numbers new records after the ones held, so the last new one is known.
    const lastNew = 50_000_001 + before + added - 1;
    const wordTotal = await total('q=data');
    expect(await total('')).toBe(before);
    expect(await status(lastNew)).toBe(404);

    const write = records(['generate', 'LIT', String(added), '--db', dbPath, '--seed', '2']);
    let finished = false;
    void write.done.then(() => (finished = true));
    let afterWords = 0;
    let newSeen = 0;
    // Polls through the write and a while after it, until the new state has been answered a few times.
    while (!finished || newSeen < 5) {
      const all = await total('');
      const recordStatus = await status(lastNew);
      const words = await total('q=data');
      // A count is one whole state, and once the new one has been answered the old never returns.
      expect(newSeen > 0 ? [before + added] : [before, before + added]).toContain(all);
      expect([200, 404]).toContain(recordStatus);
      if (all === before + added) {
        newSeen++;
        afterWords = words;
      }
      if (finished && newSeen === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const { code, output } = await write.done;
    expect(code, output).toBe(0);
    expect(await total('')).toBe(before + added);
    expect(await status(lastNew)).toBe(200);
    // The new records' words are searchable: a word in nearly every description gains about as many.
    expect(afterWords).toBeGreaterThan(wordTotal + added * 0.8);
  }, 180_000);
});

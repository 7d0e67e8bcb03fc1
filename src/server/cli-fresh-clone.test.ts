import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';

/**
 * What a new user gets from `git clone` and `npm start`: a clone has no ../shared beside it,
 * so the real records must come from the project itself. The committed tree is cloned into
 * an empty folder, `records start` creates its database there and serves it, and a shipped
 * real record answers.
 */

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const work = mkdtempSync(join(tmpdir(), 'records-fresh-clone-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

it('a fresh clone without ../shared starts with the shipped real records', async () => {
  const clone = join(work, 'clone');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, clone]);
  expect(existsSync(join(work, 'shared'))).toBe(false);
  expect(existsSync(join(clone, 'data/real/dc-v1-plasma-lab-209.json'))).toBe(true);
  // Installing dependencies is `npm ci`'s job, tested by CI itself; the clone borrows them.
  symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'), 'dir');

  const child = spawn(process.execPath, [join(clone, 'bin/records.js'), 'start', '--port', '0'], {
    cwd: clone,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let output = '';
    const url = await new Promise<string>((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error(`records start did not serve within 3 minutes:\n${output}`)), 180_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+)\/api\/enr\/v1\/records/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolveUrl(match[1]!);
        }
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => reject(new Error(`records start exited ${code}:\n${output}`)));
    });
    expect(output).toMatch(/imported \d+ real DC1 records/);
    expect(output).not.toMatch(/predates the real records/);
    const response = await fetch(`${url}/api/dc/v1/records/1562055`);
    expect(response.status).toBe(200);
    const [record] = (await response.json()) as { title: string }[];
    expect(record!.title).toBe('Suppression of Alfv&eacute;n modes on NSTX-U with outboard beam injection');
    // The README's example record is a shipped one too.
    expect((await fetch(`${url}/api/dc/v1/records/2368548`)).status).toBe(200);
  } finally {
    child.kill('SIGTERM');
  }
}, 240_000);

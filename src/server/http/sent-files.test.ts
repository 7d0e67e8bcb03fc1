import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { SentFiles } from './sent-files';

const dir = mkdtempSync(join(tmpdir(), 'records-sent-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a file and returns what the file server knows of it. */
function file(name: string, content: string, mtime = 1_700_000_000) {
  const path = join(dir, name);
  writeFileSync(path, content);
  utimesSync(path, mtime, mtime);
  const stat = statSync(path);
  return { path, size: stat.size, mtime: stat.mtimeMs };
}

describe('the app’s files as sent', () => {
  test('read, hashed and compressed once: the same bytes for every request until the file changes', async () => {
    const files = new SentFiles();
    const script = 'export const answer = 42;\n'.repeat(200);
    const first = await files.read(file('app.js', script));
    expect(first.content.toString()).toBe(script);
    expect(brotliDecompressSync(first.encoded('br')).toString()).toBe(script);
    expect(gunzipSync(first.encoded('gzip')).toString()).toBe(script);

    const again = await files.read(file('app.js', script));
    expect(again.content).toBe(first.content);
    expect(again.encoded('br')).toBe(first.encoded('br'));

    const rebuilt = script.replace('42', '43');
    const changed = await files.read(file('app.js', rebuilt, 1_700_000_100));
    expect(changed.content.toString()).toBe(rebuilt);
    expect(changed.etag).not.toBe(first.etag);
    expect(brotliDecompressSync(changed.encoded('br')).toString()).toBe(rebuilt);
  });

  test('what is kept stays within its budget, the longest unasked let go first; a file too large is read each time', async () => {
    const files = new SentFiles(400);
    const a = file('a.js', 'a'.repeat(100));
    const b = file('b.js', 'b'.repeat(100));
    const c = file('c.js', 'c'.repeat(100));
    const keptA = (await files.read(a)).content;
    const keptB = (await files.read(b)).content;
    expect((await files.read(a)).content).toBe(keptA);
    await files.read(c);
    // Four hundred bytes hold four of these files, not a fifth: b, asked for longest ago, goes.
    await files.read(file('d.js', 'd'.repeat(100)));
    await files.read(file('e.js', 'e'.repeat(50)));
    expect((await files.read(a)).content).toBe(keptA);
    expect((await files.read(b)).content).not.toBe(keptB);

    const large = file('large.js', 'x'.repeat(101));
    const once = (await files.read(large)).content;
    expect(once.length).toBe(101);
    expect((await files.read(large)).content).not.toBe(once);
  });
});

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packChunks, packChunksInTurns } from '../render/body-bytes';
import { send, type Body } from './respond';

/** Large answers go out in chunks: what a client receives is the same as the whole would be. */

// Multi-byte characters on every part: a chunk boundary must never split one.
const parts = Array.from({ length: 3000 }, (_, i) => `<record><title>Schrödinger ${i} — ∑ 😀 &amp;</title></record>\n`);
const whole = parts.join('');
let server: Server;
let origin: string;
let body: Body['body'] = '';

beforeAll(async () => {
  server = createServer((req, res) =>
    send(req, res, { status: 200, contentType: 'application/xml; charset=utf-8', body, cacheControl: 'public, max-age=60' }, 'salt'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function fetchWith(value: Body['body'], headers: Record<string, string> = {}) {
  body = value;
  const response = await fetch(origin, { headers });
  return { response, text: await response.text() };
}

describe('packChunks', () => {
  it('makes buffers of about 64 KB whose bytes are the text, every character whole', () => {
    const chunks = packChunks(parts);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.length).toBeLessThan(80 * 1024);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(whole);
    for (const chunk of chunks) expect(chunk.toString('utf8')).not.toContain('\uFFFD');
    expect(packChunks([])).toEqual([Buffer.alloc(0)]);
  });
});

describe('packChunksInTurns', () => {
  it('renders a bulk page a chunk per turn: no part past the first chunk is read before the turn it waits for', async () => {
    let read = 0;
    function* counted() {
      for (const part of parts) {
        read += 1;
        yield part;
      }
    }
    const turns: (() => void)[] = [];
    const packing = packChunksInTurns(counted(), () => new Promise<void>((resolve) => turns.push(resolve)));
    await Promise.resolve();
    const firstChunkParts = read;
    expect(firstChunkParts).toBeLessThan(parts.length / 2);
    expect(turns).toHaveLength(1);
    // Until its turn comes, the page waits: nothing more is rendered.
    await new Promise((resolve) => setImmediate(resolve));
    expect(read).toBe(firstChunkParts);
    while (turns.length) {
      turns.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const chunks = await packing;
    expect(read).toBe(parts.length);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(whole);
    expect(chunks).toEqual(packChunks(parts));
  });
});

describe('send with a body in chunks', () => {
  it('sends the same bytes, length and ETag as the whole body would, and compresses it whole', async () => {
    const chunked = await fetchWith(packChunks(parts), { 'Accept-Encoding': 'identity' });
    const single = await fetchWith(whole, { 'Accept-Encoding': 'identity' });
    expect(chunked.text).toBe(whole);
    expect(chunked.response.headers.get('content-length')).toBe(String(Buffer.byteLength(whole)));
    expect(chunked.response.headers.get('etag')).toBe(single.response.headers.get('etag'));
    const gzipped = await fetchWith(packChunks(parts), { 'Accept-Encoding': 'gzip' });
    expect(gzipped.response.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.text).toBe(whole);
  });

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await fetchWith(packChunks(parts));
    const again = await fetchWith(packChunks(parts), { 'If-None-Match': first.response.headers.get('etag')! });
    expect(again.response.status).toBe(304);
    expect(again.text).toBe('');
  });
});

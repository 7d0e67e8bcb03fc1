import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Writing responses: content encoding, validators and the headers every response carries. */

const compressible = /^(application\/(json|xml|x-bibtex|javascript)|text\/|image\/svg)/;

export type ContentEncoding = 'br' | 'gzip';

/** The encoding a client's Accept-Encoding asks for, of those the server writes. */
export function chooseEncoding(header: string | undefined): ContentEncoding | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const quality = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (quality('br') > 0) return 'br';
  if (quality('gzip') > 0) return 'gzip';
  return undefined;
}

/** Bodies smaller than this are sent as they are. */
const minCompressedBytes = 1024;

/** A body compressed as every answer is (`send`), wherever that is done. */
export function compress(whole: Buffer, encoding: ContentEncoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(whole, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipSync(whole, { level: 6 });
}

/** Whether `send` compresses a body of this type and size for a client that accepts it. */
export const worthCompressing = (contentType: string, bytes: number) => bytes >= minCompressedBytes && compressible.test(contentType);

export interface Body {
  readonly status: number;
  readonly contentType: string;
  /** Whole, or in chunks (packChunks). */
  readonly body: Buffer | string | readonly Buffer[];
  readonly headers?: Record<string, string>;
  /** Cacheable responses get an ETag and may be answered 304. */
  readonly cacheControl?: string;
  /** The body's ETag when it was computed where the body was rendered (etagOf, the same salt). */
  readonly etag?: string;
  /** The body already compressed where it was rendered; used when the client's Accept-Encoding chooses the same. */
  readonly encoded?: { readonly encoding: ContentEncoding; readonly body: Buffer };
}

export function etagOf(chunks: readonly Buffer[], salt: string): string {
  const hash = createHash('sha1').update(salt);
  for (const chunk of chunks) hash.update(chunk);
  return `W/"${hash.digest('base64url').slice(0, 27)}"`;
}

const chunkBytes = 64 * 1024;

/**
 * A body made of many parts (a large page, a record at a time) as buffers of about 64 KB.
 * Never one string of the whole: a string of megabytes lives in V8's old generation, and
 * pages rendered back to back grew the heap by hundreds of megabytes before it was
 * collected; parts and chunks this small die young.
 */
export function packChunks(parts: Iterable<string>): Buffer[] {
  return [...chunksOf(parts)];
}

/**
 * packChunks for a bulk page, giving the event loop back after each chunk (`turn` resolves
 * when the page may go on), so a page of a thousand records is rendered in slices between
 * which other requests are read and answered, and several bulk pages take turns.
 */
export async function packChunksInTurns(parts: Iterable<string>, turn: () => Promise<void>): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for (const chunk of chunksOf(parts)) {
    chunks.push(chunk);
    await turn();
  }
  return chunks;
}

function* chunksOf(parts: Iterable<string>): Generator<Buffer> {
  let pending: string[] = [];
  let length = 0;
  let any = false;
  const flush = () => {
    const chunk = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    length = 0;
    any = true;
    return chunk;
  };
  for (const part of parts) {
    pending.push(part);
    length += part.length;
    if (length >= chunkBytes) yield flush();
  }
  if (length > 0 || !any) yield flush();
}

export function send(req: IncomingMessage, res: ServerResponse, response: Body, etagSalt = ''): void {
  const { body } = response;
  const chunks: readonly Buffer[] = typeof body === 'string' ? [Buffer.from(body, 'utf8')] : Buffer.isBuffer(body) ? [body] : body;
  res.statusCode = response.status;
  res.setHeader('Content-Type', response.contentType);
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  // A private mirror's answers depend on the token: shared caches must neither keep them
  // nor hand one user's answer to another.
  res.setHeader(
    'Vary',
    response.cacheControl?.startsWith('private') ? 'Accept, Accept-Encoding, Authorization' : 'Accept, Accept-Encoding',
  );

  if (response.cacheControl && response.status === 200) {
    const etag = response.etag ?? etagOf(chunks, etagSalt);
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', response.cacheControl);
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
      res.statusCode = 304;
      res.removeHeader('Content-Type');
      res.end();
      return;
    }
  } else {
    res.setHeader('Cache-Control', 'no-store');
  }

  const length = (parts: readonly Buffer[]) => parts.reduce((sum, chunk) => sum + chunk.length, 0);
  const encoding = worthCompressing(response.contentType, length(chunks)) ? chooseEncoding(req.headers['accept-encoding']) : undefined;
  let out = chunks;
  if (encoding) {
    const { encoded } = response;
    out = [encoded?.encoding === encoding ? encoded.body : compress(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), encoding)];
    res.setHeader('Content-Encoding', encoding);
  }
  res.setHeader('Content-Length', length(out));
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // The last chunk goes with end(): a small answer is then one write, headers and body together.
  for (const chunk of out.slice(0, -1)) res.write(chunk);
  res.end(out[out.length - 1]);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import { compress, etagOf, worthCompressing, type ContentEncoding } from '../render/body-bytes';

/** Writing responses: content encoding, validators and the headers every response carries. */

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

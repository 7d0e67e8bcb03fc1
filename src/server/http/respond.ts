import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Writing responses: content encoding, validators and the headers every response carries. */

const compressible = /^(application\/(json|xml|x-bibtex|javascript)|text\/|image\/svg)/;

function chooseEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
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
  readonly body: Buffer | string;
  readonly headers?: Record<string, string>;
  /** Cacheable responses get an ETag and may be answered 304. */
  readonly cacheControl?: string;
}

export function etagOf(body: Buffer, salt: string): string {
  return `W/"${createHash('sha1').update(salt).update(body).digest('base64url').slice(0, 27)}"`;
}

export function send(req: IncomingMessage, res: ServerResponse, response: Body, etagSalt = ''): void {
  let body = Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body, 'utf8');
  res.statusCode = response.status;
  res.setHeader('Content-Type', response.contentType);
  for (const [name, value] of Object.entries(response.headers ?? {})) res.setHeader(name, value);
  // A private mirror's answers depend on the token: shared caches must neither keep them
  // nor hand one user's answer to another.
  res.setHeader('Vary', response.cacheControl?.startsWith('private') ? 'Accept, Accept-Encoding, Authorization' : 'Accept, Accept-Encoding');

  if (response.cacheControl && response.status === 200) {
    const etag = etagOf(body, etagSalt);
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

  const encoding = body.length >= 1024 && compressible.test(response.contentType) ? chooseEncoding(req.headers['accept-encoding']) : undefined;
  if (encoding === 'br') {
    body = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
    res.setHeader('Content-Encoding', 'br');
  } else if (encoding === 'gzip') {
    body = gzipSync(body, { level: 6 });
    res.setHeader('Content-Encoding', 'gzip');
  }
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

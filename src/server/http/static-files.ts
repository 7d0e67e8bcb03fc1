import { createReadStream, promises as fs } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream';
import { worthCompressing } from '../render/body-bytes';
import { chooseEncoding, send } from './respond';
import { SentFiles } from './sent-files';

/** Files from a folder: the built app (with single-page fallback) and media (with ranges). */

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.csl': 'application/xml; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.oga': 'audio/ogg',
  '.wma': 'audio/x-ms-wma',
  '.webm': 'video/webm',
  '.mp4': 'video/mp4',
  '.woff2': 'font/woff2',
};

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "media-src 'self' https: http:",
  "connect-src 'self' https: http:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The file a URL path names inside `root`, or undefined when the path is malformed or
 * would leave the folder (`..`, encoded slashes, NUL).
 */
export function resolveInside(root: string, pathname: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return undefined;
  const base = resolve(root);
  const target = resolve(base, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  return target === base || target.startsWith(base + sep) ? target : undefined;
}

/**
 * A regular file at `path` whose real location (every symlink followed) is still inside
 * `root`: a link planted in the served folder cannot serve /etc/passwd.
 */
async function fileOf(root: string, path: string | undefined) {
  if (!path) return undefined;
  try {
    const [real, realRoot] = await Promise.all([fs.realpath(path), fs.realpath(root)]);
    if (!real.startsWith(realRoot + sep)) return undefined;
    const stat = await fs.stat(real);
    return stat.isFile() ? { path: real, size: stat.size, mtime: stat.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** What /media serves: audio, video and raster images; never a type a browser would run. */
const mediaTypes = new Set(['audio/wav', 'audio/mpeg', 'audio/ogg', 'audio/x-ms-wma', 'video/webm', 'video/mp4', 'image/png']);

/** Media is data: no script may run in it even when opened on its own, and no type is guessed. */
const mediaHeaders = {
  'Content-Security-Policy': "sandbox; default-src 'none'; media-src 'self'; img-src 'self'",
  'X-Content-Type-Options': 'nosniff',
};

/** Media with single byte ranges, which players use to seek and probe. */
export async function serveMedia(req: IncomingMessage, res: ServerResponse, root: string, pathname: string): Promise<boolean> {
  const type = types[extname(pathname).toLowerCase()];
  if (!type || !mediaTypes.has(type)) return false;
  const file = await fileOf(root, resolveInside(root, pathname));
  if (!file) return false;
  for (const [name, value] of Object.entries(mediaHeaders)) res.setHeader(name, value);
  res.setHeader('Content-Type', type);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Cache-Control', 'public, max-age=3600');
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
  let start = 0;
  let end = file.size - 1;
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      end = range[2] ? Math.min(Number(range[2]), file.size - 1) : file.size - 1;
    } else {
      start = Math.max(0, file.size - Number(range[2]));
    }
    if (start > end || start >= file.size) {
      res.statusCode = 416;
      res.setHeader('Content-Range', `bytes */${file.size}`);
      res.end();
      return true;
    }
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
  }
  res.setHeader('Content-Length', end - start + 1);
  if (req.method === 'HEAD' || file.size === 0) {
    res.end();
    return true;
  }
  // pipeline, not pipe: when the client goes away mid-file the file is closed too, rather
  // than left open for every vanished player.
  pipeline(createReadStream(file.path, { start, end }), res, () => undefined);
  return true;
}

/**
 * The built app: hashed assets cached for good, everything else revalidated. `head` is
 * markup for the head of the app's page (a record page's meta tags), already escaped.
 */
export async function serveApp(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  pathname: string,
  head = '',
  rootContent = '',
): Promise<boolean> {
  const direct = await fileOf(root, resolveInside(root, pathname));
  // Routes of the single-page app get index.html: paths without a file extension, and
  // paths whose "extension" is no file type we serve (the slug dc-v0.1 ends in ".1").
  const isRoute = !Object.hasOwn(types, extname(pathname).toLowerCase());
  const file = direct ?? (isRoute ? await fileOf(root, resolve(root, 'index.html')) : undefined);
  if (!file) return false;
  const type = types[extname(file.path).toLowerCase()] ?? 'application/octet-stream';
  const immutable = pathname.startsWith('/assets/');
  const sent = await appFiles.read(file);
  const html = type.startsWith('text/html');
  const headers: Record<string, string> = html ? { 'Content-Security-Policy': contentSecurityPolicy } : {};
  const cacheControl = immutable ? 'public, max-age=31536000, immutable' : 'no-cache';
  if (html && (head || rootContent)) {
    // Replacer functions: a record's text may hold `$&`, which a replacement string would expand.
    const body = sent.content
      .toString('utf8')
      .replace('</head>', () => `${head}</head>`)
      .replace('<div id="root"></div>', () => `<div id="root">${rootContent}</div>`);
    send(req, res, { status: 200, contentType: type, body, headers, cacheControl });
    return true;
  }
  const encoding = worthCompressing(type, sent.content.length) ? chooseEncoding(req.headers['accept-encoding']) : undefined;
  send(req, res, {
    status: 200,
    contentType: type,
    body: sent.content,
    headers,
    cacheControl,
    etag: sent.etag,
    ...(encoding ? { encoded: { encoding, body: sent.encoded(encoding) } } : {}),
  });
  return true;
}

/** The app's files, read, hashed and compressed once per version rather than for every request. */
const appFiles = new SentFiles();

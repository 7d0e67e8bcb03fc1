import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * A response body as bytes: packed into chunks, compressed, and its validator, wherever it is
 * written (the HTTP layer, or a store worker rendering a page, so the main thread only sends it).
 */

// Text of every kind: JSON and XML with their suffixed types (Atom feeds, MODS, Zotero RDF, OpenSearch), BibTeX, RIS, scripts.
const compressible = /^(application\/(json|xml|[\w.-]+\+(xml|json)|x-bibtex|x-research-info-systems|javascript)|text\/|image\/svg)/;

export type ContentEncoding = 'br' | 'gzip';

/** Bodies smaller than this are sent as they are. */
const minCompressedBytes = 1024;

/** A body compressed as every answer is (`send`), wherever that is done. */
export function compress(whole: Buffer, encoding: ContentEncoding): Buffer {
  return encoding === 'br' ? brotliCompressSync(whole, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : gzipSync(whole, { level: 6 });
}

/** Whether `send` compresses a body of this type and size for a client that accepts it. */
export const worthCompressing = (contentType: string, bytes: number) => bytes >= minCompressedBytes && compressible.test(contentType);

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

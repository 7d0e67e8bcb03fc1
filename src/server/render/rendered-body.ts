import type { Deployment } from '../../deployments/schema';
import { compress, etagOf, packChunks, worthCompressing, type ContentEncoding } from './body-bytes';
import { docParts, pageContentType, type PageRendering } from './page-body';
import { worksOfDocs, type PageWorks, type WorksRendering } from './work-page';

/**
 * A page's records written as its response body by the thread that read them (a pooled
 * store's worker, or this one): the body, its ETag and which of the records are generated,
 * so the main thread only sends it.
 */
export interface RenderedBody {
  readonly body: Buffer;
  /** ETag of the body (body-bytes.ts etagOf, salted with the store's revision). */
  readonly etag: string;
  /** The page's records that are generated demo records, in the page's order. */
  readonly generated: readonly string[];
  /** The body compressed with the rendering's encoding, when it is worth compressing. */
  readonly encoded?: { readonly encoding: ContentEncoding; readonly body: Buffer };
  /** A page of works (`group=work`, work-page.ts): what it lists, work by work. */
  readonly works?: PageWorks;
}

/** Records as their stored JSON text, with the repo_ids of those that are generated, as the store reads them. */
export interface MarkedDocs {
  readonly docs: readonly string[];
  readonly generated: readonly string[];
}

/** A copy in a buffer of its own (never a slice of Node's shared pool), so it can be moved to another thread without a copy. */
function movable(chunks: readonly Buffer[]): Buffer {
  const body = Buffer.allocUnsafeSlow(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) at += chunk.copy(body, at);
  return body;
}

/** A window's records as the page of works `works` names: its records in the page's order, and the generated among them. */
function listedWorks(deployment: Deployment, { docs, generated }: MarkedDocs, works: WorksRendering): MarkedDocs & { works: PageWorks } {
  const page = worksOfDocs(deployment, docs, works);
  const marked = new Set(generated);
  return { docs: page.listed, generated: page.ids.filter((id) => marked.has(id)), works: page.works };
}

/**
 * Records read from the store written as a response body, salted with the store's
 * `revision`; for a page of works (`rendering.works`), the records are its window's, grouped here.
 */
export function renderBody(deployment: Deployment, read: MarkedDocs, rendering: PageRendering, revision: string): RenderedBody {
  const { docs, generated, works }: MarkedDocs & { works?: PageWorks } = rendering.works
    ? listedWorks(deployment, read, rendering.works)
    : read;
  const chunks = packChunks(docParts(deployment, docs, rendering, generated));
  const body = movable(chunks);
  const { encoding } = rendering;
  const encoded =
    encoding && worthCompressing(pageContentType(rendering), body.length)
      ? { encoding, body: movable([compress(body, encoding)]) }
      : undefined;
  return { body, etag: etagOf(chunks, revision), generated, ...(encoded && { encoded }), ...(works && { works }) };
}

import { deploymentByKey } from '../../deployments/registry';
import type { DeploymentKey } from '../../deployments/schema';
import { docParts, pageContentType, type PageRendering } from '../render/page-body';
import { compress, etagOf, packChunks, worthCompressing } from '../render/body-bytes';
import type { QueryEngine } from './engine';
import type { Criteria, RenderedPage } from './types';

/**
 * A page's records written as its response body by the engine that read them, on the
 * thread the engine runs on (a pooled store's worker): the body, its ETag and which of the
 * records are generated, so the main thread only sends it.
 */
export type RenderedBody = Omit<RenderedPage, 'total' | 'body'> & { readonly body: Buffer };

/** A copy in a buffer of its own (never a slice of Node's shared pool), so it can be moved to another thread without a copy. */
function movable(chunks: readonly Buffer[]): Buffer {
  const body = Buffer.allocUnsafeSlow(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) at += chunk.copy(body, at);
  return body;
}

/** The records of `ids` written as a response body, with which of them are generated (read from their rows). */
export function renderDocs(engine: QueryEngine, key: DeploymentKey, ids: ArrayLike<number>, rendering: PageRendering): RenderedBody {
  const deployment = deploymentByKey(key);
  if (!deployment) throw new Error(`unknown deployment ${key}`);
  const { docs, generated } = engine.fetch(key, ids);
  const chunks = packChunks(docParts(deployment, docs, rendering, generated));
  const body = movable(chunks);
  const { encoding } = rendering;
  const encoded =
    encoding && worthCompressing(pageContentType(rendering), body.length)
      ? { encoding, body: movable([compress(body, encoding)]) }
      : undefined;
  return { body, etag: etagOf(chunks, engine.revision), generated, ...(encoded && { encoded }) };
}

/**
 * Which of some records are generated demo data (a store-only fact, sent as a header rather
 * than a field, so the record itself is exactly what the API defines): the search that says so.
 */
export function generatedCriteria(repoIds: readonly string[]): Criteria {
  return {
    text: [],
    exact: [{ key: 'origin', value: 'generated' }],
    repoIds,
    dates: [],
    sort: 'publication_date',
    order: 'desc',
    offset: 0,
    limit: repoIds.length,
  };
}

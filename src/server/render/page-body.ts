import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordsToBibtex } from '../../formats/bibtex';
import type { ResponseFormat } from '../../formats/media-types';
import { recordsToXmlParts } from '../../formats/xml';
import { absolutizeLinks, recordsJsonParts } from './record-json';
import { upstreamView, withUpstreamNames } from './upstream-view';

/**
 * A page of records as a response body. One module for wherever a page is written: a store
 * worker for the pooled store (so the main thread never renders a page), this thread for a
 * store without workers, and the single-record answer.
 */

/** How a page of records is written: the negotiated format and what the answer's links start with. */
export interface PageRendering {
  readonly format: ResponseFormat;
  /** Origin that local links start with. */
  readonly origin: string;
  readonly bibtexPrefix: string;
  /** `--compat upstream`: upstream field names added. */
  readonly compat?: 'upstream';
  /** The encoding the client accepts (http/respond.ts chooseEncoding): the body is compressed where it is rendered too. */
  readonly encoding?: 'br' | 'gzip';
}

function* mapped<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/** Records parsed one at a time from their stored text, so no page is ever held parsed whole. */
function* parsed(docs: readonly string[]): Generator<ApiRecord> {
  for (const doc of docs) yield JSON.parse(doc) as ApiRecord;
}

/** The response body in parts, a record at a time (packChunks makes buffers of them). */
export function recordParts(deployment: Deployment, records: Iterable<ApiRecord>, rendering: PageRendering): Iterable<string> {
  const absolute = mapped(records, (record) => absolutizeLinks(record, rendering.origin));
  if (rendering.compat === 'upstream' && rendering.format !== 'bibtex') {
    return recordParts(
      upstreamView(deployment),
      mapped(absolute, (record) => withUpstreamNames(deployment, record)),
      { ...rendering, compat: undefined },
    );
  }
  const format: ResponseFormat = rendering.format;
  if (format === 'xml') return recordsToXmlParts(deployment, absolute);
  if (format === 'bibtex') return [recordsToBibtex([...absolute], rendering.bibtexPrefix)];
  return ['[', ...[...absolute].map((record, i) => (i ? ',' : '') + JSON.stringify(record)), ']'];
}

/** A page from the records' stored JSON text: JSON is written from the text itself, without parsing it. */
export function docParts(deployment: Deployment, docs: readonly string[], rendering: PageRendering): Iterable<string> {
  return rendering.format === 'json' && !rendering.compat
    ? recordsJsonParts(docs, rendering.origin)
    : recordParts(deployment, parsed(docs), rendering);
}

/** The identifiers of records in stored JSON text, whose first member is always `repo_id`. */
export function docIds(docs: readonly string[]): string[] {
  return docs.map((doc) => {
    const match = /^\{"repo_id":("(?:[^"\\]|\\.)*")/.exec(doc);
    return match ? (JSON.parse(match[1]!) as string) : (JSON.parse(doc) as ApiRecord).repo_id;
  });
}

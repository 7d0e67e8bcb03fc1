import type { ApiRecord } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { recordsToBibtex } from '../../formats/bibtex';
import { atomParts } from '../../formats/atom';
import { contentTypes, type ResponseFormat } from '../../formats/media-types';
import { recordsToXmlParts } from '../../formats/xml';
import { absolutizeLinks, recordsJsonParts } from './record-json';
import { upstreamView, withUpstreamNames } from './upstream-view';
import type { WorksRendering } from './work-page';

/**
 * A page of records as a response body. One module for wherever a page is written: a store
 * worker for the pooled store (so the main thread never renders a page), this thread for a
 * store without workers, and the single-record answer; a feed (`{base}/feed`) is such a page too.
 */

/** A page written as the Atom feed of its search instead of in the negotiated format: the feed's own links and title. */
export interface FeedRendering {
  /** The feed's URL (rel="self"). */
  readonly self: string;
  /** The same search in the app (rel="alternate"). */
  readonly alternate: string;
  readonly title: string;
}

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
  /** Set for a feed: the page is its Atom feed, whatever `format` says. */
  readonly feed?: FeedRendering;
  /** Set for `group=work`: the records given are a window of the search, and the page lists the works `works` names (work-page.ts). */
  readonly works?: WorksRendering;
}

/** The media type of a page written as `rendering` says. */
export const pageContentType = (rendering: PageRendering): string =>
  rendering.feed ? 'application/atom+xml' : contentTypes[rendering.format];

/** The page's records as the Atom feed `rendering.feed` names, each generated one (`generated`) saying so. */
function feedParts(
  deployment: Deployment,
  records: Iterable<ApiRecord>,
  rendering: PageRendering & { readonly feed: FeedRendering },
  generated: readonly string[],
): Iterable<string> {
  const { origin } = rendering;
  return atomParts(deployment, [...records], {
    ...rendering.feed,
    recordUrl: (id) => `${origin}${deployment.basePath}/records/${encodeURIComponent(id)}`,
    recordPage: (id) => `${origin}/${deployment.slug}/records/${encodeURIComponent(id)}`,
    generated: new Set(generated),
  });
}

function* mapped<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/** Records parsed one at a time from their stored text, so no page is ever held parsed whole. */
function* parsed(docs: readonly string[]): Generator<ApiRecord> {
  for (const doc of docs) yield JSON.parse(doc) as ApiRecord;
}

/**
 * The response body in parts, a record at a time (packChunks makes buffers of them);
 * `generated` (the records that are generated demo records) is read by a feed only.
 */
export function recordParts(
  deployment: Deployment,
  records: Iterable<ApiRecord>,
  rendering: PageRendering,
  generated: readonly string[] = [],
): Iterable<string> {
  if (rendering.feed) return feedParts(deployment, records, { ...rendering, feed: rendering.feed }, generated);
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
export function docParts(
  deployment: Deployment,
  docs: readonly string[],
  rendering: PageRendering,
  generated: readonly string[] = [],
): Iterable<string> {
  return rendering.format === 'json' && !rendering.compat && !rendering.feed
    ? recordsJsonParts(docs, rendering.origin)
    : recordParts(deployment, parsed(docs), rendering, generated);
}

import { describeSearch } from '../../formats/search-description';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { displayName } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { apiError, errorToJson, errorToText, errorToXml, type ApiError } from '../../formats/error';
import { formatGeneratedIds, generatedRecordsHeader, recordOriginHeader } from '../../formats/extension-headers';
import { formatLinkHeader } from '../../formats/link-header';
import type { SuggestResponse } from '../../formats/suggest-response';
import { contentTypes, negotiateFormat, type ResponseFormat } from '../../formats/media-types';
import type { Criteria, RecordStore, RenderedPage } from '../store/types';
import { BadRequest, limits, parseListRequest } from './criteria';
import { formatQueryString, MalformedQueryError, parseQueryString, type QueryPair } from './query-string';
import { facetsBody, parseFacetsRequest } from './facets';
import { completeBody, parseCompleteRequest } from './complete';
import { openApiDocument } from './openapi';
import { docParts, pageContentType, recordParts, type PageRendering } from '../render/page-body';
import { upstreamRequest } from './upstream-compat';
import { bulkTurn } from './flow-control';
import { etagOf, packChunks, packChunksInTurns } from '../render/body-bytes';
import { chooseEncoding, send } from './respond';
import { groupedPage } from './work-groups';

/** The endpoints of each deployment's API, with negotiation, paging headers and errors; routes.ts has a row for each. */

class LinkTooLong extends Error {}

export interface ApiContext {
  readonly store: RecordStore;
  readonly bibtexPrefix: string;
  /** Origin that absolute URLs (Link targets, local record links) start with. */
  readonly origin: string;
  /** Token mode: answers are private to the client that sent the token. */
  readonly privateMirror: boolean;
  /**
   * `origin` is the request's Host, vouched for by neither --public-url nor --allowed-hosts:
   * answers that carry it are for the one client, never for a shared cache.
   */
  readonly originFromHost?: boolean;
  /** `--compat upstream`: upstream names accepted and added, unknown parameters ignored. */
  readonly compat?: 'upstream';
}

/** The request's parameters as the spec names them; in the upstream profile, with a Warning for what it ignored. */
function readPairs(deployment: Deployment, search: string, context: ApiContext): { pairs: QueryPair[]; headers: Record<string, string> } {
  const pairs = parseQueryString(search);
  if (context.compat !== 'upstream') return { pairs, headers: {} };
  const request = upstreamRequest(deployment, pairs);
  return { pairs: request.pairs, headers: request.warning ? { Warning: request.warning } : {} };
}

/**
 * Shared caches may keep public answers; a private mirror's are for the one client only, and
 * so are answers whose URLs come from a Host nothing vouches for (a shared cache would hand
 * another client links to whatever host the first one named).
 */
export const cacheControlOf = ({ privateMirror, originFromHost }: { privateMirror: boolean; originFromHost?: boolean }) =>
  privateMirror || originFromHost ? 'private, max-age=60' : 'public, max-age=60';

const renderingOf = (format: ResponseFormat, context: ApiContext, acceptEncoding?: string): PageRendering => {
  const encoding = chooseEncoding(acceptEncoding);
  return {
    format,
    origin: context.origin,
    bibtexPrefix: context.bibtexPrefix,
    ...(context.compat && { compat: context.compat }),
    ...(encoding && { encoding }),
  };
};

function contentTypeOf(format: ResponseFormat): string {
  // The spec's three-line error text for BibTeX requests is plain text, not BibTeX.
  return `${contentTypes[format]}; charset=utf-8`;
}

export function sendError(req: IncomingMessage, res: ServerResponse, error: ApiError, headers: Record<string, string> = {}): void {
  const format = negotiateFormat(req.headers.accept);
  const body = format === 'xml' ? errorToXml(error) : format === 'bibtex' ? errorToText(error) : errorToJson(error);
  const contentType = format === 'bibtex' ? 'text/plain; charset=utf-8' : contentTypeOf(format);
  send(req, res, { status: error.statusCode, contentType, body, headers });
}

/**
 * The longest `Link` header the server sends (four targets). Clients and proxies limit a
 * response header's size (Node's fetch refuses one of about 16 KB); a search whose links
 * would be longer is refused before it runs (docs/decisions.md).
 */
export const maxLinkHeaderLength = 8192;

/**
 * A page's URL: the caller's other parameters in their order, trimmed as they are read
 * (empty ones, which count as absent, left out), then rows, then page last: clients that take everything after `page=`
 * from rel="next" (upstream scripts do) then work.
 */
function pageTarget(deployment: Deployment, pairs: readonly QueryPair[], rows: number, origin: string): (page: number) => string {
  const kept = pairs
    .filter(([name, value]) => name !== 'page' && name !== 'rows' && value.trim() !== '')
    .map(([name, value]) => [name, value.trim()] as const);
  return (n) => `${origin}${deployment.basePath}/records?${formatQueryString([...kept, ['rows', String(rows)], ['page', String(n)]])}`;
}

function checkLinkLength(deployment: Deployment, pairs: readonly QueryPair[], rows: number, origin: string): void {
  // Four targets with the widest page number a page can have, and the rel syntax around each.
  const longest = pageTarget(deployment, pairs, rows, origin)(10_000_000).length + 16;
  if (longest * 4 > maxLinkHeaderLength) {
    throw new LinkTooLong(
      `The search is too long to link its pages: its Link header would exceed ${maxLinkHeaderLength} characters. Shorten the query (each page link repeats it).`,
    );
  }
}

function pageLinks(deployment: Deployment, pairs: readonly QueryPair[], page: number, rows: number, total: number, origin: string) {
  if (total <= rows) return undefined;
  const last = Math.ceil(total / rows);
  const target = pageTarget(deployment, pairs, rows, origin);
  const links = [{ rel: 'first', href: target(1) }];
  if (page > 1) links.push({ rel: 'prev', href: target(Math.min(page - 1, last)) });
  if (page < last) links.push({ rel: 'next', href: target(page + 1) });
  links.push({ rel: 'last', href: target(last) });
  return formatLinkHeader(links);
}

/** The records of a page and what they are (`page`), from a store that cannot render them itself; in turns for bulk pages. */
async function pageInThisThread(
  store: RecordStore,
  deployment: Deployment,
  criteria: Criteria,
  rendering: PageRendering,
): Promise<RenderedPage> {
  const result = await store.search(deployment.key, criteria);
  const turn = () => bulkTurn(criteria.limit);
  await turn();
  const { generated } = result;
  const body = await packChunksInTurns(
    result.json ? docParts(deployment, result.json, rendering, generated) : recordParts(deployment, result.records, rendering, generated),
    turn,
  );
  return { total: result.total, body, etag: etagOf(body, store.revision), generated };
}

/**
 * A page rendered where the search runs when the store can (a worker), so the main thread
 * only sends it; bulk pages are then handed to their sockets one per turn of the event loop, taking turns.
 */
async function renderedPage(
  store: RecordStore,
  deployment: Deployment,
  criteria: Criteria,
  rendering: PageRendering,
): Promise<RenderedPage> {
  const rendered = store.page
    ? await store.page(deployment.key, criteria, rendering)
    : await pageInThisThread(store, deployment, criteria, rendering);
  await bulkTurn(criteria.limit);
  return rendered;
}

export async function listRecords(req: IncomingMessage, res: ServerResponse, deployment: Deployment, search: string, context: ApiContext) {
  const { pairs, headers } = readPairs(deployment, search, context);
  const { criteria, page, rows, group } = parseListRequest(deployment, pairs, { idLists: context.compat === 'upstream', extensions: true });
  checkLinkLength(deployment, pairs, rows, context.origin);
  const format = negotiateFormat(req.headers.accept);
  const rendering = renderingOf(format, context, req.headers['accept-encoding']);
  const grouped = group ? await groupedPage(context.store, deployment, criteria, page, rows, rendering) : undefined;
  if (grouped) await bulkTurn(rows);
  const rendered = grouped ?? (await renderedPage(context.store, deployment, criteria, rendering));
  const { total, generated } = rendered;
  const link = pageLinks(deployment, pairs, page, rows, total, context.origin);
  send(
    req,
    res,
    {
      status: 200,
      contentType: contentTypeOf(format),
      body: rendered.body,
      etag: rendered.etag,
      ...(rendered.encoded && { encoded: rendered.encoded }),
      headers: {
        ...headers,
        'X-Total-Count': String(total),
        ...(link ? { Link: link } : {}),
        ...(generated.length ? { [generatedRecordsHeader]: formatGeneratedIds(generated) } : {}),
        ...grouped?.headers,
      },
      cacheControl: cacheControlOf(context),
    },
    context.store.revision,
  );
}

export async function getRecord(
  req: IncomingMessage,
  res: ServerResponse,
  deployment: Deployment,
  rawId: string,
  search: string,
  context: ApiContext,
) {
  if (parseQueryString(search).length > 0) throw new BadRequest('A single-record request takes no query parameters.');
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    throw new MalformedQueryError('The record identifier has malformed percent-encoding.');
  }
  const found = id ? await context.store.get(deployment.key, id) : undefined;
  if (!found) {
    sendError(req, res, apiError(404, `No record matches the identifier '${id.slice(0, 200)}'.`));
    return;
  }
  const format = negotiateFormat(req.headers.accept);
  const headers: Record<string, string> = { 'X-Total-Count': '1' };
  if (found.generated) headers[recordOriginHeader] = 'generated';
  send(
    req,
    res,
    {
      status: 200,
      contentType: contentTypeOf(format),
      body: packChunks(recordParts(deployment, [found.record], renderingOf(format, context))),
      headers,
      cacheControl: cacheControlOf(context),
    },
    context.store.revision,
  );
}

/**
 * `{base}/feed?<criteria>`: the search as an Atom feed, newest entries first (an extension;
 * docs/extensions.md). The criteria are the list endpoint's, validated the same way; `sort`
 * and `order` are the feed's own, and `page` is refused (a feed is always its first page).
 */
export async function searchFeed(req: IncomingMessage, res: ServerResponse, deployment: Deployment, search: string, context: ApiContext) {
  const { pairs, headers } = readPairs(deployment, search, context);
  const own = pairs.find(([name]) => name === 'sort' || name === 'order' || name === 'page');
  if (own) throw new BadRequest(`A feed is always the newest entries first; ${own[0]} is not a feed parameter.`, own[0]);
  const { criteria } = parseListRequest(deployment, [...pairs, ['sort', 'entry_date'], ['order', 'desc']]);
  const query = formatQueryString(pairs);
  const rendering: PageRendering = {
    ...renderingOf('xml', context, req.headers['accept-encoding']),
    feed: {
      self: `${context.origin}${deployment.basePath}/feed${query ? `?${query}` : ''}`,
      alternate: `${context.origin}/${deployment.slug}${query ? `?${query}` : ''}`,
      title: `${displayName(deployment)}${query ? ` – ${describeSearch(deployment, pairs)}` : ''}`,
    },
  };
  // Written as a page is, where the search runs: a flood of long feeds never holds the main thread.
  const rendered = await renderedPage(context.store, deployment, criteria, rendering);
  send(
    req,
    res,
    {
      status: 200,
      contentType: `${pageContentType(rendering)}; charset=utf-8`,
      body: rendered.body,
      etag: rendered.etag,
      ...(rendered.encoded && { encoded: rendered.encoded }),
      headers,
      cacheControl: cacheControlOf(context),
    },
    context.store.revision,
  );
}

/** `{base}/facets?<criteria>&facet=…`: exact counts by value (an extension, docs/extensions.md). */
export async function countFacets(req: IncomingMessage, res: ServerResponse, deployment: Deployment, search: string, context: ApiContext) {
  const { criteria: pairs, requests } = parseFacetsRequest(deployment, parseQueryString(search));
  const { criteria } = parseListRequest(deployment, pairs);
  const result = await context.store.facets(deployment.key, criteria, requests);
  const body = JSON.stringify(facetsBody(deployment, result, requests));
  send(
    req,
    res,
    {
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body,
      headers: { 'X-Total-Count': String(result.total) },
      cacheControl: cacheControlOf(context),
    },
    context.store.revision,
  );
}

/** `{base}/suggest?q=…`: the search's words as the records spell them, or null (an extension, docs/extensions.md). */
export async function suggest(req: IncomingMessage, res: ServerResponse, deployment: Deployment, search: string, context: ApiContext) {
  const pairs = parseQueryString(search);
  const other = pairs.find(([name]) => name !== 'q');
  if (other) throw new BadRequest(`suggest takes only q; got '${other[0].slice(0, 40)}'.`, other[0]);
  const q = pairs.find(([name]) => name === 'q')?.[1] ?? '';
  if (q.length > limits.textLength) throw new BadRequest(`q is too long: at most ${limits.textLength} characters.`, 'q');
  const suggestion = q.trim() && context.store.suggest ? await context.store.suggest(deployment.key, q) : undefined;
  const body = JSON.stringify({ q, suggestion: suggestion ?? null } satisfies SuggestResponse);
  send(
    req,
    res,
    { status: 200, contentType: 'application/json; charset=utf-8', body, cacheControl: cacheControlOf(context) },
    context.store.revision,
  );
}

/** `{base}/complete?prefix=…`: type-ahead values with their counts (an extension, docs/extensions.md). */
export async function complete(req: IncomingMessage, res: ServerResponse, deployment: Deployment, search: string, context: ApiContext) {
  const request = parseCompleteRequest(deployment, search);
  const values = context.store.complete ? await context.store.complete(deployment.key, request) : [];
  const body = JSON.stringify(completeBody(deployment, request.prefix, values));
  send(
    req,
    res,
    { status: 200, contentType: 'application/json; charset=utf-8', body, cacheControl: cacheControlOf(context) },
    context.store.revision,
  );
}

/** `{base}/openapi.json`: the deployment's OpenAPI 3.1 description (an extension). */
export function describeApi(req: IncomingMessage, res: ServerResponse, deployment: Deployment, search: string, context: ApiContext) {
  if (parseQueryString(search).length > 0) throw new BadRequest('The OpenAPI description takes no query parameters.');
  const body = JSON.stringify(openApiDocument(deployment, { origin: context.origin, token: context.privateMirror }), null, 2);
  send(
    req,
    res,
    { status: 200, contentType: 'application/json; charset=utf-8', body, cacheControl: cacheControlOf(context) },
    context.store.revision,
  );
}

/**
 * Answers an API request with `answer` (an endpoint above, from its row of routes.ts), turning
 * what the request got wrong into the API's Error object: 400, or 414 for a search too long to link.
 */
export async function answerApi(req: IncomingMessage, res: ServerResponse, answer: () => Promise<void> | void): Promise<void> {
  try {
    await answer();
  } catch (error) {
    if (error instanceof BadRequest || error instanceof MalformedQueryError) {
      sendError(req, res, apiError(400, error.message));
      return;
    }
    if (error instanceof LinkTooLong) {
      sendError(req, res, apiError(414, error.message));
      return;
    }
    throw error;
  }
}

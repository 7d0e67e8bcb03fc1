import type { IncomingMessage, ServerResponse } from 'node:http';
import { citationMeta, citationMetaHtml } from '../../formats/citation-meta';
import { deploymentBySlug, deployments } from '../../deployments/registry';
import type { Deployment } from '../../deployments/schema';
import { apiError } from '../../formats/error';
import type { RecordStore } from '../store/types';
import {
  answerApi,
  cacheControlOf,
  complete,
  countFacets,
  describeApi,
  getRecord,
  listRecords,
  searchFeed,
  sendError,
  suggest,
  type ApiContext,
} from './api';
import { openSearchDocument, openSearchLinks, openSearchType } from './opensearch';
import { send } from './respond';
import { serveApp, serveMedia } from './static-files';
import { recordPageBody } from './record-page';
import { searchPageBody } from './search-page';
import { handleUnapi, unapiLink, unapiPath } from './unapi';

/**
 * Every route the server answers, in the order they are tried, each saying whether it can
 * tell anything about a record. The server applies one access rule to the table
 * (server.ts): on a private mirror a route that reads records answers only a request with
 * the token. A route reads records unless it says `access: 'public'`, so a route added
 * without thought is private, and the test that walks this table (access.test.ts) visits it.
 */

export interface RouteServices {
  readonly store: RecordStore;
  readonly staticDir?: string;
  readonly mediaDir: string;
  readonly bibtexPrefix: string;
  /** Token mode: answers are private to the client that sent the token. */
  readonly privateMirror: boolean;
  readonly compat?: 'upstream';
}

export interface RouteRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly pathname: string;
  readonly search: string;
  /** Origin that absolute URLs start with. */
  readonly origin: string;
  /** Whether `origin` is the request's Host, vouched for by neither --public-url nor --allowed-hosts. */
  readonly originFromHost: boolean;
  readonly services: RouteServices;
}

/** Paths the access test requests on a route, for a record that exists. */
export interface RouteExampleRecord {
  readonly deployment: Deployment;
  readonly id: string;
}

export interface Route {
  readonly name: string;
  matches(pathname: string): boolean;
  /**
   * `public`: the route's answers carry nothing about any record (the app's files, the
   * OpenSearch descriptions). Anything else reads records.
   */
  readonly access?: 'public';
  /**
   * What a route that reads records answers a request without the token: the Error object
   * (401), or, for pages a browser navigates to (which cannot carry a bearer token), the
   * app shell with no record data in it.
   */
  readonly withoutToken?: 'app-shell';
  /** Cross-origin readable (the API and files, which the app on another origin fetches). */
  readonly cors?: true;
  /** Concrete paths of this route, for the test that walks the table. */
  examples(record: RouteExampleRecord): readonly string[];
  handle(request: RouteRequest): Promise<void>;
}

/** The head links every app page carries: no record data. */
const shellHead = () => openSearchLinks() + unapiLink;

const recordPagePath = /^\/([^/]+)\/records\/([^/]+)$/;

/**
 * A record page (`/{slug}/records/{id}`) from the store, for clients that read the HTML
 * without running the app (Google Scholar, Zotero's translation server, a reader without
 * script): its citation meta tags for the head, and its content in the app's order for the root.
 */
async function recordPageParts(store: RecordStore, pathname: string): Promise<{ head: string; body: string }> {
  const none = { head: '', body: '' };
  const match = recordPagePath.exec(pathname);
  const deployment = match && deploymentBySlug(match[1]!);
  if (!deployment) return none;
  let id: string;
  try {
    id = decodeURIComponent(match[2]!);
  } catch {
    return none;
  }
  const found = await store.get(deployment.key, id);
  if (!found) return none;
  const { record, generated } = found;
  return { head: citationMetaHtml(citationMeta(deployment, record)), body: recordPageBody(deployment, record, generated) };
}

function notFound({ req, res, pathname }: RouteRequest): void {
  sendError(req, res, apiError(404, `Nothing is served at ${pathname.slice(0, 200)}.`));
}

/** The app's page for a path, with `head` in it (and `body` in its root); 404 when there is no built app or no such file. */
export async function serveAppPage(request: RouteRequest, head: string, body = ''): Promise<void> {
  const { req, res, pathname, services } = request;
  if (!services.staticDir || !(await serveApp(req, res, services.staticDir, pathname, head, body))) notFound(request);
}

/** The context an endpoint of the API answers in (api.ts). */
const apiContext = ({ origin, originFromHost, services }: RouteRequest): ApiContext => ({
  store: services.store,
  bibtexPrefix: services.bibtexPrefix,
  origin,
  originFromHost,
  privateMirror: services.privateMirror,
  ...(services.compat ? { compat: services.compat } : {}),
});

type ApiEndpoint = (
  req: IncomingMessage,
  res: ServerResponse,
  deployment: Deployment,
  search: string,
  context: ApiContext,
) => Promise<void> | void;

/** A row for an endpoint every deployment has: `{base}` followed by one of `paths`. */
function apiRoute(name: string, paths: readonly string[], endpoint: ApiEndpoint, examples: Route['examples']): Route {
  const deploymentOf = (pathname: string) =>
    deployments.find((deployment) => paths.some((path) => pathname === `${deployment.basePath}${path}`));
  return {
    name,
    matches: (pathname) => deploymentOf(pathname) !== undefined,
    cors: true,
    examples,
    handle: (request) =>
      answerApi(request.req, request.res, async () => {
        await endpoint(request.req, request.res, deploymentOf(request.pathname)!, request.search, apiContext(request));
      }),
  };
}

/** The deployment and (still percent-encoded) identifier of `{base}/records/{repo_id}`. */
function recordOfApi(pathname: string): { deployment: Deployment; id: string } | undefined {
  for (const deployment of deployments) {
    const base = `${deployment.basePath}/records/`;
    const id = pathname.startsWith(base) ? pathname.slice(base.length) : '';
    if (id && !id.includes('/')) return { deployment, id };
  }
  return undefined;
}

const fulltextPath = /^\/files\/fulltext\/([^/]+)\/([^/]+)\.txt$/;

export const routes: readonly Route[] = [
  apiRoute('api-records', ['/records', '/records/'], listRecords, ({ deployment, id }) => [
    `${deployment.basePath}/records`,
    `${deployment.basePath}/records?q=${encodeURIComponent(id)}`,
  ]),
  {
    name: 'api-record',
    matches: (pathname) => recordOfApi(pathname) !== undefined,
    cors: true,
    examples: ({ deployment, id }) => [`${deployment.basePath}/records/${encodeURIComponent(id)}`],
    handle: (request) => {
      const { deployment, id } = recordOfApi(request.pathname)!;
      return answerApi(request.req, request.res, () =>
        getRecord(request.req, request.res, deployment, id, request.search, apiContext(request)),
      );
    },
  },
  apiRoute('api-feed', ['/feed'], searchFeed, ({ deployment }) => [`${deployment.basePath}/feed`]),
  apiRoute('api-facets', ['/facets'], countFacets, ({ deployment }) => [
    `${deployment.basePath}/facets?facet=${deployment.facets[0]?.name ?? ''}`,
  ]),
  apiRoute('api-openapi', ['/openapi.json'], describeApi, ({ deployment }) => [`${deployment.basePath}/openapi.json`]),
  apiRoute('api-suggest', ['/suggest'], suggest, ({ deployment, id }) => [`${deployment.basePath}/suggest?q=${encodeURIComponent(id)}`]),
  apiRoute('api-complete', ['/complete'], complete, ({ deployment, id }) => [
    `${deployment.basePath}/complete?prefix=${encodeURIComponent(id.slice(0, 3))}`,
  ]),
  {
    // Any other path under /api/: the API's Error object, never the app.
    name: 'api-unknown',
    matches: (pathname) => pathname.startsWith('/api/'),
    cors: true,
    examples: () => ['/api/nothing'],
    handle: async ({ req, res, pathname }) =>
      sendError(
        req,
        res,
        apiError(404, `No resource at ${pathname.slice(0, 200)}. Endpoints are {base}/records and {base}/records/{repo_id}.`),
      ),
  },
  {
    name: 'files',
    matches: (pathname) => pathname.startsWith('/files/'),
    cors: true,
    examples: ({ deployment, id }) => [`/files/fulltext/${deployment.slug}/${encodeURIComponent(id)}.txt`, '/files/other'],
    handle: async (request) => {
      const { req, res, pathname, services } = request;
      const fulltext = fulltextPath.exec(pathname);
      if (!fulltext) return notFound(request);
      const deployment = deploymentBySlug(fulltext[1]!);
      let id = '';
      try {
        id = decodeURIComponent(fulltext[2]!);
      } catch {
        // malformed: not found
      }
      const text = deployment && id ? await services.store.fulltext(deployment.key, id) : undefined;
      if (!text) return sendError(req, res, apiError(404, 'No full text is stored for that record.'));
      send(
        req,
        res,
        { status: 200, contentType: 'text/plain; charset=utf-8', body: text, cacheControl: cacheControlOf(services) },
        services.store.revision,
      );
    },
  },
  {
    // Records' media files; on a private mirror they are the records' too.
    name: 'media',
    matches: (pathname) => pathname.startsWith('/media/'),
    examples: () => ['/media/', '/media/nothing.wav'],
    handle: async (request) => {
      const { req, res, pathname, services } = request;
      if (!(await serveMedia(req, res, services.mediaDir, pathname.slice('/media'.length)))) await serveAppPage(request, shellHead());
    },
  },
  {
    name: 'unapi',
    matches: (pathname) => pathname === unapiPath,
    examples: ({ deployment, id }) => [
      unapiPath,
      `${unapiPath}?id=${deployment.key}:${encodeURIComponent(id)}`,
      `${unapiPath}?id=${deployment.key}:${encodeURIComponent(id)}&format=mods`,
    ],
    handle: ({ req, res, search, origin, services }) => handleUnapi(req, res, search, services.store, services.bibtexPrefix, origin),
  },
  {
    // Names the deployment and where to search it, nothing of any record.
    name: 'opensearch',
    access: 'public',
    matches: (pathname) => {
      const match = /^\/([^/]+)\/opensearch\.xml$/.exec(pathname);
      return Boolean(match && deploymentBySlug(match[1]!));
    },
    examples: ({ deployment }) => [`/${deployment.slug}/opensearch.xml`],
    handle: async ({ req, res, pathname, origin, originFromHost }) => {
      const deployment = deploymentBySlug(pathname.split('/')[1]!)!;
      const cacheControl = `${originFromHost ? 'private' : 'public'}, max-age=3600`;
      send(req, res, {
        status: 200,
        contentType: `${openSearchType}; charset=utf-8`,
        body: openSearchDocument(deployment, origin),
        cacheControl,
      });
    },
  },
  {
    // The app's page for a record, with its citation meta tags and its content for clients that run no script.
    name: 'record-page',
    withoutToken: 'app-shell',
    matches: (pathname) => {
      const match = recordPagePath.exec(pathname);
      return Boolean(match && deploymentBySlug(match[1]!));
    },
    examples: ({ deployment, id }) => [`/${deployment.slug}/records/${encodeURIComponent(id)}`],
    handle: async (request) => {
      const { head, body } = await recordPageParts(request.services.store, request.pathname);
      await serveAppPage(request, shellHead() + head, body);
    },
  },
  {
    // A deployment's search page, with its results for clients that run no script.
    name: 'search-page',
    withoutToken: 'app-shell',
    matches: (pathname) => /^\/[^/]+\/?$/.test(pathname) && deploymentBySlug(pathname.replaceAll('/', '')) !== undefined,
    examples: ({ deployment, id }) => [`/${deployment.slug}`, `/${deployment.slug}?q=${encodeURIComponent(id)}`],
    handle: async (request) => {
      const deployment = deploymentBySlug(request.pathname.replaceAll('/', ''))!;
      await serveAppPage(request, shellHead(), await searchPageBody(request.services.store, deployment, request.search));
    },
  },
  {
    // The app itself: its files, and index.html (with no record data) for its other routes.
    name: 'app',
    access: 'public',
    matches: () => true,
    examples: () => ['/', '/config.json', '/nothing.png'],
    handle: (request) => serveAppPage(request, shellHead()),
  },
];

/** The first route that takes a path (the last one takes any). */
export function routeOf(pathname: string): Route {
  return routes.find((route) => route.matches(pathname))!;
}

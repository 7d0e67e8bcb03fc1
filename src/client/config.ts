import { z } from 'zod';
import { deployments } from '../deployments/registry';
import type { DeploymentKey } from '../deployments/schema';
import type { ApiAuth } from './auth';
import { describeIssue } from './responses';

/**
 * Runtime configuration (`/config.json`): where each deployment's API lives and, for a
 * private mirror, the access token it wants. The same build can point at the local
 * server, a mirror or the public upstream.
 *
 * ```json
 * { "token": "for every deployment", "deployments": { "LIT": { "baseUrl": "https://mirror/lit/v1", "token": "for LIT only" } } }
 * ```
 */

/** What an HTTP header can carry and a bearer token is made of: visible ASCII, no spaces. */
const tokenSchema = z
  .string()
  .min(1, 'token must not be empty')
  .regex(/^[\x21-\x7E]+$/, 'token must be printable ASCII without spaces');

const deploymentConfigSchema = z.object({
  baseUrl: z.string().min(1, 'baseUrl must not be empty').optional(),
  /** This deployment's token; overrides the top-level one. */
  token: tokenSchema.optional(),
  /** The server answers `{baseUrl}/feed` with an Atom feed of a search (the local server does; the upstream does not). */
  feed: z.boolean().optional(),
  /** The server answers `{baseUrl}/facets` with counts by value and takes `product_type` (the local server does). */
  facets: z.boolean().optional(),
});

export const configSchema = z.object({
  /** Sent to every deployment's API, unless the deployment names its own. */
  token: tokenSchema.optional(),
  /** Keyed by deployment key (LIT, DC1, …); a deployment left out uses its local base path. */
  deployments: z.record(z.string(), deploymentConfigSchema).default({}),
});
export type ConfigFile = z.infer<typeof configSchema>;

/** The resolved configuration: an absolute http(s) base URL for every deployment. */
export interface AppConfig {
  readonly baseUrls: Readonly<Record<DeploymentKey, string>>;
  /** Deployments served by a private mirror: the token and the origin it belongs to. */
  readonly auth: Readonly<Partial<Record<DeploymentKey, ApiAuth>>>;
  /** Deployments whose server offers Atom feeds of searches. */
  readonly feeds: ReadonlySet<DeploymentKey>;
  /** Deployments whose server offers `/facets` (src/formats/facets-response.ts). */
  readonly facets: ReadonlySet<DeploymentKey>;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

function resolveBaseUrl(value: string, origin: string, where: string): string {
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    throw new ConfigError(`${where}: "${value}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${where}: "${value}" must be an http(s) URL.`);
  }
  return url.href.replace(/\/+$/, '');
}

/** Validates a parsed config file and resolves relative base URLs against the page. */
export function resolveConfig(raw: unknown, pageUrl: string): AppConfig {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(`${describeIssue(parsed.error.issues[0]!, 'config.json is invalid')}.`);
  }
  const known = new Set(deployments.map((deployment) => deployment.key as string));
  for (const key of Object.keys(parsed.data.deployments)) {
    if (!known.has(key)) {
      throw new ConfigError(`config.json names an unknown deployment "${key}"; expected one of ${[...known].join(', ')}.`);
    }
  }
  const baseUrls = {} as Record<DeploymentKey, string>;
  const auth: Partial<Record<DeploymentKey, ApiAuth>> = {};
  const feeds = new Set<DeploymentKey>();
  const facets = new Set<DeploymentKey>();
  for (const deployment of deployments) {
    const entry = parsed.data.deployments[deployment.key];
    const baseUrl = resolveBaseUrl(entry?.baseUrl ?? deployment.basePath, pageUrl, `deployments.${deployment.key}.baseUrl`);
    baseUrls[deployment.key] = baseUrl;
    const token = entry?.token ?? parsed.data.token;
    if (token) auth[deployment.key] = { token, origin: new URL(baseUrl).origin };
    if (entry?.feed) feeds.add(deployment.key);
    if (entry?.facets) facets.add(deployment.key);
  }
  return { baseUrls, auth, feeds, facets };
}

/** Fetches and resolves `config.json`; every failure becomes a ConfigError with a reason. */
export async function loadConfig(pageUrl: string, options: { fetch?: typeof fetch; path?: string } = {}): Promise<AppConfig> {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const url = new URL(options.path ?? '/config.json', pageUrl).href;
  let response: Response;
  try {
    response = await fetchFn(url, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
  } catch (cause) {
    throw new ConfigError(`Could not load ${url}: ${cause instanceof Error ? cause.message : String(cause)}.`);
  }
  if (!response.ok) throw new ConfigError(`Could not load ${url}: the server answered ${response.status}.`);
  let raw: unknown;
  try {
    raw = await response.json();
  } catch {
    throw new ConfigError(`${url} is not valid JSON.`);
  }
  return resolveConfig(raw, pageUrl);
}

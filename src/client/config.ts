import { z } from 'zod';
import { deployments } from '../deployments/registry';
import type { Deployment, DeploymentKey } from '../deployments/schema';
import { describeIssue } from './responses';

/**
 * Runtime configuration (`/config.json`): where each deployment's API lives. The same
 * build can point at the local server, a mirror or the public upstream.
 */

const deploymentConfigSchema = z.object({
  baseUrl: z.string().min(1, 'baseUrl must not be empty'),
});

export const configSchema = z.object({
  /** Keyed by deployment key (LIT, DC1, …); a deployment left out uses its local base path. */
  deployments: z.record(z.string(), deploymentConfigSchema).default({}),
});
export type ConfigFile = z.infer<typeof configSchema>;

/** The resolved configuration: an absolute http(s) base URL for every deployment. */
export interface AppConfig {
  readonly baseUrls: Readonly<Record<DeploymentKey, string>>;
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
  const entries = deployments.map((deployment: Deployment) => {
    const configured = parsed.data.deployments[deployment.key]?.baseUrl ?? deployment.basePath;
    return [deployment.key, resolveBaseUrl(configured, pageUrl, `deployments.${deployment.key}.baseUrl`)] as const;
  });
  return { baseUrls: Object.fromEntries(entries) as Record<DeploymentKey, string> };
}

/** Fetches and resolves `config.json`; every failure becomes a ConfigError with a reason. */
export async function loadConfig(
  pageUrl: string,
  options: { fetch?: typeof fetch; path?: string } = {},
): Promise<AppConfig> {
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

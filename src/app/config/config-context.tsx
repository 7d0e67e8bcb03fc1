import { createContext, useContext, type ReactNode } from 'react';
import type { ApiAuth } from '../../client/auth';
import type { AppConfig } from '../../client/config';
import type { Deployment } from '../../deployments/schema';

/** The resolved runtime configuration, loaded once before the app renders. */
const ConfigContext = createContext<AppConfig | undefined>(undefined);

export function ConfigProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>;
}

/** The whole configuration, for views that reach every deployment at once. */
export function useAppConfig(): AppConfig {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useAppConfig needs a ConfigProvider');
  return config;
}

export function useBaseUrl(deployment: Deployment): string {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useBaseUrl needs a ConfigProvider');
  return config.baseUrls[deployment.key];
}

/** The Atom feed of a search (query string without `?`), where this deployment's server offers feeds. */
export function useFeedUrl(deployment: Deployment): ((query: string) => string) | undefined {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useFeedUrl needs a ConfigProvider');
  if (!config.feeds.has(deployment.key)) return undefined;
  const base = config.baseUrls[deployment.key];
  return (query) => `${base}/feed${query ? `?${query}` : ''}`;
}

/** Whether this deployment's server offers `/facets` and the `product_type` parameter (config.json). */
export function useHasFacets(deployment: Deployment): boolean {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useHasFacets needs a ConfigProvider');
  return config.facets.has(deployment.key);
}

/** Which deployments' servers offer `/facets` and the extension parameters, for choices that span deployments. */
export function useHasFacetsOf(): (deployment: Deployment) => boolean {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useHasFacetsOf needs a ConfigProvider');
  return (deployment) => config.facets.has(deployment.key);
}

/** The private mirror's token for this deployment's API, if config.json gives one. */
export function useApiAuth(deployment: Deployment): ApiAuth | undefined {
  const config = useContext(ConfigContext);
  if (!config) throw new Error('useApiAuth needs a ConfigProvider');
  return config.auth[deployment.key];
}

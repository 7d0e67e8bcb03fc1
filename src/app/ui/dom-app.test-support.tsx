import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { inject } from 'vitest';
import { loadConfig, type AppConfig } from '../../client/config';
import { ConfigProvider } from '../config/config-context';
import { createQueryClient } from '../config/query-client';

/**
 * Renders a component as the app does (its configuration from the records server's
 * config.json, the app's QueryClient, a router at `path`), for tests that use it as a person
 * would: `user` types and clicks, `location()` is the URL the app is at.
 */

export const recordsServer = inject('recordsServer');

/** The app's configuration as a page of the records server reads it. */
export function appConfig(): Promise<AppConfig> {
  return loadConfig(`${recordsServer}/`);
}

export async function renderInApp(ui: ReactElement, { path = '/', config }: { path?: string; config?: AppConfig } = {}) {
  const seen = { location: '' };
  function Location() {
    const location = useLocation();
    seen.location = `${location.pathname}${location.search}`;
    return null;
  }
  const user = userEvent.setup();
  const result = render(
    <ConfigProvider config={config ?? (await appConfig())}>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[path]}>
          {ui}
          <Location />
        </MemoryRouter>
      </QueryClientProvider>
    </ConfigProvider>,
  );
  return { ...result, user, location: () => seen.location };
}

// First, before any module of this chunk builds a zod schema (shared chunks: vite.config.ts puts the setting in zod's own).
import '../config/zod-jitless';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { ConfigError, loadConfig } from '../../client/config';
import { ConfigErrorPage } from './ConfigErrorPage';
import { ConfigProvider } from '../config/config-context';
import { createQueryClient } from '../config/query-client';
import { AppRoutes } from './routes';
import '../theme.css';

const root = createRoot(document.getElementById('root')!);

async function start() {
  try {
    const config = await loadConfig(window.location.href);
    const queryClient = createQueryClient();
    root.render(
      <StrictMode>
        <ConfigProvider config={config}>
          <QueryClientProvider client={queryClient}>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </QueryClientProvider>
        </ConfigProvider>
      </StrictMode>,
    );
  } catch (error) {
    const message = error instanceof ConfigError || error instanceof Error ? error.message : String(error);
    root.render(<ConfigErrorPage message={message} />);
  }
}

void start();

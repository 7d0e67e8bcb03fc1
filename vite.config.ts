import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { initialJsBudget } from './bench/vite-js-budget.js';

// The dev server forwards API, media and full-text requests to a records server, so the
// app runs against real data with `npm run dev` (start the server with `npm run records serve`).
const recordsServer = process.env.RECORDS_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // The build fails when the initial JavaScript exceeds its gzip budget (bench/js-budget.ts).
  plugins: [react(), initialJsBudget()],
  server: {
    proxy: {
      '/api': recordsServer,
      '/media': recordsServer,
      '/files': recordsServer,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Small entry: the record page is a separate chunk (see src/app/shell/routes.tsx).
    modulePreload: { polyfill: false },
  },
});

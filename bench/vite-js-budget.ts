import type { Plugin } from 'vite';
import { initialJs, initialJsBudgetBytes } from './js-budget.js';

/**
 * Fails `vite build` when the app's initial JavaScript (entry plus its static imports,
 * gzipped) exceeds the budget, so a heavy dependency cannot slip into the first load
 * unnoticed. Registered in vite.config.ts.
 */
export function initialJsBudget(maxGzipBytes = initialJsBudgetBytes): Plugin {
  return {
    name: 'records:initial-js-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, { code: string; imports: readonly string[] }>();
      const entries: string[] = [];
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        chunks.set(output.fileName, { code: output.code, imports: output.imports });
        if (output.isEntry) entries.push(output.fileName);
      }
      const { gzipBytes, files } = initialJs({ chunks, entries });
      const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
      if (gzipBytes > maxGzipBytes) {
        this.error(`initial JavaScript is ${kb(gzipBytes)} gzip (${files.join(', ')}), over the budget of ${kb(maxGzipBytes)}`);
      }
      this.info?.(`initial JavaScript ${kb(gzipBytes)} gzip of ${kb(maxGzipBytes)} budget`);
    },
  };
}

import { gzipSync } from 'node:zlib';

/**
 * The app's initial JavaScript: the entry chunk and every chunk it imports statically,
 * transitively (what the browser must fetch before the first render), gzipped at level 6
 * (zlib's default, and the level the records server sends gzip with).
 * Dynamic imports (lazy routes) are not initial. Shared by the build's budget check and
 * the benchmark report, so both count the same bytes.
 */

/**
 * The first results need the text model's HTML tokenizer and the full HTML entity table
 * (record titles carry `&eacute;` and `<sub>`), so they are initial by necessity, and so are
 * the search box's field chips, combinable facets and the folding that highlights follow,
 * and reading grouped pages (`group=work`: which records are one work's versions; the
 * versions' list itself loads with the first page that has any).
 */
export const initialJsBudgetBytes = 182_000;

export interface ChunkGraph {
  /** File name → its code and the file names it imports statically. */
  readonly chunks: ReadonlyMap<string, { code: string | Uint8Array; imports: readonly string[] }>;
  readonly entries: readonly string[];
}

export function initialJs(graph: ChunkGraph): { files: string[]; rawBytes: number; gzipBytes: number } {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file) || !graph.chunks.has(file)) return;
    seen.add(file);
    for (const imported of graph.chunks.get(file)!.imports) visit(imported);
  };
  for (const entry of graph.entries) visit(entry);
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of seen) {
    const code = graph.chunks.get(file)!.code;
    const bytes = typeof code === 'string' ? Buffer.from(code, 'utf8') : Buffer.from(code);
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes, { level: 6 }).length;
  }
  return { files: [...seen].sort(), rawBytes, gzipBytes };
}

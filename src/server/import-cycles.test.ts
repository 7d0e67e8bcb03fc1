import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/**
 * No module of src imports itself through others, type-only imports included: a cycle hides
 * which of two modules is the lower layer, and the layers' lint (eslint.config.js) cannot see
 * one inside a layer.
 */

const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const relativeImport = /^\s*(?:import|export)\s[^'";]*?from\s+'(\.[^']+)'|^\s*import\s+'(\.[^']+)'/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test(-support)?\.tsx?$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** Every cycle's modules, by Tarjan's strongly connected components. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

it('has no import cycles among the modules of src', () => {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const imports = [...readFileSync(file, 'utf8').matchAll(relativeImport)].map((match) => match[1] ?? match[2]!);
    graph.set(
      relative(src, file),
      imports.flatMap((specifier) => {
        const target = resolveImport(file, specifier);
        return target ? [relative(src, target)] : [];
      }),
    );
  }
  expect(graph.size).toBeGreaterThan(300);
  expect(cycles(graph)).toEqual([]);
});

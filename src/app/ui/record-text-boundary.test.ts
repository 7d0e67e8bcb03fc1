import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

/**
 * The app's components read record fields as RecordText (formats/record-text.ts), which only
 * the text model unwraps. The raw reader `valuesOf` hands out plain strings that React would
 * render as typed (`&amp;` and all), so no component may import it.
 */
const appDir = dirname(dirname(fileURLToPath(import.meta.url)));

function components(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return components(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}

test('no component reads record fields around the text model', () => {
  const rawReader = /import\s*(?:type\s*)?\{[^}]*\bvaluesOf\b[^}]*\}\s*from\s*'[./]+\/formats\/text'/;
  const offenders = components(appDir).filter((path) => rawReader.test(readFileSync(path, 'utf8')));
  expect(offenders.map((path) => relative(appDir, path))).toEqual([]);
});

import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The server's layers as the project's lint (eslint.config.js) holds them: `engine` ← `store`
 * ← `http`, `render` below both, and nothing imports the CLI. An import is linted as if it
 * were written in a file of the layer named, with the project's own import rules.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let eslint: ESLint;

beforeAll(async () => {
  const configUrl = pathToFileURL(resolve(root, 'eslint.config.js')).href;
  const { default: config } = (await import(configUrl)) as { default: Linter.Config[] };
  const importRules = config.filter(
    (entry) =>
      entry.rules?.['boundaries/dependencies'] || (entry.rules?.['no-restricted-imports'] && entry.files?.includes('src/server/**')),
  );
  expect(importRules).toHaveLength(2);
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    // Only the import rules, without type information: the probes are not files of a TypeScript project.
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
      ...importRules.map((entry) => ({ ...entry, ignores: [] })),
    ],
  });
}, 60_000);

/** The import rules' messages for `import … from specifier` written in `file`. */
async function importProblems(file: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import * as probe from '${specifier}';\nexport const used = probe;\n`, {
    filePath: resolve(root, file),
  });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe("the server's layers", () => {
  it.each([
    ['src/server/store/probe.ts', '../http/criteria'],
    ['src/server/store/sqlite/probe.ts', '../../http/respond'],
    ['src/server/render/probe.ts', '../store/types'],
    ['src/server/render/probe.ts', '../http/respond'],
    ['src/server/engine/probe.ts', '../store/engine'],
    ['src/server/engine/probe.ts', '../render/page-body'],
    ['src/server/http/probe.ts', '../cli'],
    ['src/server/store/probe.ts', '../cli'],
  ])('refuse an upward import: %s importing %s', async (file, specifier) => {
    expect(await importProblems(file, specifier)).not.toEqual([]);
  });

  it.each([
    ['src/server/http/probe.ts', '../store/types'],
    ['src/server/http/probe.ts', '../render/page-body'],
    ['src/server/store/probe.ts', '../render/rendered-body'],
    ['src/server/store/probe.ts', '../engine/search'],
  ])('allow a downward one: %s importing %s', async (file, specifier) => {
    expect(await importProblems(file, specifier)).toEqual([]);
  });
});

import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, expect, it } from 'vitest';

/**
 * Test files share their worker's modules (vite.config.ts), so a file that replaces a module
 * must be one Vitest gives a module graph of its own: the project's lint allows `vi.mock` only
 * in `src/**\/*.isolated.test.ts`, the files vite.config.ts runs isolated.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
let eslint: ESLint;

beforeAll(async () => {
  const configUrl = pathToFileURL(resolve(root, 'eslint.config.js')).href;
  const { default: config } = (await import(configUrl)) as { default: Linter.Config[] };
  const rule = config.filter((entry) => entry.rules?.['no-restricted-properties'] && entry.files?.includes('e2e/**/*.test.ts'));
  expect(rule).toHaveLength(1);
  eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    // Only this rule, without type information: the probes are not files of a TypeScript project.
    overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser } }, ...rule],
  });
}, 60_000);

const problems = async (file: string, code: string) => {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, file) });
  return result!.messages.map((message) => message.message);
};

it('refuses a module replaced in a file that shares its worker, in src and in e2e', async () => {
  for (const file of ['src/server/http/probe.test.ts', 'src/app/probe.dom.test.tsx', 'e2e/probe.test.ts']) {
    for (const call of ["vi.mock('./x');", "vi.doMock('./x');"]) {
      expect(await problems(file, call), `${call} in ${file}`).toEqual([expect.stringContaining('name it *.isolated.test.ts') as string]);
    }
  }
});

it('allows it where Vitest isolates the file, and leaves other vi calls alone', async () => {
  expect(await problems('src/server/http/probe.isolated.test.ts', "vi.mock('./x');")).toEqual([]);
  expect(await problems('src/server/http/probe.test.ts', "vi.fn(); vi.spyOn(console, 'error');")).toEqual([]);
  // e2e files are never isolated (vite.config.ts), whatever their name.
  expect(await problems('e2e/probe.isolated.test.ts', "vi.mock('./x');")).toHaveLength(1);
});

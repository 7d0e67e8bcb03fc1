import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { readSummaryLine, summaryLine, type TestTally } from './summary-reporter.js';

/**
 * `npm test`'s test run: the end-to-end project in a Vitest process of its own, beside one
 * that runs every other project. Within one process Vitest runs the e2e files only after the
 * others (they take one file at a time, the others two, and one process runs projects of
 * different worker counts one group after another), while both halves leave much of a
 * two-core machine idle, waiting on the servers, threads and browsers they start. Side by
 * side, each keeps its own worker count: still one Chromium at a time.
 *
 * Each line of output is marked with the run it comes from; each run's summary line is
 * taken out and the two are added up into the last line, which CI log readers read.
 */

// Vitest's command, as its package names it (the package exports no path to it).
const vitestPackage = createRequire(import.meta.url).resolve('vitest/package.json');
const vitest = join(dirname(vitestPackage), (JSON.parse(readFileSync(vitestPackage, 'utf8')) as { bin: { vitest: string } }).bin.vitest);

const runs = [
  { label: 'tests', args: ['--project', '!e2e'] },
  { label: 'e2e', args: ['--project', 'e2e'] },
] as const;

function run(label: string, args: readonly string[]): Promise<{ code: number; tally?: TestTally }> {
  const child = spawn(process.execPath, [vitest, 'run', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
  });
  let tally: TestTally | undefined;
  for (const [stream, out] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ] as const) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      const summary = readSummaryLine(line);
      if (summary) tally = summary;
      else out.write(`[${label}] ${line}\n`);
    });
  }
  return new Promise((resolve) => {
    child.on('error', (error) => {
      process.stderr.write(`[${label}] could not start Vitest: ${error.message}\n`);
      resolve({ code: 1 });
    });
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), tally }));
  });
}

const results = await Promise.all(runs.map(({ label, args }) => run(label, args)));
const total: TestTally = { passed: 0, failed: 0, skipped: 0 };
for (const [i, { code, tally }] of results.entries()) {
  // A run that ended without its summary (a crash, a kill) failed as a whole.
  if (!tally) {
    process.stderr.write(`[${runs[i]!.label}] ended without its summary (exit ${code})\n`);
    total.failed += 1;
    continue;
  }
  total.passed += tally.passed;
  total.failed += tally.failed;
  total.skipped += tally.skipped;
}
console.log(summaryLine(total));
process.exitCode = results.some(({ code }) => code !== 0) || total.failed > 0 ? 1 : 0;

import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Ends every test run with one plain line, "N passed, N failed, N skipped", which CI log
 * readers understand whatever the runner. A file that fails to load, or an unhandled
 * error, counts as a failure.
 */
export interface TestTally {
  passed: number;
  failed: number;
  skipped: number;
}

export const summaryLine = ({ passed, failed, skipped }: TestTally): string => `${passed} passed, ${failed} failed, ${skipped} skipped`;

/** The tally a summary line gives, undefined for any other line. */
export function readSummaryLine(line: string): TestTally | undefined {
  const match = /^(\d+) passed, (\d+) failed, (\d+) skipped$/.exec(line);
  return match ? { passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3]) } : undefined;
}

export class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of modules) {
      const tests = [...module.children.allTests()];
      if (tests.length === 0 && module.state() === 'failed') failed++;
      for (const test of tests) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
    }
    console.log(`\n${summaryLine({ passed, failed, skipped })}`);
  }
}

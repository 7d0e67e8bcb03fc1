import type { Reporter, SerializedError, TestModule } from 'vitest/node';

/**
 * Ends every test run with one plain line, "N passed, N failed, N skipped", which CI log
 * readers understand whatever the runner. A file that fails to load, or an unhandled
 * error, counts as a failure.
 */
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
    console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}

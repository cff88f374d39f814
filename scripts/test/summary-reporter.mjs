/**
 * A vitest reporter used by `pnpm test` (scripts/test.mjs) next to the default one: it writes one JSON summary
 * of the run to the file named by `XSVC_TEST_SUMMARY` — per file its project, state, wall time, import time
 * and test time; the counts of files, tests and `expect` calls (see count-expects.ts) — which the driver
 * prints after every phase has ended. It prints nothing itself.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export default class SummaryReporter {
  /** @param {import('vitest/node').Vitest} vitest */
  onInit(vitest) {
    this.root = vitest.config.root;
    this.started = performance.now();
  }

  /** @param {ReadonlyArray<import('vitest/node').TestModule>} modules */
  onTestRunEnd(modules, unhandledErrors) {
    const target = process.env.XSVC_TEST_SUMMARY;
    if (!target) return;
    const files = modules.map((module) => {
      const d = module.diagnostic();
      const tests = { passed: 0, failed: 0, skipped: 0, pending: 0 };
      let expects = 0;
      for (const test of module.children.allTests()) {
        tests[test.result().state] = (tests[test.result().state] ?? 0) + 1;
        expects += test.meta().expectCalls ?? 0;
      }
      return {
        file: relative(this.root, module.moduleId),
        project: module.project.name,
        state: module.state(),
        // Wall time of the file in its worker: environment, setup files, import (collect) and the tests.
        seconds:
          (d.environmentSetupDuration +
            d.prepareDuration +
            d.setupDuration +
            d.collectDuration +
            d.duration) /
          1000,
        importSeconds: d.collectDuration / 1000,
        testSeconds: d.duration / 1000,
        tests,
        expects,
      };
    });
    const sum = (pick) => files.reduce((total, f) => total + pick(f), 0);
    const summary = {
      wallSeconds: (performance.now() - this.started) / 1000,
      files: files.length,
      tests: sum((f) => f.tests.passed + f.tests.failed + f.tests.skipped + f.tests.pending),
      passed: sum((f) => f.tests.passed),
      failed: sum((f) => f.tests.failed),
      skipped: sum((f) => f.tests.skipped + f.tests.pending),
      expects: sum((f) => f.expects),
      importSeconds: sum((f) => f.importSeconds),
      testSeconds: sum((f) => f.testSeconds),
      unhandledErrors: unhandledErrors.length,
      perFile: files.sort((a, b) => b.seconds - a.seconds),
    };
    writeFileSync(target, `${JSON.stringify(summary, null, 2)}\n`);
  }
}

/**
 * A setup file of every vitest project (added by the root `vitest.config.ts`): records how many `expect` calls
 * each test made in its task metadata, so that `pnpm test` can print the run's total next to the counts of
 * files and tests (vitest reports neither per test). It reads the counter vitest itself keeps for
 * `expect.assertions()`, and asserts nothing.
 */
import { afterEach, expect, type TestContext } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** `expect` calls made by the test (global `expect` plus the test context's own). */
    expectCalls?: number;
  }
}

/** Vitest marks a context whose own `expect` was used with `_local` (its calls do not reach the global one). */
type CountedContext = TestContext & { readonly _local?: boolean };

afterEach((context: CountedContext) => {
  // Read `context.expect` only when the test used it: the getter creates it, and vitest would then check
  // `expect.assertions()` against the new, empty one.
  const local = context._local ? context.expect.getState().assertionCalls : 0;
  context.task.meta.expectCalls = expect.getState().assertionCalls + local;
});

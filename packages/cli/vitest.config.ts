import { defineConfig } from 'vitest/config';

// Each test file gets its own module graph: ink and the command layer resolve different majors of the same
// helpers (strip-ansi, ansi-regex), which must not be shared between files. The tests play a user at a
// terminal, so CI detection (ink draws only the last frame under `CI`; the CLI prints lines there) is off;
// `output.test.ts` covers the CI behaviour with an explicit environment.
export default defineConfig({
  test: {
    name: 'cli',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { CI: 'false', CONTINUOUS_INTEGRATION: 'false' },
  },
});

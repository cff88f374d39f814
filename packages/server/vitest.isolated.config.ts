import { defineConfig } from 'vitest/config';

/**
 * The server's test files that cannot share a module graph with the others (see vitest.config.ts); each of
 * them runs in a fresh one. Add a file here only with the reason it needs its own.
 */
export const ISOLATED_FILES: readonly string[] = [
  // Both check what the id module's process-wide state makes of given times (the first UUIDv7 of a
  // millisecond carries it; the sequence within one): another file's ids, made earlier in the same worker,
  // would be part of that state, and their own far-future times would move every later file's ids.
  'test/core/ids.test.ts',
  'test/hot-path/ledger-id.test.ts',
];

export default defineConfig({
  test: {
    name: 'server-isolated',
    include: [...ISOLATED_FILES],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

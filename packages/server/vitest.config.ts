import { configDefaults, defineConfig } from 'vitest/config';
import { ISOLATED_FILES } from './vitest.isolated.config.js';

// The files share one module graph per worker (no per-file isolation): the server's modules, Fastify, Kysely
// and the contract's schemas load once per worker instead of once per file, which takes the project's import
// time from about 120 s to about 20 s. The tests leave no state behind them that another file reads: each one
// builds its own server, database and clock, and none mocks a module or stubs the environment. The few files
// that need a fresh module graph run in the `server-isolated` project (vitest.isolated.config.ts);
// `--project 'server*'` selects both.
export default defineConfig({
  test: {
    name: 'server',
    isolate: false,
    exclude: [...configDefaults.exclude, ...ISOLATED_FILES],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});

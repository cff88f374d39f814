import { defineConfig } from 'vitest/config';

// The files share one module graph per worker (no per-file isolation): the contract's schemas and msw load
// once instead of once per file, which halves the project's time. The tests leave no state behind them: each
// file starts and closes its own msw server, and fake timers and stubbed variables are restored after each test.
export default defineConfig({ test: { name: 'sdk', isolate: false } });

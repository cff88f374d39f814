import { defineConfig } from 'vitest/config';

// Pure functions and in-memory stores: the files share one module graph per worker (no per-file isolation),
// so fast-check and the verifier load once.
export default defineConfig({ test: { name: 'webhook-verifier', isolate: false } });

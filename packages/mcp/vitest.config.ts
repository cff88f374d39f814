import { defineConfig } from 'vitest/config';

// The files share one module graph (no per-file isolation): the MCP SDK, msw and the contract load once.
export default defineConfig({
  test: { name: 'mcp', isolate: false, testTimeout: 15_000, hookTimeout: 20_000 },
});

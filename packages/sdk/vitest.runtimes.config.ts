import { defineConfig } from 'vitest/config';

// Bun and Deno runs (`pnpm test:runtimes`): zod is transformed with the tests, because Bun's loader does not
// hand `export * as z` of zod's ESM build to Vitest's module runner (the namespace arrives without `z`).
export default defineConfig({ test: { name: 'sdk', server: { deps: { inline: ['zod'] } } } });

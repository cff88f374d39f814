import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Every package, example and the docs that has its own vitest config (a new one is picked up by itself). */
const roots = ['packages', 'examples']
  .flatMap((dir) => readdirSync(dir).map((name) => `${dir}/${name}`))
  .concat('docs')
  .filter((root) => existsSync(`${root}/vitest.config.ts`));

// Counts each test's `expect` calls for the summary `pnpm test` prints (scripts/test.mjs); asserts nothing.
const countExpects = fileURLToPath(new URL('./scripts/test/count-expects.ts', import.meta.url));

// One vitest run covers every package, example and the docs; each project keeps its own config file.
export default defineConfig({
  test: {
    projects: roots.map((root) => ({
      extends: `./${root}/vitest.config.ts`,
      root: `./${root}`,
      test: { setupFiles: [countExpects] },
    })),
  },
});

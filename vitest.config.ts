import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Every package, example and the docs that has its own vitest config (a new one is picked up by itself), and
 * a second project where a package also has a `vitest.isolated.config.ts` (the server: most of its files share
 * one module graph per worker, the few that need their own run in that second project).
 */
const configs = ['packages', 'examples']
  .flatMap((dir) => readdirSync(dir).map((name) => `${dir}/${name}`))
  .concat('docs')
  .flatMap((root) =>
    ['vitest.config.ts', 'vitest.isolated.config.ts']
      .filter((file) => existsSync(`${root}/${file}`))
      .map((file) => ({ root, file })),
  );

// Counts each test's `expect` calls for the summary `pnpm test` prints (scripts/test.mjs); asserts nothing.
const countExpects = fileURLToPath(new URL('./scripts/test/count-expects.ts', import.meta.url));

// One vitest run covers every package, example and the docs; each project keeps its own config file.
export default defineConfig({
  test: {
    projects: configs.map(({ root, file }) => ({
      extends: `./${root}/${file}`,
      root: `./${root}`,
      test: { setupFiles: [countExpects] },
    })),
  },
});

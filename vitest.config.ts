import { defineConfig } from 'vitest/config';

// One vitest run covers every package, example and the bench helpers' own tests.
export default defineConfig({
  test: {
    projects: ['packages/*', 'examples/*', 'docs'],
  },
});

import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    contract: 'src/contract/index.ts',
    testing: 'src/testing/index.ts',
    draws: 'src/draws/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  sourcemap: true,
  // `@xsvc/sdk`: the testing entry imports the root entry's types by name instead of bundling a copy.
  external: ['zod', 'msw', '@xsvc/webhook-verifier', '@xsvc/sdk'],
});

import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    contract: 'src/contract/index.ts',
    testing: 'src/testing/index.ts',
    draws: 'src/draws/index.ts',
    transport: 'src/transport.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  target: 'es2022',
  platform: 'neutral',
  splitting: false,
  sourcemap: true,
  // `@xsvc/sdk`: the testing and transport entries import the root entry's types by name instead of bundling
  // a copy (one `Transport` declaration: `xsvc.transport` fits where `@xsvc/sdk/transport` types one).
  external: ['zod', 'msw', '@xsvc/webhook-verifier', '@xsvc/sdk'],
});

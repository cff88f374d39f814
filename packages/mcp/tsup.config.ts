import { defineConfig } from 'tsup';

// The library entry (typed) and the stdio bin; both ESM for Node 20.
export default defineConfig({
  entry: { index: 'src/index.ts', bin: 'src/bin.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  target: 'node20',
  platform: 'node',
  sourcemap: true,
});

import { defineConfig } from 'tsup';

// Two builds with one API: `index` (Web Crypto, runtime-neutral) and `node` (node:crypto, sync variants).
// The package.json export conditions choose between them; both ship ESM and CJS with their own typings.
// One config (not two run in parallel) so `clean` cannot race the other build's output. `platform: neutral`
// keeps Node shims out of `index`; `node:*` imports of the node entry stay external.
export default defineConfig({
  entry: { index: 'src/index.ts', node: 'src/node.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'neutral',
  splitting: false,
  external: [/^node:/],
  removeNodeProtocol: false,
});

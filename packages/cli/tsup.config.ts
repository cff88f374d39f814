import { defineConfig } from 'tsup';

// The library entry (typed) and the bin, ESM for Node 20. Code splitting keeps what only running a command
// needs (the SDK, the contract, ink) in chunks loaded on demand, so `xsvc --help` starts fast.
export default defineConfig({
  entry: { index: 'src/index.ts', bin: 'src/bin.ts' },
  format: ['esm'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  splitting: true,
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  // Bundled: one file loads faster than commander's own module graph, on every start. Its `require`s of
  // Node built-ins need a `require` in ESM.
  noExternal: ['commander'],
  banner: {
    js: "import { createRequire as __xsvcRequire } from 'node:module';\nconst require = __xsvcRequire(import.meta.url);",
  },
});

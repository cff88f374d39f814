import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * Commander requires `node:child_process` at load, for executable subcommands the CLI never declares;
 * compiling that built-in costs about 15 ms on every start. Commander gets a stand-in that loads it on
 * first use instead.
 */
const lazyChildProcess: EsbuildPlugin = {
  name: 'lazy-child-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy-builtin' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents: "module.exports = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      loader: 'js',
    }));
  },
};

/**
 * The SDK's root and transport entries, bundled from the SDK's source (the workspace package beside this
 * one) rather than imported from its dist at run time. An operation command then loads the SDK as one chunk
 * of this build instead of two packages' files resolved through node_modules, each with its own copy of the
 * route table (`@xsvc/sdk` and `@xsvc/sdk/transport` are separate bundles of the SDK): one module graph, so
 * one `ApiError` class for the whole CLI. The contract (zod), draws and testing entries stay external.
 */
const sdkFromSource: EsbuildPlugin = {
  name: 'sdk-from-source',
  setup(build) {
    const entries: Record<string, string> = {
      '@xsvc/sdk': '../sdk/src/index.ts',
      '@xsvc/sdk/transport': '../sdk/src/transport.ts',
    };
    build.onResolve({ filter: /^@xsvc\/sdk(\/transport)?$/ }, (args) => ({
      path: fileURLToPath(new URL(entries[args.path]!, import.meta.url)),
    }));
  },
};

/** What both builds share: ESM for Node 20, the bundled packages, the plugins above. */
const shared: Options = {
  format: ['esm'],
  splitting: true,
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  // Bundled: one file loads faster than commander's own module graph, on every start (and string-width's
  // seven small modules on every table). Commander's `require`s of Node built-ins need a `require` in ESM.
  noExternal: [
    /^@xsvc\/sdk(\/transport)?$/,
    'commander',
    'string-width',
    'strip-ansi',
    'ansi-regex',
    'get-east-asian-width',
  ],
  esbuildPlugins: [lazyChildProcess, sdkFromSource],
  // Its stripping of `node:` would resolve built-ins before the plugin above sees them.
  removeNodeProtocol: false,
  banner: {
    js: "import { createRequire as __xsvcRequire } from 'node:module';\nconst require = __xsvcRequire(import.meta.url);",
  },
};

// The library entry (typed) and the bin, each its own build into dist/ (`pnpm build` empties it first).
// Code splitting keeps what only running a command needs (the SDK, the contract, ink) in chunks loaded on
// demand, so `xsvc --help` starts fast. Built apart, the bin's chunks are cut by its own dynamic imports
// alone, not also by what it shares with the library entry: fewer files, each of which costs module
// resolution on every start. esbuild still cuts a chunk per set of dynamic entries a module is reachable
// from (it does not know that a lazy module's importer is loaded already), so `xsvc users get jack` loads
// 26 files of dist/ (measured 2026-12-04 with strace).
export default defineConfig([
  { ...shared, entry: { index: 'src/index.ts' }, dts: { entry: { index: 'src/index.ts' } } },
  { ...shared, entry: { bin: 'src/bin.ts' } },
]);

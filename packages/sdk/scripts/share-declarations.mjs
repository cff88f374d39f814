/**
 * Ships the root entry's declarations once. tsup writes the same types twice (`index.d.ts` for `import`,
 * `index.d.cts` for `require`); an ES module may import CommonJS, so `index.d.ts` becomes a re-export of
 * `index.d.cts`. Both conditions then see one set of declarations (one `Xsvc`, one `ApiError`), and the
 * package carries its types once (about 270 KB) instead of twice. Run by `pnpm build` after tsup.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const dir = new URL('../dist/', import.meta.url);
// Declarations come out indented by four spaces a level; two read as well and weigh less.
const full = readFileSync(new URL('index.d.cts', dir), 'utf8').replace(/^(?: {4})+/gm, (s) =>
  s.slice(s.length / 2),
);
writeFileSync(new URL('index.d.cts', dir), full);
const def = /export \{[^}]*\b(\w+) as default\b[^}]*\}/.exec(full)?.[1];
if (!def) throw new Error('dist/index.d.cts has no default export');
writeFileSync(
  new URL('index.d.ts', dir),
  [
    '// The declarations live in index.d.cts (shared by `import` and `require`).',
    "export * from './index.cjs';",
    `import { ${def} } from './index.cjs';`,
    `export default ${def};`,
    '',
  ].join('\n'),
);

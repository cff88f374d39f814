/**
 * Runs after `tsup` (`pnpm build`): folds the `Database` augmentations into the bundled declarations.
 *
 * In the sources, each feature's `tables.ts` (and the simulated platform's) adds its tables to `Database`
 * with `declare module '../../core/db/schema.js' { interface Database { … } }`. The declaration bundler copies
 * those blocks verbatim into `dist/index.d.ts`, where the relative module name points nowhere and the
 * augmentation is silently dropped: the published `Database` would hold the core tables only. In the bundle
 * `Database` is a top-level interface of the one module, so a second top-level `interface Database { … }`
 * merges into it: this script unwraps each such `declare module` block into that. It fails the build when a
 * block has another shape or the bundle has no top-level `Database`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const file = join(import.meta.dirname, '../dist/index.d.ts');
const text = readFileSync(file, 'utf8');
const opener = /^declare module '(?:\.\.\/)+core\/db\/schema\.js' \{\n/gm;

if (!/^interface Database \{$/m.test(text)) throw new Error(`${file}: no top-level interface Database`);

let out = '';
let last = 0;
let merged = 0;
for (const m of text.matchAll(opener)) {
  const start = m.index;
  const close = text.indexOf('\n}\n', start);
  if (close < 0) throw new Error(`${file}: unterminated declare module at ${start}`);
  const body = text.slice(start + m[0].length, close + 1);
  if (!/^ {4}interface Database \{\n(?: {8}\w+: \w+;\n)+ {4}\}\n$/.test(body))
    throw new Error(`${file}: unexpected augmentation of core/db/schema.js:\n${body}`);
  out += text.slice(last, start) + body.replace(/^ {4}/gm, '');
  last = close + 3;
  merged++;
}
out += text.slice(last);
if (merged === 0) throw new Error(`${file}: no augmentation of Database found`);
writeFileSync(file, out);
console.log(`merged ${merged} Database augmentations into ${file}`);

/**
 * Ships declarations once. tsup writes the same types twice (`x.d.ts` for `import`, `x.d.cts` for
 * `require`); an ES module may import CommonJS, so `x.d.ts` becomes a re-export of `x.d.cts`. Both
 * conditions then see one set of declarations (one `Xsvc`, one `ApiError`), and the package carries its
 * types once. Only for entries whose own type imports resolve to one file under both conditions (zod's do;
 * msw's do not, so `testing` keeps its two files). Run by `pnpm build` after tsup.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const dir = new URL('../dist/', import.meta.url);

// Declarations come out indented by four spaces a level; two read as well and weigh less (every file: the
// entries and the chunks they share).
for (const file of readdirSync(dir).filter((f) => /\.d\.c?ts$/.test(f))) {
  const text = readFileSync(new URL(file, dir), 'utf8');
  writeFileSync(
    new URL(file, dir),
    text.replace(/^(?: {4})+/gm, (s) => s.slice(s.length / 2)),
  );
}

for (const entry of ['index', 'contract', 'transport']) {
  const full = readFileSync(new URL(`${entry}.d.cts`, dir), 'utf8');
  const def = /export \{[^}]*?\b(\w+) as default\b[^}]*\}/.exec(full)?.[1];
  const lines = [
    `// The declarations live in ${entry}.d.cts (shared by \`import\` and \`require\`).`,
    `export * from './${entry}.cjs';`,
  ];
  if (def) lines.push(`import { ${def} } from './${entry}.cjs';`, `export default ${def};`);
  writeFileSync(new URL(`${entry}.d.ts`, dir), `${lines.join('\n')}\n`);
}

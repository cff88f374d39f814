#!/usr/bin/env node
// Moves TypeScript modules (files or folders) with `git mv` and rewrites every relative import that pointed
// at them, in the moved files and everywhere else. Usage: node scripts/dev/move-modules.mjs map.txt
// where each line of map.txt is `<from> <to>` (paths relative to the repository root).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const lines = readFileSync(process.argv[2], 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

const tracked = execFileSync('git', ['ls-files', '*.ts', '*.tsx', '*.mts', '*.mjs'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(Boolean)
  .map((f) => join(root, f));

/** old absolute path → new absolute path, for every moved file. */
const moves = new Map();
for (const line of lines) {
  const [from, to] = line.split(/\s+/);
  const a = join(root, from);
  const b = join(root, to);
  if (!existsSync(a)) throw new Error(`missing ${from}`);
  if (statSync(a).isDirectory()) {
    for (const f of tracked) if (f.startsWith(`${a}/`)) moves.set(f, join(b, relative(a, f)));
  } else moves.set(a, b);
}

const SPEC =
  /(from\s+|import\s*\(\s*|import\s+|vi\.mock\(\s*|vi\.importActual(?:<[^>]*>)?\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;

function resolveSpec(fromFile, spec) {
  const base = resolve(dirname(fromFile), spec);
  const candidates = [
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

const newOf = (f) => moves.get(f) ?? f;
let rewritten = 0;
const outputs = new Map();
for (const file of tracked) {
  if (file.includes('/node_modules/') || file.includes('/dist/')) continue;
  const src = readFileSync(file, 'utf8');
  const fileNew = newOf(file);
  const out = src.replace(SPEC, (all, lead, q, spec) => {
    const target = resolveSpec(file, spec);
    if (!target) return all;
    const targetNew = newOf(target);
    if (targetNew === target && fileNew === file) return all;
    let rel = relative(dirname(fileNew), targetNew);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    const keepIndex = !spec.endsWith('.js') && !spec.endsWith('.ts') && target.endsWith('/index.ts');
    let next = keepIndex ? dirname(rel) : rel.replace(/\.tsx?$/, spec.endsWith('.ts') ? '.ts' : '.js');
    if (!spec.endsWith('.js') && !spec.endsWith('.ts') && !keepIndex) next = next.replace(/\.js$/, '');
    if (next !== spec) rewritten++;
    return `${lead}${q}${next}${q}`;
  });
  if (out !== src) outputs.set(file, out);
}
for (const [from, to] of moves) {
  execFileSync('mkdir', ['-p', dirname(to)]);
  execFileSync('git', ['mv', from, to], { cwd: root });
}
for (const [file, out] of outputs) writeFileSync(newOf(file), out);
console.log(`moved ${moves.size} files, rewrote ${rewritten} imports in ${outputs.size} files`);

/**
 * One reader of zod's internals: `src/contract/introspect.ts`. Every other source, script and benchmark reads
 * schemas through its helpers (`@xsvc/sdk/contract`), so a zod upgrade that moves `_zod.def` breaks one file.
 * This scan fails, listing file:line, wherever `_zod`, `._def` or `.def` is read anywhere else.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ALLOWED = new Set(['packages/sdk/src/contract/introspect.ts']);
const SKIP_DIRS = new Set(['node_modules', 'dist', '.turbo', 'coverage', '.vitepress']);
const SOURCE = /\.(?:[cm]?[jt]s|tsx)$/;
/** `x._zod`, `'_zod' in x`, zod 3's `._def`, and a `.def` property read (`schema.def`, `x._zod.def.type`). */
const INTERNAL = /\b_zod\b|\._def\b|\.def\b/;

function* files(dir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (SKIP_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (SOURCE.test(name)) yield path;
  }
}

/** The directories scanned: every package's sources and scripts, the docs scripts and the benchmarks. */
function scanned(): string[] {
  const packages = readdirSync(join(root, 'packages'));
  return [
    ...packages.flatMap((p) => [join(root, 'packages', p, 'src'), join(root, 'packages', p, 'scripts')]),
    join(root, 'docs', 'scripts'),
    join(root, 'bench'),
  ];
}

/** `file:line: text` of every read of zod internals outside the allowed module. */
function offenders(): string[] {
  const out: string[] = [];
  for (const dir of scanned()) {
    for (const path of files(dir)) {
      const rel = relative(root, path).split('\\').join('/');
      if (ALLOWED.has(rel)) continue;
      readFileSync(path, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (INTERNAL.test(line)) out.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
    }
  }
  return out;
}

describe('zod internals', () => {
  it('scans the sources (the allowed module itself reads them)', () => {
    const text = readFileSync(join(root, 'packages/sdk/src/contract/introspect.ts'), 'utf8');
    expect(INTERNAL.test(text)).toBe(true);
  });

  it('are read only by src/contract/introspect.ts', () => {
    const found = offenders();
    expect(
      found,
      `read zod internals through @xsvc/sdk/contract's helpers (introspect.ts) instead:\n${found.join('\n')}`,
    ).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The packages a built module loads before running anything: the closure of its static imports through
 * relative files (dynamic `import()`s, loaded only by the commands that need them, are not followed), both
 * those it imports and those bundled into the files it loads (named by esbuild's `// <path>` comment above
 * each bundled module: `node_modules/<package>/…`, or the SDK's source, `../sdk/src/…`, see tsup.config.ts).
 * Used by the cold-start benchmark and by the test that keeps the help path free of the SDK, zod, ink and
 * react.
 */
export function staticPackages(
  file: string,
  seen = new Set<string>(),
  packages = new Set<string>(),
): Set<string> {
  if (seen.has(file)) return packages;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const m of source.matchAll(BUNDLED)) packages.add(m[1] ?? '@xsvc/sdk');
  for (const m of source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)"|^import\s*"([^"]+)"/gm)) {
    const spec = (m[1] ?? m[2]) as string;
    if (spec.startsWith('.')) staticPackages(join(dirname(file), spec), seen, packages);
    else packages.add(spec);
  }
  return packages;
}

/** esbuild's comment naming a bundled module of a package: its name, or none for the SDK's source. */
const BUNDLED = /^\/\/ (?:\S*\/node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\/|(?:\.\.\/)+sdk\/src\/)/gm;

/** The packages that must not load on every start (they cost tens to hundreds of milliseconds). */
export const HEAVY_PACKAGES = /^(@xsvc\/sdk|zod|ink|react)(\/|$)/;

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/**
 * The version of the running `@xsvc/server`, read from its package.json: found by walking up from this
 * module, which works from the sources and from the bundled `dist/` alike.
 */
export function serverVersion(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === '@xsvc/server' && pkg.version) {
        cached = pkg.version;
        return cached;
      }
    } catch {
      /* not here: go up */
    }
    dir = dirname(dir);
  }
  cached = '0.0.0';
  return cached;
}

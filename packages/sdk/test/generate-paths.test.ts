import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');

/** The entry points every workspace package publishes: `@xsvc/sdk`, `@xsvc/sdk/contract`, … */
function publishedEntries(): string[] {
  return readdirSync(join(root, 'packages')).flatMap((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, unknown>;
    };
    return Object.keys(pkg.exports ?? { '.': null })
      .filter((key) => key !== './package.json')
      .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
  });
}

describe('tsconfig.generate.json', () => {
  // The generators run from source on a fresh clone (no dist): an entry point without a path mapping makes
  // `pnpm generate` fail there, as `@xsvc/sdk/transport` once did.
  it('maps every published entry point of the workspace packages to its source', () => {
    const text = readFileSync(join(root, 'tsconfig.generate.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '');
    const paths = (JSON.parse(text) as { compilerOptions: { paths: Record<string, string[]> } })
      .compilerOptions.paths;
    expect(publishedEntries().filter((entry) => !paths[entry])).toEqual([]);
  });
});

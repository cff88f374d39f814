/**
 * The generated client files are committed: regenerating them from the contract in memory must give the
 * files as they are, so a contract change without `pnpm generate` fails here, not in an app.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate } from '../scripts/generate.js';

describe('generated client files', () => {
  const files = generate();

  it('covers the types, routes, resources and client', () => {
    expect(Object.keys(files).sort()).toEqual([
      'client.generated.ts',
      'resources.generated.ts',
      'routes.generated.ts',
      'types.generated.ts',
    ]);
  });

  for (const [name, text] of Object.entries(files)) {
    it(`${name} is up to date with the contract`, () => {
      const committed = readFileSync(new URL(`../src/client/${name}`, import.meta.url), 'utf8');
      // A mismatch means: run `pnpm generate` and commit the result.
      expect(committed === text, `${name} is stale: run pnpm generate`).toBe(true);
    });
  }
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commands } from '../src/table/commands.generated.js';
import { cli, serveMockedApi, WORK } from './helpers.js';

// The contract (zod and every schema) costs more to load than the rest of a command: a command line that
// passes the generated quick checks must run without it.
vi.mock('@xsvc/sdk/contract', () => {
  throw new Error('the contract was loaded');
});

serveMockedApi();
beforeAll(() => {
  // The files the upload examples name.
  for (const f of ['launch.png', 'avatar.png', 'banner.jpg']) writeFileSync(join(WORK, f), 'image bytes');
});

/** `xsvc tweets search "from:jack" --limit 50` → its words (quotes kept together). */
function words(example: string): string[] {
  return [...example.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

describe('an operation command does not load the contract on its hot path', () => {
  it.each(commands.filter((c) => !c.redirect).map((c) => [c.path.join(' '), c] as const))(
    '%s: its example runs without it',
    async (_p, spec) => {
      const env = Object.fromEntries(
        spec.flags.flatMap((f) => (f.secret ? [[f.secret, `example-${f.flag}`]] : [])),
      );
      const res = await cli([...words(spec.example), ...(spec.write ? ['--no-wait'] : []), '--json'], {
        env,
      });
      expect(res.stderr).not.toContain('the contract was loaded');
      expect([0, 8]).toContain(res.code);
    },
  );

  it('a command line the quick checks refuse is explained by the contract (loaded then)', async () => {
    const res = await cli(['tweets', 'search']);
    expect(res.stderr).toMatch(/the contract was loaded|error when mocking/);
  });
});

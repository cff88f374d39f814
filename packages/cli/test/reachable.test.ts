import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operations } from '@xsvc/sdk/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../src/table/commands.generated.js';
import { cli, recordRequests, serveMockedApi, WORK } from './helpers.js';

serveMockedApi();
beforeAll(() => {
  // The files the upload examples name.
  for (const f of ['launch.png', 'avatar.png', 'banner.jpg']) writeFileSync(join(WORK, f), 'image bytes');
});

/** `xsvc tweets search "from:jack" --limit 50` → its words (quotes kept together). */
function words(example: string): string[] {
  return [...example.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

/** `/api/v1/x/tweets/{id}` as a pattern matching a filled-in path. */
const pathPattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);

describe('every operation of the contract is reachable from the command line', () => {
  it.each(operations.map((o) => [o.id, o] as const))(
    '%s: its example sends the operation',
    async (_id, op) => {
      const spec = commands.find((c) => c.op === op.id)!;
      const argv = words(spec.example);
      expect(argv.slice(0, spec.path.length)).toEqual(spec.path);
      const seen = recordRequests();
      // Secret flags are never in an example (argv would keep them in the shell history): the
      // environment variable each one names supplies them here.
      const env = Object.fromEntries(
        spec.flags.flatMap((f) => (f.secret ? [[f.secret, `example-${f.flag}`]] : [])),
      );
      const res = await cli([...argv, ...(spec.write ? ['--no-wait'] : []), '--json'], { env });
      expect(
        res.stderr.includes('usage_error') || res.stderr.includes('invalid_input') ? res.stderr : '',
      ).toBe('');
      expect([0, 8]).toContain(res.code);
      if (spec.redirect) {
        // A browser page (OAuth authorize): the URL to open is printed, nothing is fetched.
        expect(seen).toHaveLength(0);
        expect(new URL(res.json<{ url: string }>().url).pathname).toBe(op.path);
        return;
      }
      expect(seen).toHaveLength(1);
      expect(seen[0]!.method).toBe(op.method);
      expect(seen[0]!.path).toMatch(pathPattern(op.path));
    },
  );

  it.each(commands.map((c) => [c.path.join(' '), c] as const))(
    '%s --dry-run describes the same request, sending nothing',
    async (_p, spec) => {
      const seen = recordRequests();
      const res = await cli([...words(spec.example), '--dry-run', '--json']);
      expect(res.code).toBe(0);
      expect(seen).toHaveLength(0);
      const dry = res.json<{ method: string; url: string; curl: string }>();
      expect(dry.method).toBe(spec.method);
      expect(new URL(dry.url).pathname).toMatch(pathPattern(spec.route));
      expect(dry.curl).not.toContain('svc_');
    },
  );
});

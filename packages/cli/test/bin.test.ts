import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HEAVY_PACKAGES, staticPackages } from '../scripts/static-packages.js';
import { tempConfigHome } from './helpers.js';

/** Smoke tests of the built bin (`pnpm -C packages/cli build`; `pnpm test` builds first). */
const BIN = join(import.meta.dirname, '../dist/bin.js');
const home = tempConfigHome();

function xsvc(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    input,
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!existsSync(BIN))('the built bin', () => {
  it('prints help and the version, exit 0', () => {
    expect(xsvc(['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: xsvc') });
    expect(xsvc(['tweets', 'get', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('GET /api/v1/x/tweets/{id}'),
    });
    expect(xsvc(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('loads no SDK, zod, ink or react before running a command (help stays fast)', () => {
    const eager = [...staticPackages(BIN)];
    expect(eager.filter((p) => HEAVY_PACKAGES.test(p))).toEqual([]);
  });

  it('runs a command through its lazily loaded chunks (dry run: no server needed)', () => {
    const res = xsvc(['tweets', 'get', '20', '--dry-run']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(
      'curl http://127.0.0.1:8787/api/v1/x/tweets/20 -H "x-api-key: $XSVC_API_KEY"',
    );
  });

  it('exits 2 on a usage error and 4 without a key', () => {
    expect(xsvc(['tweets', 'search']).code).toBe(2);
    const noKey = xsvc(['account', 'get']);
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toContain('xsvc login');
  });

  it('never prompts when stdin is not a terminal', () => {
    const res = xsvc(['login'], '');
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--api-key');
  });
});

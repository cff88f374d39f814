import { describe, expect, it } from 'vitest';
import { commands } from '../src/table/commands.generated.js';
import { cli } from './helpers.js';

describe('help', () => {
  it('lists every resource with its actions', async () => {
    const res = await cli(['--help']);
    expect(res.code).toBe(0);
    for (const resource of new Set(commands.map((c) => c.path[0]!)))
      expect(res.stdout).toMatch(new RegExp(`^  ${resource}\\b`, 'm'));
    expect(res.stdout).toMatch(/tweets\s+batch, search, get/);
  });

  it('shows every command with its arguments, typed flags, the request and an example', async () => {
    for (const spec of commands) {
      const res = await cli([...spec.path, '--help']);
      expect(res.code, spec.op).toBe(0);
      expect(res.stdout, spec.op).toContain(`Usage: xsvc ${spec.path.join(' ')}`);
      expect(res.stdout, spec.op).toContain(`${spec.method} ${spec.route}`);
      expect(res.stdout, spec.op).toContain(`Example:\n  $ xsvc ${spec.example}`);
      for (const f of spec.flags) expect(res.stdout, `${spec.op} --${f.flag}`).toContain(`--${f.flag}`);
    }
  });

  it('shows the choices of enum flags and the listing, write and file flags where they apply', async () => {
    const search = (await cli(['tweets', 'search', '--help'])).stdout;
    expect(search).toMatch(/choices:\s+"Latest", "Top"/);
    expect(search).toContain('--all');
    expect(search).toContain('--cursor <cursor>');
    const create = (await cli(['tweets', 'create', '--help'])).stdout;
    expect(create).toContain('--no-wait');
    expect(create).toContain('--idempotency-key <key>');
    expect((await cli(['draws', 'export', '--help'])).stdout).toContain('--output <file>');
  });

  it('xsvc help exit-codes documents every exit code', async () => {
    const res = await cli(['help', 'exit-codes']);
    for (const line of [
      /^\s+0\s+success/m,
      /^\s+1\s/m,
      /^\s+2\s+usage/m,
      /^\s+4\s+auth/m,
      /^\s+5\s+payment/m,
      /^\s+6\s+rate/m,
      /^\s+8\s+a durable write/m,
    ]) {
      expect(res.stdout).toMatch(line);
    }
  });

  it("xsvc help <command> is that command's help; an unknown topic is a usage error", async () => {
    expect((await cli(['help', 'tweets', 'search'])).stdout).toContain('Usage: xsvc tweets search');
    expect((await cli(['help', 'environment'])).stdout).toContain('XSVC_API_KEY');
    const bad = await cli(['help', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no command or help topic "nope"');
  });

  it('prints the version', async () => {
    const res = await cli(['--version']);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

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

describe('every command and action describes itself', () => {
  /** Every command path of the program, as `--help` walks it (the real interactive commands included). */
  async function allPaths(): Promise<string[][]> {
    const res = await cli(['completion', 'bash'], { interactive: 'real' });
    expect(res.code).toBe(0);
    const top = (await cli(['--help'], { interactive: 'real' })).stdout;
    const names = [...top.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]!);
    const paths: string[][] = [];
    const walk = async (path: string[]) => {
      paths.push(path);
      const help = (await cli([...path, '--help'], { interactive: 'real' })).stdout;
      const section = help.split(/^Commands:\n/m)[1]?.split(/\n\n/)[0] ?? '';
      for (const m of section.matchAll(/^ {2}([a-z][\w-]*)/gm))
        if (m[1] !== 'help') await walk([...path, m[1]!]);
    };
    for (const n of names) if (n !== 'help') await walk([n]);
    return paths;
  }

  it('has a description in its --help: a sentence, not a bare list of its actions', async () => {
    const paths = await allPaths();
    expect(paths.length).toBeGreaterThan(150);
    for (const path of paths) {
      const help = (await cli([...path, '--help'], { interactive: 'real' })).stdout;
      const description = help.split('\n\n')[1] ?? '';
      expect(description, path.join(' ')).toMatch(/^[A-Z`].*\w.*[.)]\s*$|^[A-Z`][^\n]+\n/s);
      expect(description, path.join(' ')).not.toMatch(/^(Options|Arguments|Commands|Global Options):/);
      expect(description.split(/\s+/).length, path.join(' ')).toBeGreaterThanOrEqual(3);
    }
  });

  it('compose --help says that plain `xsvc compose` opens the interactive form', async () => {
    const res = await cli(['compose', '--help'], { interactive: 'real' });
    expect(res.stdout).toContain('Write a post with the compose tool');
    expect(res.stdout).toMatch(/Without an action, `xsvc compose` opens this as an interactive form/);
    expect(res.stdout).not.toMatch(/^run\.$/m);
  });

  it('logout has a description', async () => {
    expect((await cli(['logout', '--help'])).stdout).toContain('\nRemove the API key of a profile.\n');
  });
});

describe('help environment', () => {
  it('lists every variable of the README, from one source (src/program/environment.ts)', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { environmentMarkdown, environmentVariables } = await import('../src/program/environment.js');
    const readme = readFileSync(join(import.meta.dirname, '../README.md'), 'utf8');
    const indented = environmentMarkdown()
      .split('\n')
      .map((l) => `  ${l}`)
      .join('\n');
    expect(readme).toContain(indented);
    const listed = [...readme.matchAll(/^ {2}\| (`[A-Z_]+`(?:, `[A-Z_]+`)*)/gm)].flatMap((m) =>
      m[1]!.split(', ').map((n) => n.replace(/`/g, '')),
    );
    const help = (await cli(['help', 'environment'])).stdout;
    for (const name of listed) expect(help, name).toMatch(new RegExp(`\\b${name}\\b`));
    expect(listed.sort()).toEqual(
      environmentVariables()
        .flatMap((v) => v.names)
        .sort(),
    );
    expect(listed).toContain('XSVC_PASSWORD');
  });
});

import { describe, expect, it } from 'vitest';
import { COMMAND_GROUPS } from '../src/program/command-groups.js';
import { commands } from '../src/table/commands.generated.js';
import { cli } from './helpers.js';

const byPath = (path: string) => commands.find((c) => c.path.join(' ') === path)!;

describe('help', () => {
  it('lists every resource in its group, with a summary of its own, then examples and where to learn more', async () => {
    const res = await cli(['--help']);
    expect(res.code).toBe(0);
    for (const resource of new Set(commands.map((c) => c.path[0]!))) {
      expect(res.stdout).toMatch(new RegExp(`^  ${resource}\\b`, 'm'));
      expect(COMMAND_GROUPS[resource], `${resource}: add it to src/program/command-groups.ts`).toBeDefined();
    }
    const section = (heading: string) => res.stdout.split(`\n${heading}\n`)[1]?.split('\n\n')[0] ?? '';
    expect(section('Core commands:')).toMatch(/^ {2}tweets\s+Search, read and post tweets/m);
    expect(section('Account commands:')).toMatch(/^ {2}whoami\s+Show the account/m);
    expect(section('Additional commands:')).toMatch(/^ {2}compose\b/m);
    expect(section('Service and developer commands:')).toMatch(/^ {2}api\b/m);
    const order = [
      'Core commands:',
      'Account commands:',
      'Additional commands:',
      'Options:',
      'Examples:',
      'Learn more:',
    ];
    const at = order.map((h) => res.stdout.indexOf(`\n${h}\n`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(section('Examples:')).toContain('$ xsvc whoami');
    expect(res.stdout).not.toMatch(/tweets\s+batch, search, get/);
  });

  it('a resource lists its actions with examples; no command lists the global flags in full', async () => {
    const res = await cli(['tweets', '--help']);
    expect(res.stdout).toMatch(/^ {2}search \[options\] \[query\]\s+Search tweets/m);
    expect(res.stdout).toContain('Examples:\n  $ xsvc tweets batch');
    expect(res.stdout).not.toMatch(/^ {2}help \[command\]/m);
    const get = (await cli(['users', 'get', '--help'])).stdout;
    expect(get).not.toContain('Global Options:');
    expect(get).toContain('Global flags: --json [fields], --jq <filter>');
  });

  it('keeps the wire details the CLI handles out of a command help, unless --verbose', async () => {
    const plain = (await cli(['tweets', 'search', '--help'])).stdout;
    expect(plain).not.toMatch(/Style-B|409|410|next_cursor/);
    expect(plain).toContain("`q` takes the platform's search operators");
    expect(plain).toContain('`--help --verbose` adds how cursors and retries work');
    const verbose = (await cli(['tweets', 'search', '--help', '--verbose'])).stdout;
    expect(verbose).toMatch(/On the wire \(xsvc does this for you\): Style-B pages/);
    expect(verbose).toContain('410 coverage_cursor_gone');
  });

  it('examples use the positional argument and the flag names the command offers', async () => {
    expect(byPath('tweets search').example).toBe('tweets search "from:jack" --query-type Latest --limit 50');
    expect(byPath('webhooks create').example).toMatch(/^webhooks create https:\/\/\S+ --events tweet\.new/);
    for (const spec of commands) {
      const offered = new Set(spec.flags.map((f) => f.flag));
      for (const f of spec.flags) if (f.alias) expect(spec.example, spec.op).not.toContain(`--${f.alias} `);
      for (const [, flag = ''] of spec.example.matchAll(/ --([a-z][\w-]*)/g)) {
        if (flag.startsWith('no-')) continue;
        const own =
          offered.has(flag) ||
          [
            'all',
            'limit',
            'cursor',
            'output',
            'json',
            'wait',
            'no-wait',
            'idempotency-key',
            'data',
            'pay',
          ].includes(flag);
        expect(own, `${spec.op}: --${flag}`).toBe(true);
      }
    }
  });

  it('takes choices in any case and sends them as the contract spells them', async () => {
    const res = await cli(['tweets', 'search', 'hello', '--query-type', 'latest', '--dry-run']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('queryType=Latest');
    const bad = await cli(['tweets', 'search', 'hello', '--query-type', 'newest']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Allowed choices are Latest, Top.');
    expect((await cli(['completion', 'BASH'])).code).toBe(0);
  });

  it('shows every command with its arguments, typed flags, the request and an example', async () => {
    for (const spec of commands) {
      const res = await cli([...spec.path, '--help']);
      expect(res.code, spec.op).toBe(0);
      expect(res.stdout, spec.op).toContain(`Usage: xsvc ${spec.path.join(' ')}`);
      expect(res.stdout, spec.op).toContain(`Request    ${spec.method} ${spec.route}`);
      expect(res.stdout, spec.op).toContain(`Reference  docs/reference/${spec.op}.md`);
      expect(res.stdout, spec.op).toContain(`Examples:\n  $ xsvc ${spec.example}`);
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

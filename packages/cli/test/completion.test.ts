import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, WORK } from './helpers.js';

let bashFile = '';

beforeAll(async () => {
  const res = await cli(['completion', 'bash'], { interactive: 'real' });
  expect(res.code).toBe(0);
  bashFile = join(WORK, 'xsvc.bash');
  writeFileSync(bashFile, res.stdout);
});

/** What bash completes for the words typed so far (the last one being completed). */
function complete(...words: string[]): string[] {
  const line = ['xsvc', ...words];
  const script = `source ${JSON.stringify(bashFile)}; COMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${line.length - 1}; _xsvc; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

describe('bash completion (generated from the command table, run in bash)', () => {
  it('completes resources, actions and nested actions', () => {
    expect(complete('twe')).toEqual(['tweets']);
    expect(complete('tweets', 'se')).toEqual(['search']);
    expect(complete('monitors', 'keywords', 'cr')).toEqual(['create']);
    expect(complete('monitors', 'w')).toEqual(['watch']);
    expect(complete('pro')).toEqual(expect.arrayContaining(['profile', 'profiles']));
  });

  it('completes the flags of the command typed, global ones included', () => {
    expect(complete('tweets', 'search', '--query-t')).toEqual(['--query-type']);
    expect(complete('tweets', 'search', '--js')).toEqual(['--json']);
    expect(complete('users', 'followers', 'jack', '--al')).toEqual(['--all']);
  });

  it("completes a flag's choices, and skips flag values when finding the command", () => {
    expect(complete('tweets', 'search', '--query-type', '')).toEqual(['Latest', 'Top']);
    expect(complete('--profile', 'work', 'tweets', 'se')).toEqual(['search']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
    expect(complete('extractions', 'run', 'follower_')).toEqual(['follower_explorer']);
  });
});

describe('zsh and fish completion', () => {
  it('zsh: a compdef function with descriptions, never touching $path', async () => {
    const res = await cli(['completion', 'zsh'], { interactive: 'real' });
    expect(res.stdout.startsWith('#compdef xsvc\n')).toBe(true);
    expect(res.stdout).toContain("'tweets search|--query-type') print -rl -- 'Latest' 'Top' ;;");
    expect(res.stdout).toMatch(/'tweets'\) print -rl -- 'batch:Get up to 100 tweets/);
    expect(res.stdout).not.toMatch(/local[^\n]*\bpath\b/);
    expect(res.stdout).toContain('compdef _xsvc xsvc');
  });

  it('fish: complete lines conditioned on the command path', async () => {
    const res = await cli(['completion', 'fish'], { interactive: 'real' });
    expect(res.stdout).toContain(
      "complete -c xsvc -n '__xsvc_is \\'tweets search\\'' -l query-type -x -a 'Latest Top'",
    );
    expect(res.stdout).toContain("complete -c xsvc -n '__xsvc_is \\'\\'' -a 'tweets'");
  });

  it('refuses other shells', async () => {
    const res = await cli(['completion', 'powershell']);
    expect(res.code).toBe(2);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCliArgs, UsageError } from '../src/cli-args.js';

describe('xsvc-mcp arguments', () => {
  it('defaults to read-only, every toolset', () => {
    expect(parseCliArgs([])).toEqual({ enableWrites: false, readOnly: false, help: false, version: false });
  });

  it('reads the flags', () => {
    expect(
      parseCliArgs(['--enable-writes', '--toolsets', 'tweets,users', '--toolsets=writes']),
    ).toMatchObject({
      enableWrites: true,
      toolsets: ['tweets', 'users', 'writes'],
    });
    expect(parseCliArgs(['--read-only']).readOnly).toBe(true);
    expect(parseCliArgs(['-h']).help).toBe(true);
  });

  it('refuses what it does not know', () => {
    expect(() => parseCliArgs(['--writes'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--toolsets'])).toThrow(/needs a list/);
  });
});

/** Only the bin's files may use Node: the library is mounted by servers on any runtime. */
const NODE_ONLY = new Set(['bin.ts', 'cli.ts']);

describe('the root entry', () => {
  it('imports nothing from node:*', () => {
    const dir = join(import.meta.dirname, '../src');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !NODE_ONLY.has(f))) {
      const source = readFileSync(join(dir, file), 'utf8');
      expect(source, file).not.toMatch(/from ['"](node:|msw\/node|@modelcontextprotocol\/server\/stdio)/);
      expect(source, file).not.toMatch(/\bprocess\.(env|std|exit|argv|on)/);
    }
  });
});

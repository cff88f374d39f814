import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completionModel } from '../src/completion/model.js';
import { buildProgram } from '../src/program/build.js';
import { interactiveSpecs } from '../src/program/interactive-table.js';
import { fullTree } from '../src/table/tree.js';
import { captured } from './helpers.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** The pages a new user reads first: every `xsvc` line there must run as printed. */
const PAGES = ['docs/guides/cli.md', 'docs/getting-started.md', 'packages/cli/README.md', 'README.md'];

/** Every `xsvc …` command line in the shell blocks of a Markdown page, as words (quotes kept together). */
function commandLines(markdown: string): string[][] {
  const blocks = [...markdown.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const lines: string[][] = [];
  for (const block of blocks) {
    for (const m of block.matchAll(/(?:^|[\s($;|&])xsvc ([^;|&)#<>\n]*)/gm)) {
      lines.push([...m[1]!.matchAll(/"[^"]*"|'[^']*'|\S+/g)].map((w) => w[0]));
    }
  }
  return lines;
}

const tree = await fullTree();

describe('the guides use the flag names the CLI offers (help and completion)', () => {
  const io = {
    stdout: captured(),
    stderr: captured(),
    stdin: captured(),
    env: {},
    cwd: ROOT,
    home: ROOT,
  } as unknown as Parameters<typeof buildProgram>[0]['io'];
  const program = buildProgram(
    { io, argv: ['completion', 'bash'], exitCode: 0 },
    ['completion', 'bash'],
    interactiveSpecs(),
    tree,
  );
  const nodes = new Map(completionModel(program).map((n) => [n.path, n]));

  it.each(PAGES)('%s', (page) => {
    const lines = commandLines(readFileSync(join(ROOT, page), 'utf8'));
    expect(lines.length).toBeGreaterThan(0);
    for (const words of lines) {
      let path = '';
      for (const w of words) {
        if (w.startsWith('-')) break;
        const next = path ? `${path} ${w}` : w;
        if (!nodes.has(next)) break;
        path = next;
      }
      const node = nodes.get(path);
      expect(node, `xsvc ${words.join(' ')}: no such command`).toBeDefined();
      const offered = new Set(node!.flags.map((f) => f.name));
      for (const w of words) {
        const flag = /^--[a-z][\w-]*/.exec(w)?.[0];
        if (!flag) continue;
        const ok = offered.has(flag) || (flag.startsWith('--no-') && offered.has(`--${flag.slice(5)}`));
        expect(ok, `${page}: xsvc ${words.join(' ')}: ${flag} is not offered by \`xsvc ${path}\``).toBe(true);
      }
    }
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commands, run } from '@xsvc/cli';
import { bootstrapOwner, createServer, parseConfig } from '@xsvc/server';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCodeBlocks, type CodeBlock, shellLines, xsvcInvocations } from '../scripts/code-blocks.js';
import { DOCS_DIR, memoryIo, shellWords } from '../scripts/generate-reference.js';

const blocks = allCodeBlocks();
const where = (b: CodeBlock) => `docs/${b.file}:${b.line}`;

/** The strictest compiler settings a snippet can meet (only unused names are allowed: snippets show parts). */
const STRICTEST: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  useUnknownInCatchVariables: true,
  allowUnreachableCode: false,
  isolatedModules: true,
  verbatimModuleSyntax: true,
  esModuleInterop: true,
  skipLibCheck: true,
  allowJs: true,
  checkJs: false,
  noEmit: true,
  types: ['node'],
};

describe('TypeScript and JavaScript blocks', () => {
  const code = blocks.filter((b) => ['ts', 'typescript', 'js', 'javascript', 'mjs'].includes(b.lang));

  it('type-check against the packages under the strictest settings (JavaScript: syntax)', () => {
    const checked = code.filter((b) => !b.meta.includes('no-check'));
    // Inside docs/ so that `@xsvc/*`, express, fastify, hono and msw resolve from docs/node_modules.
    const dir = join(DOCS_DIR, 'node_modules/.cache/xsvc-code-blocks');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = new Map<string, CodeBlock>();
    checked.forEach((b, i) => {
      const ext = b.lang.startsWith('t') ? 'mts' : 'mjs';
      const path = join(dir, `block-${i}.${ext}`);
      writeFileSync(path, `${b.code}\nexport {};\n`);
      files.set(path, b);
    });
    const program = ts.createProgram([...files.keys()], STRICTEST);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.has(d.file.fileName))
      .map((d) => {
        const b = files.get(d.file!.fileName)!;
        const { line } = d.file!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `docs/${b.file}:${b.line + 1 + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(problems).toEqual([]);
    expect(checked.length).toBeGreaterThan(150); // the guides' blocks and one SDK call per reference page
    rmSync(dir, { recursive: true, force: true });
  });

  it('skip the check only for runtime-specific snippets (Deno, Bun, framework entry files)', () => {
    const skipped = code.filter((b) => b.meta.includes('no-check'));
    for (const b of skipped) expect(b.code, where(b)).toMatch(/Deno\.|Bun\.|export const POST/);
  });
});

describe('JSON blocks', () => {
  it('parse', () => {
    for (const b of blocks.filter((x) => x.lang === 'json'))
      expect(() => JSON.parse(b.code), where(b)).not.toThrow();
  });
});

/** Where the CLI runs: a scratch directory holding the files examples name (`--file ./launch.png`). */
const scratch = mkdtempSync(join(tmpdir(), 'xsvc-docs-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function cli(args: string[], env: Record<string, string> = {}) {
  for (const a of args) if (/^\.\/[\w.-]+$/.test(a)) writeFileSync(join(scratch, a), 'x');
  const m = memoryIo(scratch, env, Date.now);
  const code = await run(args, m.io);
  await new Promise((r) => setImmediate(r));
  return { code, out: m.out(), err: m.err() };
}

const PLACEHOLDER = /^<[\w -]+>$/;

/**
 * The arguments of an invocation, redirections dropped. Placeholders (`<id>`, `<session-id>`) take the value
 * the command's own contract example gives that position or flag, so they are valid where the example is.
 */
function argsOf(invocation: string): string[] {
  const line = invocation.replace(/\s\d?>>?\s*(?!\S*>)\S+/g, '').replace(/\s<\s+\S+/g, '');
  const args = shellWords(line).slice(1);
  if (!args.some((a) => PLACEHOLDER.test(a))) return args;
  const path = commandPath(args.map((a) => (PLACEHOLDER.test(a) ? 'x' : a)));
  const example = commands.find((c) => c.path.join(' ') === path.join(' '))?.example;
  const sample = example ? shellWords(example).slice(path.length) : [];
  const positional = sample.filter((w, i) => !w.startsWith('-') && !sample[i - 1]?.startsWith('--'));
  let n = 0;
  return args.map((a, i) => {
    if (i < path.length) return a;
    const prev = args[i - 1];
    if (!PLACEHOLDER.test(a)) {
      if (!a.startsWith('-') && !prev?.startsWith('--')) n++;
      return a;
    }
    if (prev?.startsWith('--')) return sample[sample.indexOf(prev) + 1] ?? a;
    return positional[n++] ?? a;
  });
}

/** Global flags that take a value, and may come before the command. */
const GLOBAL_WITH_VALUE = new Set(['--profile', '--base-url', '--jq']);

/** The arguments without global flags placed before the command (`xsvc --profile p account get`). */
function leadingGlobalsDropped(args: string[]): string[] {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += GLOBAL_WITH_VALUE.has(args[i]!) ? 2 : 1;
  return args.slice(i);
}

/** The command a list of arguments names: the longest prefix of words that is a command of the CLI. */
function commandPath(all: string[]): string[] {
  const args = leadingGlobalsDropped(all);
  const words = args.slice(0, args.findIndex((a) => a.startsWith('-')) >>> 0);
  for (let n = Math.min(3, words.length); n > 0; n--) {
    const p = words.slice(0, n).join(' ');
    if (commands.some((c) => c.path.join(' ') === p) || BUILTINS.has(p)) return words.slice(0, n);
  }
  return [];
}

/** Commands of the CLI beyond the contract's operations. */
const BUILTINS = new Set([
  'login',
  'logout',
  'whoami',
  'auth status',
  'profiles list',
  'profiles use',
  'profiles remove',
  'api',
  'completion',
  'help',
  'draws verify',
  'monitors watch',
  'webhooks listen',
  'webhooks trigger',
  'write-actions watch',
]);

const shellBlocks = blocks.filter((b) => ['sh', 'bash', 'shell'].includes(b.lang));
const invocations = shellBlocks.flatMap((b) =>
  shellLines(b.code).flatMap((l) => xsvcInvocations(l).map((inv) => ({ block: b, inv }))),
);

describe('shell blocks', () => {
  it('name only commands and flags the CLI has', async () => {
    expect(invocations.length).toBeGreaterThan(100);
    const problems: string[] = [];
    const helpOf = new Map<string, string>();
    for (const { block, inv } of invocations) {
      const args = argsOf(inv);
      const path = commandPath(args);
      if (path.length === 0 && args.every((a) => ['--help', '-h', '--version', '-v'].includes(a))) continue;
      if (path.length === 0) {
        problems.push(`${where(block)}: \`${inv}\` names no command`);
        continue;
      }
      const key = path.join(' ');
      if (!helpOf.has(key)) {
        const h = await cli([...path, '--help']);
        if (h.code !== 0) problems.push(`${where(block)}: \`xsvc ${key} --help\` exited ${h.code}`);
        helpOf.set(key, h.out);
      }
      for (const a of args.filter((x) => x.startsWith('--'))) {
        const flag = a.split('=')[0]!;
        const base = flag.replace(/^--no-/, '--');
        if (!helpOf.get(key)!.includes(flag) && !helpOf.get(key)!.includes(base))
          problems.push(`${where(block)}: \`xsvc ${key}\` has no ${flag}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('build valid requests for every operation they call (--dry-run validates every value)', async () => {
    const problems: string[] = [];
    for (const { block, inv } of invocations) {
      const args = argsOf(inv);
      const key = commandPath(args).join(' ');
      if (!commands.some((c) => c.path.join(' ') === key)) continue;
      // The request is what is checked: output options (--all, --jq, --json fields) do not apply to it.
      if (args.includes('--profile')) continue; // names a profile saved by an earlier `xsvc login`
      const output = (a: string, prev?: string) =>
        a === '--all' ||
        a === '--jq' ||
        prev === '--jq' ||
        a.startsWith('--json') ||
        (prev === '--json' && !a.startsWith('-'));
      const request = args.filter((a, i) => !output(a, args[i - 1]));
      const r = await cli([...request, '--dry-run', '--json'], {
        XSVC_API_KEY: `svc_${'0'.repeat(64)}`,
      });
      if (r.code !== 0) problems.push(`${where(block)}: \`${inv}\` exited ${r.code}: ${r.err.trim()}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('shell blocks against a test server', () => {
  let server: Awaited<ReturnType<typeof createServer>>;
  let base = '';
  const key = `svc_${'ab'.repeat(32)}`;
  beforeAll(async () => {
    server = await createServer(
      parseConfig({ databaseUrl: ':memory:', seedSize: 'tiny', logLevel: 'silent', bootstrapApiKey: key }),
    );
    await bootstrapOwner(server.services.database, server.services.config, Date.now());
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => server?.close());

  /** Writes that touch only the test server's own database (no platform account, no outbound request). */
  const SAFE_WRITES = new Set([
    'createMonitor',
    'createKeywordMonitor',
    'analyzeStyle',
    'createDraft',
    'compose',
    'estimateExtraction',
    'getViralScore',
  ]);

  it("run, in page order, the guides' reads and local writes that need no placeholder", async () => {
    const runnable = invocations.filter(({ block, inv }) => {
      if (block.file.startsWith('reference/') || /<[\w -]+>/.test(inv) || inv.includes('--profile'))
        return false;
      const args = argsOf(inv);
      const op = commands.find((c) => c.path.join(' ') === commandPath(args).join(' '));
      return op !== undefined && !args.includes('--all') && (op.method === 'GET' || SAFE_WRITES.has(op.op));
    });
    expect(runnable.length).toBeGreaterThan(25);
    const problems: string[] = [];
    let page = '';
    for (const { block, inv } of runnable) {
      if (block.file !== page) {
        // Each page starts from a server without monitors, as its reader's would.
        page = block.file;
        const list = await fetch(`${base}/api/v1/monitors`, { headers: { 'x-api-key': key } });
        for (const m of ((await list.json()) as { monitors: { id: string }[] }).monitors)
          await fetch(`${base}/api/v1/monitors/${m.id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
      }
      const r = await cli([...argsOf(inv), '--base-url', base], { XSVC_API_KEY: key });
      if (r.code !== 0) problems.push(`${where(block)}: \`${inv}\` exited ${r.code}: ${r.err.trim()}`);
    }
    expect(problems).toEqual([]);
  });
});

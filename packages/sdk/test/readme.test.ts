/**
 * The README's TypeScript snippets, as a user copies them: each is type-checked against the built package
 * with the strictest settings (fixtures/strict/tsconfig.json), then run against the mocks of
 * `@xsvc/sdk/testing` (msw in this process: no network). A snippet preceded by
 * `<!-- readme-test: compile only … -->` is only type-checked.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHandlers } from '../src/testing/index.js';
import { strictDir, typeErrors } from './strict-tsc.js';

interface Snippet {
  line: number;
  code: string;
  run: boolean;
}

function snippets(markdown: string): Snippet[] {
  const out: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end++;
    let prev = i - 1;
    while (prev >= 0 && lines[prev]!.trim() === '') prev--;
    const compileOnly = prev >= 0 && /<!-- readme-test: compile only/.test(lines[prev]!);
    out.push({ line: start + 1, code: lines.slice(start, end).join('\n'), run: !compileOnly });
    i = end;
  }
  return out;
}

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const all = snippets(readme);
// Inside the package, so that `@xsvc/sdk` resolves to the built package through its own `exports`.
const dir = join(strictDir, `.readme-${process.pid}`);
const fileOf = (s: Snippet, ext: string) => join(dir, `readme-line-${s.line}.${ext}`);

const BASE = 'http://127.0.0.1:8787';
const server = setupServer(
  ...createHandlers({
    baseUrl: BASE,
    overrides: {
      // Extraction jobs end at once, so `run.wait()` returns.
      getExtraction: { job: { status: 'completed' } },
    },
  }),
);

beforeAll(() => {
  mkdirSync(dir, { recursive: true });
  server.listen({ onUnhandledRequest: 'error' });
  vi.stubEnv('XSVC_API_KEY', `svc_${'0'.repeat(64)}`);
  vi.stubEnv('XSVC_BASE_URL', BASE);
});
afterAll(() => {
  server.close();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

describe('README snippets', () => {
  it('has TypeScript snippets, the Quick start among them', () => {
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(all[0]!.code).toContain("new Xsvc({ apiKey: process.env['XSVC_API_KEY'] })");
    expect(readme).not.toMatch(/account: '@me'/);
  });

  it('compile with the strictest settings', () => {
    // Each snippet is its own module (`export {}` keeps top-level await and names local to it).
    const sources = Object.fromEntries(all.map((s) => [fileOf(s, 'ts'), `${s.code}\nexport {};\n`]));
    expect(typeErrors([], sources)).toEqual([]);
  }, 60_000);

  for (const s of all.filter((x) => x.run)) {
    it(`runs the snippet at README line ${s.line} against the mocks`, async () => {
      const js = ts.transpileModule(`${s.code}\nexport {};\n`, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
      writeFileSync(fileOf(s, 'mjs'), js);
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      try {
        await import(fileOf(s, 'mjs'));
      } finally {
        log.mockRestore();
      }
    }, 20_000);
  }
});

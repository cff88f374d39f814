/**
 * The fenced code blocks of the documentation, for the checks of `test/code-blocks.test.ts`: TypeScript
 * blocks are type-checked against the packages, JSON blocks parsed, shell blocks' `xsvc` commands resolved
 * against the CLI (and the safe ones run against a test server).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DOCS_DIR } from './generate-reference.js';

export interface CodeBlock {
  /** Page path under `docs/`. */
  readonly file: string;
  /** Line of the opening fence (1-based). */
  readonly line: number;
  readonly lang: string;
  /** The rest of the fence's info string (`no-check` skips the type check). */
  readonly meta: string;
  readonly code: string;
}

const SKIPPED_DIRS = new Set(['node_modules', 'dev', '.vitepress', 'scripts', 'test']);

export function markdownPages(dir = DOCS_DIR): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) {
      if (!SKIPPED_DIRS.has(e.name) && !e.name.startsWith('.')) out.push(...markdownPages(join(dir, e.name)));
    } else if (e.name.endsWith('.md')) out.push(relative(DOCS_DIR, join(dir, e.name)));
  }
  return out.sort();
}

/** Every fenced block of a page (``` fences; the language is the first word of the info string). */
export function codeBlocks(file: string, text: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([\w-]*)\s*(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '```', lang = '', meta = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j]!.trimStart().startsWith(fence); j++)
      body.push(lines[j]!.slice(indent.length));
    blocks.push({ file, line: i + 1, lang: lang.toLowerCase(), meta: meta.trim(), code: body.join('\n') });
    i = j;
  }
  return blocks;
}

export function allCodeBlocks(): CodeBlock[] {
  return markdownPages().flatMap((f) => codeBlocks(f, readFileSync(join(DOCS_DIR, f), 'utf8')));
}

/** Logical lines of a shell block: continuation lines joined, comments and blank lines dropped. */
export function shellLines(code: string): string[] {
  return code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => stripComment(l).trim())
    .filter(Boolean);
}

/** A shell line without its `#` comment (a `#` inside quotes or a word is not one). */
function stripComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i);
  }
  return line;
}

/**
 * The `xsvc …` invocations of a shell line, as written (a line may chain several with `&&`, `||`, `;` or
 * pipes, or use one inside `$(…)`). Quoted text is kept intact.
 */
export function xsvcInvocations(line: string): string[] {
  const out: string[] = [];
  const parts: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      current += c;
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
      current += c;
    } else if (c === '&' || c === '|' || c === ';' || c === '(' || c === ')') {
      parts.push(current);
      current = '';
    } else current += c;
  }
  parts.push(current);
  for (const p of parts) {
    const m = /^\s*(?:!\s*)?(?:[A-Z_]+=\S*\s+)*(?:if\s+!?\s*)?(?:\w+=\$)?xsvc(\s.*)?$/.exec(p);
    if (m) out.push(`xsvc${m[1] ?? ''}`.trim());
  }
  return out;
}

/**
 * What an editor shows on every operation method: an `@example` with a call of that very method, and a
 * `@see` link to the operation's reference page. Read with the TypeScript checker from the client's source,
 * as an editor does (so a hand-written override in `src/client/extensions/` is checked too), and each
 * example is then compiled behind the preamble the hover leaves out (the import and the client), as an app
 * would compile it, against the built package with the strictest settings.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { referenceUrl } from '../../../docs/site.js';
import { HOVER_PREAMBLE, hoverExample, REFERENCE_DIR, referenceExample } from '../scripts/generate.js';
import type { AnyOperation } from '../src/contract/operation.js';
import { operations } from '../src/contract/operations/index.js';
import { strictDir, typeErrors } from './strict-tsc.js';

const ops = operations as readonly AnyOperation[];
const testDir = fileURLToPath(new URL('.', import.meta.url));
const probe = join(testDir, 'method-docs-probe.ts');
const source = [
  "import { Xsvc } from '../src/index.js';",
  'const xsvc = new Xsvc();',
  ...ops.map((op, i) => `export const m${i} = xsvc.${op.sdk.join('.')};`),
  '',
].join('\n');

interface MethodDocs {
  readonly example?: string;
  readonly see?: string;
}

/** The `@example` and `@see` of every operation's method, by operation id, and the probe's diagnostics. */
function readDocs(): { docs: Map<string, MethodDocs>; errors: string[] } {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  const exists = host.fileExists.bind(host);
  host.fileExists = (f) => f === probe || exists(f);
  host.getSourceFile = (f, lang, ...rest) =>
    f === probe ? ts.createSourceFile(f, source, lang, true) : read(f, lang, ...rest);
  const program = ts.createProgram([probe], options, host);
  const checker = program.getTypeChecker();
  const sf = program.getSourceFile(probe)!;
  const errors = ts
    .getPreEmitDiagnostics(program, sf)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  const docs = new Map<string, MethodDocs>();
  sf.statements.filter(ts.isVariableStatement).forEach((stmt) => {
    const decl = stmt.declarationList.declarations[0]!;
    if (!ts.isIdentifier(decl.name) || !decl.name.text.startsWith('m')) return;
    const op = ops[Number(decl.name.text.slice(1))]!;
    const init = decl.initializer as ts.PropertyAccessExpression;
    const tags = checker.getSymbolAtLocation(init.name)?.getJsDocTags(checker) ?? [];
    const text = (name: string) => {
      const tag = tags.find((t) => t.name === name);
      return tag && ts.displayPartsToString(tag.text);
    };
    const example = text('example');
    const see = text('see');
    docs.set(op.id, { ...(example !== undefined && { example }), ...(see !== undefined && { see }) });
  });
  return { docs, errors };
}

/** The code of an `@example` (its fenced TypeScript block). */
function exampleCode(example: string): string | undefined {
  return /```ts\n([\s\S]*?)\n```/.exec(example)?.[1];
}

describe('operation methods in an editor', () => {
  const { docs, errors } = readDocs();

  it('reach every operation by its SDK path', () => {
    expect(errors).toEqual([]);
    expect([...docs.keys()].sort()).toEqual(ops.map((op) => op.id).sort());
  });

  it('carry an @example calling the method itself, the code of its reference page without its preamble', () => {
    const lacking = ops.filter((op) => {
      const code = exampleCode(docs.get(op.id)?.example ?? '');
      return !code?.includes(`xsvc.${op.sdk.join('.')}(`);
    });
    expect(lacking.map((op) => op.id)).toEqual([]);
    for (const op of ops) {
      const page = referenceExample(op.id);
      expect(page, op.id).toBeDefined();
      const hover = exampleCode(docs.get(op.id)!.example!);
      expect(hover, op.id).toBe(hoverExample(page!));
      // The hover shows the call: the import and the client (said once, on `Xsvc`) are left out.
      expect(hover, op.id).not.toMatch(/from '@xsvc\/sdk'|new Xsvc\(|XSVC_API_KEY/);
    }
  });

  it('link to the reference page of the operation, which the docs site has', () => {
    // A link the editor recognises: shown as "searchTweets in the API reference", opening the page.
    const link = (id: string) => `{@link ${referenceUrl(id)} ${id} in the API reference}`;
    const lacking = ops.filter((op) => docs.get(op.id)?.see !== link(op.id));
    expect(lacking.map((op) => op.id)).toEqual([]);
    const missing = ops.filter((op) => !existsSync(join(REFERENCE_DIR, `${op.id}.md`)));
    expect(missing.map((op) => op.id)).toEqual([]);
  });

  it('carry examples that compile with the strictest settings against the built package', () => {
    // Each example is its own module (`export {}` keeps its top-level await and names to itself), behind the
    // preamble the hover leaves out, inside the package, so that `@xsvc/sdk` resolves to the built package
    // through its own `exports`.
    const sources = Object.fromEntries(
      ops.map((op) => [
        join(strictDir, `example-${op.id}.ts`),
        `${HOVER_PREAMBLE}${exampleCode(docs.get(op.id)?.example ?? '') ?? ''}\nexport {};\n`,
      ]),
    );
    expect(typeErrors([], sources)).toEqual([]);
  }, 120_000);
});

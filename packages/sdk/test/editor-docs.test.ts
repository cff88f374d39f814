/**
 * What an editor shows: hovering a parameter or a response field of the built package shows the contract's
 * description, hovering a method says what it does for the caller (no HTTP mechanics), and the named types
 * are the methods' own. Read with the TypeScript checker from the built declarations, as an editor does.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { operationsById } from '../src/contract/lookup.js';
import { strictDir, strictOptions } from './strict-tsc.js';

const file = join(strictDir, 'hover.ts');
const source = `import { Xsvc, type Monitor, type SearchTweetsParams } from '@xsvc/sdk';
declare const params: SearchTweetsParams;
declare const monitor: Monitor;
const client = new Xsvc();
export const a = params.minFaves;
export const b = monitor.eventTypes;
export const c = client.tweets.search;
export const d = client.tweets.create;
export const e = client.monitors.create;
`;

/** The compilation of `source`, built once for the file: every hover reads the same immutable program. */
let compiled: ReturnType<typeof compile> | undefined;
function program() {
  compiled ??= compile();
  return compiled;
}

function compile() {
  const options = strictOptions();
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, ...rest) =>
    f === file ? ts.createSourceFile(f, source, lang, true) : read(f, lang, ...rest);
  const p = ts.createProgram([file], options, host);
  return { p, checker: p.getTypeChecker(), sf: p.getSourceFile(file)! };
}

/** The documentation shown when hovering the property access on the line that starts with `prefix`. */
function hover(prefix: string): string {
  const { checker, sf } = program();
  const stmt = sf.statements.find((s) => s.getText(sf).startsWith(prefix)) as ts.VariableStatement;
  const init = stmt.declarationList.declarations[0]!.initializer as ts.PropertyAccessExpression;
  const symbol = checker.getSymbolAtLocation(init.name)!;
  return ts.displayPartsToString(symbol.getDocumentationComment(checker));
}

describe('editor documentation of the built package', () => {
  it('compiles', () => {
    const { p } = program();
    expect(
      ts.getPreEmitDiagnostics(p).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
    ).toEqual([]);
  }, 60_000);

  it('documents parameters and response fields with the contract descriptions', () => {
    const query = operationsById.searchTweets.query!.shape as Record<string, { description?: string }>;
    expect(hover('export const a')).toBe(query.minFaves!.description);
    expect(hover('export const b')).toMatch(/event types/i);
  }, 60_000);

  it('documents methods by what they do, without HTTP mechanics', () => {
    const search = hover('export const c');
    expect(search).toContain(operationsById.searchTweets.summary);
    expect(search).toMatch(/for await/);
    expect(search).not.toMatch(/next_cursor|has_next_page|Style-B/);
    const create = hover('export const d');
    expect(create).toMatch(/wait\(\)/);
    expect(create).not.toMatch(/Idempotency-Key|answers 202|statusUrl/);
    expect(hover('export const e')).toMatch(/throws ConflictError `monitor_already_exists`/);
  }, 60_000);
});

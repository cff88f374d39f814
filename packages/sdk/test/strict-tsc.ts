/**
 * Type-checks files as an app would: against the built package (`@xsvc/sdk` resolves to `dist/` through
 * the package's own `exports`), with the strictest compiler settings (fixtures/strict/tsconfig.json).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const strictDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'strict');

/** The strictest compiler options, read from fixtures/strict/tsconfig.json. */
export function strictOptions(): ts.CompilerOptions {
  const file = join(strictDir, 'tsconfig.json');
  const parsed = ts.parseJsonConfigFileContent(
    ts.readConfigFile(file, ts.sys.readFile).config,
    ts.sys,
    strictDir,
  );
  return parsed.options;
}

/**
 * Diagnostics of a compilation, one line each (`file:line:col TS1234 message`). `sources` are extra
 * in-memory files by path (README snippets), checked together with `files`.
 */
export function typeErrors(files: readonly string[], sources: Record<string, string> = {}): string[] {
  const options = strictOptions();
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => sources[f] ?? readFile(f);
  host.fileExists = (f) => f in sources || fileExists(f);
  host.getSourceFile = (f, lang, ...rest) =>
    f in sources ? ts.createSourceFile(f, sources[f]!, lang, true) : getSourceFile(f, lang, ...rest);
  const program = ts.createProgram([...files, ...Object.keys(sources)], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return `TS${d.code} ${msg}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName}:${line + 1}:${character + 1} TS${d.code} ${msg}`;
  });
}

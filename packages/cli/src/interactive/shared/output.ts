import type { InteractiveContext } from '../types.js';

/** How a command shows its results, decided once from `--json` and the terminal. */
export type OutputMode =
  /** An ink view (stdout and stdin are terminals, no `--json`). */
  | 'view'
  /** JSON (JSON Lines for streams): `--json`, or a stream piped elsewhere. */
  | 'json'
  /** Plain text lines: piped without `--json`. */
  | 'text';

/** The output mode of a command; `pipedAsJson` makes streams print JSON Lines when piped. */
export function outputMode(ctx: InteractiveContext, pipedAsJson = false): OutputMode {
  if (ctx.json) return 'json';
  if (ctx.io.interactive && !inCi(envOf(ctx))) return 'view';
  return pipedAsJson ? 'json' : 'text';
}

/**
 * True under a CI system (`CI` or `CONTINUOUS_INTEGRATION` set, and not `0`/`false`). Ink draws only the
 * last frame there, so a live view would show nothing until it ends: commands print lines instead.
 */
export function inCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const on = (key: string) => env[key] !== undefined && env[key] !== '0' && env[key] !== 'false';
  return on('CI') || on('CONTINUOUS_INTEGRATION');
}

/** Writes one line to stdout. */
export function writeLine(ctx: InteractiveContext, line: string): void {
  ctx.io.stdout.write(`${line}\n`);
}

/** Writes one value as a JSON line to stdout. */
export function writeJson(ctx: InteractiveContext, value: unknown): void {
  ctx.io.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Writes a note to stderr (progress, hints), keeping stdout clean for data. */
export function writeNote(ctx: InteractiveContext, line: string): void {
  ctx.io.stderr.write(`${line}\n`);
}

/** The command's environment: the context's, else the process's. */
export function envOf(ctx: InteractiveContext): Readonly<Record<string, string | undefined>> {
  return ctx.env ?? process.env;
}

/** The command's working directory: the context's, else the process's. */
export function cwdOf(ctx: InteractiveContext): string {
  return ctx.cwd ?? process.cwd();
}

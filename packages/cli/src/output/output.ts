import { type CliIO, noColor } from '../io.js';
import { makeStyle, type Style } from './style.js';
import type { TableLayout } from './table.js';

/** Where a command prints: results on stdout, notes and progress on stderr. */
export interface Output {
  /** `--json`: results as JSON (JSON Lines for streamed listings), errors as JSON on stderr. */
  readonly json: boolean;
  /** How stdout lays out tables. */
  readonly layout: TableLayout;
  /** Styling for stderr. */
  readonly errStyle: Style;
  /** Prints a line of results on stdout. */
  line(text: string): void;
  /** Prints a note on stderr (hints, next cursors, confirmations). */
  note(text: string): void;
  /** Prints a value as indented JSON on stdout. */
  value(value: unknown): void;
  /** Prints a value as one JSON line on stdout (JSON Lines). */
  jsonLine(value: unknown): void;
}

/** Options that shape the output. */
export interface OutputFlags {
  readonly json: boolean;
  /** False with `--no-color`. */
  readonly color: boolean;
}

/** The output of one run: colours only on a terminal and without `NO_COLOR` / `--no-color`. */
export function makeOutput(io: CliIO, flags: OutputFlags): Output {
  const colorAllowed = flags.color && !noColor(io.env);
  const tty = io.stdout.isTTY === true;
  const layout: TableLayout = {
    tty,
    width: io.stdout.columns && io.stdout.columns > 20 ? io.stdout.columns : 100,
    style: makeStyle(colorAllowed && tty),
  };
  return {
    json: flags.json,
    layout,
    errStyle: makeStyle(colorAllowed && io.stderr.isTTY === true),
    line: (text) => void io.stdout.write(`${text}\n`),
    note: (text) => void io.stderr.write(`${text}\n`),
    value: (value) => void io.stdout.write(`${JSON.stringify(value, jsonReplacer, 2)}\n`),
    jsonLine: (value) => void io.stdout.write(`${JSON.stringify(value, jsonReplacer)}\n`),
  };
}

/** Bigints (never in answers, but possible in a hand-made value) as strings, not a crash. */
function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

import { type CliIO, noColor } from '../io.js';
import { type JsonShape, shapedLines } from './json-shape.js';
import { makeStyle, type Style } from './style.js';
import type { TableLayout } from './table.js';
import { loadTextWidths } from './text-width.js';

/** Where a command prints: results on stdout, notes and progress on stderr. */
export interface Output {
  /** `--json`: results as JSON (one shape per command), errors as JSON on stderr. */
  readonly json: boolean;
  /** How stdout lays out tables. */
  readonly layout: TableLayout;
  /** Styling for stderr. */
  readonly errStyle: Style;
  /** Prints a line of results on stdout. */
  line(text: string): void;
  /** Prints a note on stderr (hints, next cursors, confirmations). */
  note(text: string): void;
  /**
   * Prints a hint on stderr only when stderr is a terminal (what to run next, "No results."): a person
   * reads it there, while a script gets the same facts from the answer itself and a quiet stderr.
   */
  hint(text: string): void;
  /**
   * Prints a value as indented JSON on stdout, shaped by `--json <fields>` and `--jq` (`itemsKey` names
   * the list of a listing, whose items the fields select).
   */
  value(value: unknown, itemsKey?: string): void;
}

/** Options that shape the output. */
export interface OutputFlags {
  readonly json: boolean;
  /** False with `--no-color`. */
  readonly color: boolean;
  /** `--json <fields>` and `--jq`. */
  readonly shape?: JsonShape | undefined;
}

/**
 * The output of one run: colours only on a terminal and without `NO_COLOR` / `--no-color`. On a terminal
 * (tables aligned by display width) it first loads the Unicode width measure.
 */
export async function makeOutput(io: CliIO, flags: OutputFlags): Promise<Output> {
  const colorAllowed = flags.color && !noColor(io.env);
  const shape = flags.shape ?? {};
  const tty = io.stdout.isTTY === true;
  if (tty && !flags.json) await loadTextWidths();
  const layout: TableLayout = {
    tty,
    width: io.stdout.columns && io.stdout.columns > 20 ? io.stdout.columns : 100,
    style: makeStyle(colorAllowed && tty),
  };
  let errStyle: Style | undefined;
  return {
    json: flags.json,
    layout,
    // On first use: reading `isTTY` makes Node build the stderr stream, which a quiet command never needs.
    get errStyle() {
      errStyle ??= makeStyle(colorAllowed && io.stderr.isTTY === true);
      return errStyle;
    },
    line: (text) => void io.stdout.write(`${text}\n`),
    note: (text) => void io.stderr.write(`${text}\n`),
    hint: (text) => {
      if (io.stderr.isTTY === true) io.stderr.write(`${text}\n`);
    },
    value: (value, itemsKey) => {
      for (const line of shapedLines(value, shape, itemsKey)) io.stdout.write(`${line}\n`);
    },
  };
}

import { matchChoice } from '../args/choice.js';
import type { InteractiveCommandSpec } from '../interactive/types.js';
import type { TreeNode } from '../table/tree.js';
import type { CommandSpec } from '../table/types.js';
import { type GlobalFlags, globalFlags } from './globals.js';
import {
  argumentChoices,
  GLOBAL_OPTIONS,
  type OptionDecl,
  type OptionShape,
  operationOptions,
  parseBoolean,
  shapeOf,
} from './option-table.js';
import type { RunState } from './run-state.js';

/**
 * The operation command lines that need no commander: `xsvc users get jack`, `xsvc tweets search "from:x"
 * --limit 50 --json`. An operation's run loads the SDK and sends a request; loading commander and building
 * the program before it cost a sixth of the command's own start. This parser reads the same option table
 * (`option-table.ts`) and gives the action what commander would (the positionals, the command's options,
 * the globals), for the lines it fully understands; for any other line (help, a flag it does not know, a
 * missing argument, a choice that names none, `--flag=value`, a value starting with `-`) it declines, and
 * commander parses the line as before, with its errors and help. Its test parses lines of every operation
 * both ways and compares.
 */

/** What an operation command line comes to, as the command's action receives it from commander. */
export interface ParsedOperation {
  readonly spec: CommandSpec;
  /** One per argument of the command (undefined where not given), as commander's `processedArgs`. */
  readonly positionals: unknown[];
  /** The command's own options, as commander's `opts()` (defaults included). */
  readonly opts: Record<string, unknown>;
  /** The program's options (before or after the command's words). */
  readonly globals: GlobalFlags;
}

interface Known {
  readonly decl: OptionDecl;
  readonly shape: OptionShape;
}

const GLOBALS: ReadonlyMap<string, Known> = byFlag(GLOBAL_OPTIONS);

function byFlag(decls: readonly OptionDecl[]): Map<string, Known> {
  const out = new Map<string, Known>();
  for (const decl of decls) {
    const shape = shapeOf(decl);
    out.set(shape.long, { decl, shape });
    if (shape.short !== undefined) out.set(shape.short, { decl, shape });
  }
  return out;
}

/** The defaults commander gives: a `--no-x` option whose `--x` is not declared makes `x` true. */
function defaultsOf(known: ReadonlyMap<string, Known>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const longs = new Set([...known.values()].map((k) => k.shape.long));
  for (const { shape } of known.values()) {
    if (shape.negate && !longs.has(`--${shape.long.slice(5)}`)) out[shape.attribute] = true;
  }
  return out;
}

/** Whether commander would take a word for an option rather than a value (`-x`, `--x`). */
const looksLikeOption = (word: string) => word.length > 1 && word.startsWith('-');

/** A negative number, as commander tells one from an option. */
const NEGATIVE_NUMBER = /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/;

/**
 * Sets one option's value from the words at `at` (the flag; its value, if it takes one, next). Returns how
 * many words it used, or undefined when the line is one to leave to commander.
 */
function take(
  argv: readonly string[],
  at: number,
  { decl, shape }: Known,
  into: Record<string, unknown>,
): number | undefined {
  if (shape.value === 'none') {
    into[shape.attribute] = !shape.negate;
    return 1;
  }
  const next = argv[at + 1];
  if (shape.value === 'optional') {
    // Commander takes the next word as the value unless it looks like an option (a negative number is a
    // value; left to commander, which refuses it).
    if (next === undefined || (looksLikeOption(next) && !NEGATIVE_NUMBER.test(next))) {
      into[shape.attribute] = true;
      return 1;
    }
    if (decl.parse !== 'boolean') return undefined;
    const b = parseBoolean(next);
    if (b === undefined) return undefined;
    into[shape.attribute] = b;
    return 2;
  }
  if (next === undefined || looksLikeOption(next)) return undefined;
  if (decl.parse === 'choice') {
    const match = matchChoice(decl.choices ?? [], next);
    if (match === undefined) return undefined;
    into[shape.attribute] = match;
  } else if (decl.parse === 'collect') {
    const previous = into[shape.attribute];
    into[shape.attribute] = [...(Array.isArray(previous) ? previous : []), next];
  } else if (decl.parse === 'boolean') {
    const b = parseBoolean(next);
    if (b === undefined) return undefined;
    into[shape.attribute] = b;
  } else {
    into[shape.attribute] = next;
  }
  return 2;
}

/**
 * Parses an operation command line (after `--json <fields>` was split off, see `json-args.ts`) without
 * commander, or returns undefined for a line commander must parse. `tree` has the named resource's
 * commands loaded; an operation with an interactive command merged into it is left to commander.
 */
export function parseOperationLine(
  argv: readonly string[],
  tree: TreeNode,
  interactive: readonly InteractiveCommandSpec[],
  state: Pick<RunState, 'shape'>,
): ParsedOperation | undefined {
  const globals: Record<string, unknown> = defaultsOf(GLOBALS);
  let node: TreeNode | undefined = tree;
  let spec: CommandSpec | undefined;
  let known: Map<string, Known> | undefined;
  let opts: Record<string, unknown> = {};
  const words: string[] = [];
  for (let i = 0; i < argv.length; ) {
    const word = argv[i]!;
    if (word === '--' || (word.startsWith('-') && word.includes('='))) return undefined;
    if (looksLikeOption(word)) {
      const global = GLOBALS.get(word);
      const own = known?.get(word);
      // The command's own options are only its own after its name; a global name wins (commander's order).
      const option = global ?? own;
      if (option === undefined) return undefined;
      const used = take(argv, i, option, global ? globals : opts);
      if (used === undefined) return undefined;
      i += used;
      continue;
    }
    if (spec === undefined) {
      node = node?.children.get(word);
      if (node === undefined) return undefined;
      if (node.spec !== undefined) {
        if (node.children.size > 0) return undefined;
        spec = node.spec;
        if (interactive.some((e) => e.name === spec!.path.join(' '))) return undefined;
        known = byFlag(operationOptions(spec));
        opts = defaultsOf(known);
      }
    } else {
      words.push(word);
    }
    i++;
  }
  if (spec === undefined || node === tree) return undefined;
  if (words.length > spec.args.length) return undefined;
  const positionals: unknown[] = [];
  for (const [index, arg] of spec.args.entries()) {
    const word = words[index];
    if (word === undefined) {
      if (arg.required) return undefined;
      positionals.push(undefined);
      continue;
    }
    const choices = argumentChoices(spec, arg);
    const value = choices ? matchChoice(choices, word) : word;
    if (value === undefined) return undefined;
    positionals.push(value);
  }
  return {
    spec,
    positionals,
    opts,
    globals: globalFlags(globals, state),
  };
}

import type { Command } from 'commander';
import type { JsonShape } from '../output/json-shape.js';
import type { RunState } from './run-state.js';

/** The options every command takes (declared on the program). */
export interface GlobalFlags {
  readonly json: boolean;
  readonly profile?: string;
  readonly baseUrl?: string;
  readonly dryRun: boolean;
  readonly color: boolean;
  /** `--json <fields>` and `--jq` (which implies `--json`). */
  readonly shape?: JsonShape | undefined;
}

/** The global options as a command sees them (given before or after the command's name). */
export function globalsOf(cmd: Command, state: Pick<RunState, 'shape'>): GlobalFlags {
  return globalFlags(cmd.optsWithGlobals() as Record<string, unknown>, state);
}

/** The global flags from the program's option values (commander's, or the fast path's: `fast-path.ts`). */
export function globalFlags(o: Record<string, unknown>, state: Pick<RunState, 'shape'>): GlobalFlags {
  return {
    json: o.json === true || state.shape?.jq !== undefined,
    shape: state.shape,
    dryRun: o.dryRun === true,
    color: o.color !== false,
    ...(typeof o.profile === 'string' && { profile: o.profile }),
    ...(typeof o.baseUrl === 'string' && { baseUrl: o.baseUrl }),
  };
}

/** Options that take a value, so that their value is not mistaken for a command name. */
const VALUED = new Set(['--profile', '--base-url', '--jq']);

/**
 * The command words of a command line before commander parses it (`['tweets', 'search']`), skipping the
 * global options and their values: only the resource named needs its commands built.
 */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') break;
    if (VALUED.has(a)) i++;
    else if (!a.startsWith('-')) words.push(a);
  }
  return words;
}

/** The global flags read straight from argv, for reporting errors that happen before or during parsing. */
export function scanGlobals(argv: readonly string[]): GlobalFlags {
  const end = argv.indexOf('--');
  const head = end < 0 ? argv : argv.slice(0, end);
  return {
    json: head.some(
      (a) => a === '--json' || a.startsWith('--json=') || a === '--jq' || a.startsWith('--jq='),
    ),
    dryRun: head.includes('--dry-run'),
    color: !head.includes('--no-color'),
  };
}

import { ExitCode } from './exit-codes.js';
import type { InteractiveCommandSpec } from './interactive/types.js';
import type { CliIO } from './io.js';
import { parseOperationLine } from './program/fast-path.js';
import { commandWords, scanGlobals } from './program/globals.js';
import { interactiveSpecs } from './program/interactive-table.js';
import { parseFields, splitJsonArgs } from './program/json-args.js';
import type { RunState } from './program/run-state.js';
import { commanderCode } from './report/commander-code.js';
import { loadChecks, resourceActions } from './table/index.generated.js';
import { loadTree, resourceNames } from './table/tree.js';

/** Options of {@link run} beyond its IO (tests pass their own interactive commands). */
export interface RunOptions {
  /** The interactive commands to register (default: those of `src/interactive/index.ts`, from its generated table). */
  readonly interactive?: readonly InteractiveCommandSpec[];
}

/**
 * Runs one `xsvc` command line in-process and resolves to its exit code (see `xsvc help exit-codes`).
 * Commands throw; this is the one place that catches, prints the error and picks the code. A plain
 * operation line is parsed without commander (`program/fast-path.ts`); every other line, and every line
 * it declines, is commander's, which loads only then.
 */
export async function run(argv: readonly string[], io: CliIO, options: RunOptions = {}): Promise<number> {
  const state: RunState = { io, argv, exitCode: ExitCode.ok };
  try {
    const interactive = options.interactive ?? interactiveSpecs();
    prefetch(argv);
    const tree = await loadTree(argv.includes('completion') ? resourceNames() : argv);
    const split = splitJsonArgs(argv, new Map(interactive.map((s) => [s.name, s.arguments.length])), tree);
    if (split.fields !== undefined || split.jq !== undefined) {
      const { compileJq } = await import('./output/json-shape.js');
      state.shape = {
        ...(split.fields !== undefined && { fields: parseFields(split.fields) }),
        ...(split.jq !== undefined && { jq: await compileJq(split.jq) }),
      };
    }
    const line = parseOperationLine(split.argv, tree, interactive, state);
    if (line) {
      const { runOperation } = await import('./exec/operation.js');
      await runOperation({ ...line, state });
      return state.exitCode;
    }
    const { buildProgram } = await import('./program/build.js');
    const program = buildProgram(state, split.argv, interactive, tree);
    await program.parseAsync([...split.argv], { from: 'user' });
    return state.exitCode;
  } catch (err) {
    const code = commanderCode(err);
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return ExitCode.ok;
    // A resource named without an action: commander has printed its help on stderr.
    if (code === 'commander.help') return ExitCode.usage;
    const { reportError } = await import('./report/report-error.js');
    return reportError(err, io, scanGlobals(argv), state.credentials);
  }
}

/**
 * When the line names an operation (`users get jack`, not its `--help`), starts loading what running it
 * loads (the executing code with the SDK, the resource's quick checks, the HTTP client) beside the command
 * table, instead of one after the other as each step asks for the next: module loading waits on the disk
 * between steps. Any other line (help, a builtin) starts loading commander and the program instead.
 * Nothing runs early; the steps find their modules loaded (a failed load is left to them).
 */
function prefetch(argv: readonly string[]): void {
  const ignore = () => {};
  const end = argv.indexOf('--');
  const head = end < 0 ? argv : argv.slice(0, end);
  const [resource, action] = commandWords(argv);
  if (
    head.includes('--help') ||
    head.includes('-h') ||
    resource === undefined ||
    action === undefined ||
    !Object.hasOwn(resourceActions, resource) ||
    !resourceActions[resource]!.includes(action)
  ) {
    import('./program/build.js').catch(ignore);
    return;
  }
  import('./exec/operation.js').catch(ignore);
  loadChecks[resource]?.().catch(ignore);
  import('./args/quick-check.js').catch(ignore);
  import('./exec/node-fetch.js').catch(ignore);
}

import { Argument, type Command } from 'commander';
import type { InteractiveCommandSpec } from '../interactive/types.js';
import type { ArgSpec, CommandSpec } from '../table/types.js';
import { choiceParser } from './choice-parser.js';
import { addOperationOptions } from './flag-options.js';
import { globalsOf } from './globals.js';
import { addInteractiveOptions } from './interactive-command.js';
import { argumentChoices } from './option-table.js';
import type { RunState } from './run-state.js';

function argDescription(spec: CommandSpec, a: ArgSpec): string {
  const flag = spec.flags.find((f) => f.key === a.key);
  return [a.description ?? '', flag ? `(or --${flag.flag})` : ''].filter(Boolean).join(' ');
}

/** What the command does, for people; `--verbose` adds the wire details the CLI handles itself. */
function helpDescription(spec: CommandSpec, verbose: boolean): string {
  const lines = [`${spec.summary}.${spec.deprecated ? ' Deprecated.' : ''}`];
  if (spec.description) lines.push('', spec.description);
  if (verbose && spec.wire) lines.push('', `On the wire (xsvc does this for you): ${spec.wire}`);
  return lines.join('\n');
}

/**
 * The end of a command's help: its examples, then where to learn more (the request it sends, its reference
 * page, and `--verbose` when there are wire details to show).
 */
export function learnMore(spec: CommandSpec, verbose: boolean, extra: readonly string[] = []): string {
  const more = [
    `  Request    ${spec.method} ${spec.route}${spec.auth ? '' : ' (no key needed)'}`,
    `  Reference  docs/reference/${spec.op}.md`,
    ...(spec.wire && !verbose
      ? ['  Details    `--help --verbose` adds how cursors and retries work on the wire']
      : []),
  ];
  const examples = [spec.example, ...extra.filter((e) => e !== spec.example)].map((e) => `  $ xsvc ${e}`);
  return `\nExamples:\n${examples.join('\n')}\n\nLearn more:\n${more.join('\n')}`;
}

/**
 * Declares an operation's command: positional arguments, typed flags, the CLI's own flags, an example.
 * The action loads the executing code (and with it the SDK and the contract) only when invoked.
 */
export function addOperationCommand(
  cmd: Command,
  spec: CommandSpec,
  state: RunState,
  interactive?: InteractiveCommandSpec,
): void {
  const verbose = state.argv.includes('--verbose');
  cmd
    .summary(spec.summary + (spec.deprecated ? ' (deprecated)' : ''))
    .description(helpDescription(spec, verbose));
  for (const a of spec.args) {
    const arg = new Argument(a.required ? `<${a.name}>` : `[${a.name}]`, argDescription(spec, a));
    const choices = argumentChoices(spec, a);
    if (choices) arg.choices(choices).argParser(choiceParser(choices));
    cmd.addArgument(arg);
  }
  addOperationOptions(cmd, spec);
  cmd.addHelpText('after', learnMore(spec, verbose, interactive?.examples));
  if (interactive) addInteractiveOptions(cmd, interactive, false);
  cmd.action(async (...received: unknown[]) => {
    const command = received.at(-1) as Command;
    const { runOperation } = await import('../exec/operation.js');
    await runOperation({
      spec,
      positionals: command.processedArgs,
      opts: command.opts(),
      globals: globalsOf(command, state),
      state,
      interactive,
    });
  });
}

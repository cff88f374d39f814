import { Argument, type Command } from 'commander';
import type { InteractiveCommandSpec } from '../interactive/types.js';
import type { ArgSpec, CommandSpec } from '../table/types.js';
import { choiceParser } from './choice-parser.js';
import { addCommandFlags, addFlag } from './flag-options.js';
import { globalsOf } from './globals.js';
import { addInteractiveOptions } from './interactive-command.js';
import type { RunState } from './run-state.js';

function argDescription(spec: CommandSpec, a: ArgSpec): string {
  const flag = spec.flags.find((f) => f.key === a.key);
  return [a.description ?? '', flag ? `(or --${flag.flag})` : ''].filter(Boolean).join(' ');
}

function helpDescription(spec: CommandSpec): string {
  const lines = [`${spec.summary}.${spec.deprecated ? ' Deprecated.' : ''}`];
  if (spec.description) lines.push('', spec.description);
  lines.push('', `${spec.method} ${spec.route}${spec.auth ? '' : ' (no key needed)'}`);
  return lines.join('\n');
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
  cmd.summary(spec.summary + (spec.deprecated ? ' (deprecated)' : '')).description(helpDescription(spec));
  for (const a of spec.args) {
    const arg = new Argument(a.required ? `<${a.name}>` : `[${a.name}]`, argDescription(spec, a));
    const choices = spec.flags.find((f) => f.key === a.key && f.type === 'enum')?.choices;
    if (choices) arg.choices(choices).argParser(choiceParser(choices));
    cmd.addArgument(arg);
  }
  for (const f of spec.flags) addFlag(cmd, f);
  addCommandFlags(cmd, spec);
  cmd.addHelpText('after', `\nExample:\n  $ xsvc ${spec.example}\n`);
  if (interactive) addInteractiveOptions(cmd, interactive);
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

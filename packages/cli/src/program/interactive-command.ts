import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { InteractiveCommandSpec, InteractiveOptionSpec } from '../interactive/types.js';
import { choiceParser } from './choice-parser.js';
import { globalsOf } from './globals.js';
import type { RunState } from './run-state.js';

const toNumber = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('expects a number.');
  return n;
};

/** The long flag of an option's commander syntax (`--events <types...>` → `--events`). */
function longFlag(syntax: string): string | undefined {
  return /--[\w-]+/.exec(syntax)?.[0];
}

/** The long flags a command already has. */
function flagsOf(cmd: Command): Set<string> {
  return new Set(cmd.options.map((o) => o.long).filter((f): f is string => f !== undefined));
}

/**
 * Adds an interactive command's options that the command does not have yet, and its examples unless the
 * command prints them itself (an operation's command merges them into its own).
 */
export function addInteractiveOptions(cmd: Command, spec: InteractiveCommandSpec, examples = true): void {
  const existing = flagsOf(cmd);
  for (const o of spec.options) {
    const long = longFlag(o.flag);
    if (long === undefined || existing.has(long)) continue;
    cmd.addOption(optionOf(o));
  }
  if (examples && spec.examples.length > 0) {
    cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ xsvc ${e}`).join('\n')}\n`);
  }
}

function optionOf(o: InteractiveOptionSpec): Option {
  const opt = new Option(o.flag, o.description);
  if (o.choices) opt.choices(o.choices).argParser(choiceParser(o.choices));
  if (o.type === 'number') opt.argParser(toNumber);
  if (o.required) opt.makeOptionMandatory();
  return opt;
}

/**
 * Registers an interactive command on `cmd` (a new command, or a resource's own action as for `compose`):
 * its arguments and options, and an action that loads the runner only when invoked.
 */
export function attachInteractive(cmd: Command, spec: InteractiveCommandSpec, state: RunState): void {
  if (cmd.commands.length === 0) {
    cmd.description(spec.description);
    for (const a of spec.arguments) {
      const arg = new Argument(a.required ? `<${a.name}>` : `[${a.name}]`, a.description);
      if (a.choices) arg.choices(a.choices).argParser(choiceParser(a.choices));
      cmd.addArgument(arg);
    }
  }
  cmd.summary(spec.description.split('\n')[0]!.replace(/\.$/, ''));
  addInteractiveOptions(cmd, spec);
  cmd.action(async (...received: unknown[]) => {
    const command = received.at(-1) as Command;
    const opts = command.opts();
    const raw: Record<string, unknown> = {};
    for (const o of spec.options) if (opts[o.key] !== undefined) raw[o.key] = opts[o.key];
    spec.arguments.forEach((a, i) => {
      const value = command.processedArgs[i];
      if (value !== undefined) raw[a.key] = value;
    });
    const { runInteractiveCommand } = await import('../exec/interactive-command.js');
    state.exitCode = await runInteractiveCommand(spec, raw, state, globalsOf(command, state));
  });
}

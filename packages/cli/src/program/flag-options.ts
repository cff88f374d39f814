import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CommandSpec } from '../table/types.js';
import { choiceParser } from './choice-parser.js';
import { type OptionDecl, operationOptions, parseBoolean } from './option-table.js';

/**
 * Declares an operation's flags on its commander command, from the option table (`option-table.ts`).
 * Values stay text here; `args/convert.ts` types and checks them (naming the flag), then the contract's
 * schema validates the whole request.
 */

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** `--flag` alone is true; `--flag false` (as the contract's examples write it) is false. */
const toBoolean = (value: string): boolean => {
  const b = parseBoolean(value);
  if (b === undefined) throw new InvalidArgumentError('expects true or false (or nothing, for true).');
  return b;
};

/** A commander option for one entry of the option table. */
export function commanderOption(decl: OptionDecl): Option {
  const opt = new Option(decl.flags, decl.description);
  if (decl.hidden) opt.hideHelp();
  if (decl.choices) opt.choices(decl.choices);
  if (decl.parse === 'choice' && decl.choices) opt.argParser(choiceParser(decl.choices));
  else if (decl.parse === 'collect') opt.argParser(collect);
  else if (decl.parse === 'boolean') opt.argParser(toBoolean);
  return opt;
}

/** Adds every option of an operation's command (its parameters', then the CLI's own). */
export function addOperationOptions(cmd: Command, spec: CommandSpec): void {
  for (const decl of operationOptions(spec)) cmd.addOption(commanderOption(decl));
}

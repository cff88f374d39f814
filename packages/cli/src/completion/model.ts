import type { Command } from 'commander';

/** A flag as completion scripts know it. */
export interface CompletionFlag {
  readonly name: string;
  readonly takesValue: boolean;
  readonly choices?: readonly string[];
  readonly description: string;
}

/** A command as completion scripts know it: its path, children and flags (the global ones included). */
export interface CompletionNode {
  readonly path: string;
  readonly description: string;
  readonly children: readonly { readonly name: string; readonly description: string }[];
  readonly flags: readonly CompletionFlag[];
  /** The choices of its first positional argument (`completion <shell>`). */
  readonly values: readonly string[];
}

function flagsOf(cmd: Command): CompletionFlag[] {
  return cmd.options
    .filter((o) => o.long !== undefined && !o.hidden)
    .map((o) => ({
      name: o.long!,
      takesValue: o.required || o.optional,
      ...(o.argChoices && { choices: o.argChoices }),
      description: firstLine(o.description),
    }));
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * Every command of a (fully built) program, depth first, each with the program's global flags: the one
 * model the bash, zsh and fish scripts are printed from.
 */
export function completionModel(program: Command): CompletionNode[] {
  const globals = flagsOf(program);
  const out: CompletionNode[] = [];
  const visit = (cmd: Command, path: string[]) => {
    const own = path.length === 0 ? [] : flagsOf(cmd);
    out.push({
      path: path.join(' '),
      description: firstLine(cmd.summary() || cmd.description()),
      children: cmd.commands.map((c) => ({
        name: c.name(),
        description: firstLine(c.summary() || c.description()),
      })),
      flags: [...own, ...globals, { name: '--help', takesValue: false, description: 'Show help.' }],
      values: cmd.registeredArguments[0]?.argChoices ?? [],
    });
    for (const c of cmd.commands) visit(c, [...path, c.name()]);
  };
  visit(program, []);
  return out;
}

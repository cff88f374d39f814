import { Command, Help } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import type { InteractiveCommandSpec } from '../interactive/types.js';
import type { TreeNode } from '../table/tree.js';
import { registerBuiltins } from './builtins.js';
import { COMMAND_GROUPS, commandRank, LEARN_MORE, TOP_EXAMPLES } from './command-groups.js';
import { commanderOption } from './flag-options.js';
import { commandWords } from './globals.js';
import { attachInteractive } from './interactive-command.js';
import { addOperationCommand } from './operation-command.js';
import { GLOBAL_OPTIONS } from './option-table.js';
import type { RunState } from './run-state.js';

/** The CLI's version (from its package.json). */
export const VERSION: string = pkg.version;

const ABOUT =
  'Read and automate the social platform X from the terminal: every operation of the Social Data and\nAutomation Service as `xsvc <resource> <action>`.';

/**
 * Builds the commander program for one command line. Only the resource the line names gets its commands
 * (and their flags) built: the rest appear in `--help` by name and summary, which keeps start-up fast.
 * `tree` is the command tree with (at least) that resource's commands loaded (see `loadTree`; every
 * resource's for `completion`).
 */
export function buildProgram(
  state: RunState,
  argv: readonly string[],
  interactive: readonly InteractiveCommandSpec[],
  tree: TreeNode,
): Command {
  const { io } = state;
  const program = new Command('xsvc')
    .description(ABOUT)
    .usage('<command> <action> [flags]')
    .version(VERSION, '-v, --version', 'Print the version.')
    .helpOption('-h, --help', 'Show help.')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: () => {},
      getOutHelpWidth: () => io.stdout.columns ?? 100,
      getErrHelpWidth: () => io.stderr.columns ?? 100,
    })
    .configureHelp({
      showGlobalOptions: false,
      // The top-level help lists the commands before the flags, as people look for a command first.
      formatHelp: (cmd, helper) => {
        const text = Help.prototype.formatHelp.call(helper, cmd, helper);
        if (cmd.parent) return text;
        const blocks = text.split(/\n\n(?=\S)/);
        const options = blocks.findIndex((b) => b.startsWith('Options:'));
        if (options < 0) return text;
        const [moved] = blocks.splice(options, 1);
        return `${blocks.join('\n\n').trimEnd()}\n\n${moved!.trimEnd()}\n`;
      },
    });
  for (const decl of GLOBAL_OPTIONS) program.addOption(commanderOption(decl));
  program.addHelpText('afterAll', ({ command }) =>
    command === program
      ? `\nExamples:\n${TOP_EXAMPLES.map((e) => `  $ ${e}`).join('\n')}\n\nLearn more:\n${LEARN_MORE.map((l) => `  ${l}`).join('\n')}`
      : `\nGlobal flags: ${GLOBAL_FLAGS} (see \`xsvc --help\`).`,
  );

  const words = commandWords(argv);
  const target = words[0] === 'help' ? words[1] : words[0];
  // Completion scripts list every command, so that one line builds them all.
  const wants = (name: string) => name === target || target === 'completion';
  const extras = groupByResource(interactive);
  const names = new Set([...tree.children.keys(), ...extras.keys()]);
  for (const name of names) {
    const node = tree.children.get(name) ?? { name, path: [name], children: new Map() };
    const cmd = program.command(name).summary(summaryOf(node, extras.get(name) ?? []));
    if (wants(name)) populate(cmd, node, state, extras.get(name) ?? [], words);
  }
  registerBuiltins(program, state, wants);
  describeEvery(program);
  groupTopLevel(program);
  return program;
}

/** The global flags, as the help of every command names them (their descriptions are in `xsvc --help`). */
const GLOBAL_FLAGS =
  '--json [fields], --jq <filter>, --profile <name>, --base-url <url>, --dry-run, --no-color, --verbose';

/**
 * Sorts the top-level commands into the groups of `command-groups.ts`, each with its one-line summary
 * (a resource's own `--help` still lists its actions).
 */
function groupTopLevel(program: Command): void {
  const commands = program.commands as Command[];
  commands.sort((a, b) => commandRank(a.name()) - commandRank(b.name()));
  for (const cmd of commands) {
    const [group, summary] = COMMAND_GROUPS[cmd.name()] ?? ['Additional commands:', cmd.summary()];
    cmd.helpGroup(group).summary(summary);
  }
}

/** Every command gets a description for its `--help`: its summary, as a sentence, when it has none. */
function describeEvery(cmd: Command): void {
  for (const sub of cmd.commands) {
    if (!sub.description() && sub.summary()) sub.description(sentence(sub.summary()));
    describeEvery(sub);
  }
}

const sentence = (s: string) => `${s[0]!.toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}`;

/**
 * A resource's `--help` description: its own interactive command's (`compose`, which runs without an
 * action), else what its commands are.
 */
function resourceDescription(node: TreeNode, extras: readonly InteractiveCommandSpec[]): string {
  const name = node.path.join(' ');
  const own = extras.find((e) => e.name === name);
  const actions = summaryOf(node, extras);
  if (own) {
    const first = [...node.children.keys()][0];
    return [
      own.description,
      '',
      `Without an action, \`xsvc ${name}\` opens this as an interactive form on a terminal (its flags answer`,
      `the questions ahead; off a terminal every required one must be given). \`xsvc ${name} ${first ?? '<action>'}\``,
      'sends one request instead (see its --help).',
    ].join('\n');
  }
  const what = node.path.length === 1 ? COMMAND_GROUPS[name]?.[1] : undefined;
  if (what) return `${sentence(what)}\n\n\`xsvc ${name} <command> --help\` describes one of its commands.`;
  return `The \`xsvc ${name}\` commands: ${actions}. \`xsvc ${name} <command> --help\` describes one.`;
}

/** A few examples of a resource's commands, for its `--help` (the first three that have one). */
function resourceExamples(node: TreeNode): string | undefined {
  const examples: string[] = [];
  const walk = (n: TreeNode) => {
    for (const child of n.children.values()) {
      if (examples.length >= 3) return;
      if (child.spec) examples.push(child.spec.example);
      else walk(child);
    }
  };
  walk(node);
  return examples.length > 0 ? `\nExamples:\n${examples.map((e) => `  $ xsvc ${e}`).join('\n')}` : undefined;
}

/**
 * Builds a resource's commands (recursively). An interactive command at an operation's path (`extractions
 * run`) is merged into that operation's command; one at the resource's own path (`compose`) becomes its
 * action, unless the line names one of its actions (commander would give the resource the options the
 * action shares with it: `compose run --step …`); any other is a new command.
 */
function populate(
  cmd: Command,
  node: TreeNode,
  state: RunState,
  extras: readonly InteractiveCommandSpec[],
  words: readonly string[],
): void {
  cmd.description(resourceDescription(node, extras)).helpCommand(false);
  const examples = node.spec ? undefined : resourceExamples(node);
  if (examples) cmd.addHelpText('after', examples);
  const depth = node.path.length;
  // When the line names one of these actions, only that one needs its arguments and flags built: the
  // others are never run or shown in full (a name and a summary keep suggestions working).
  const word = words[depth];
  const named = words[0] !== 'completion' && word !== undefined && node.children.has(word) ? word : undefined;
  for (const child of node.children.values()) {
    const sub = cmd.command(child.name);
    if (named !== undefined && child.name !== named) {
      sub.summary(child.spec ? child.spec.summary : summaryOf(child, extras));
      continue;
    }
    if (child.children.size > 0) {
      sub.summary(summaryOf(child, extras));
      populate(sub, child, state, extras, words);
    }
    if (child.spec)
      addOperationCommand(
        sub,
        child.spec,
        state,
        extras.find((e) => e.name === child.path.join(' ')),
      );
  }
  for (const extra of extras) {
    if (extra.name.split(' ').slice(0, depth).join(' ') !== node.path.join(' ')) continue;
    const names = extra.name.split(' ');
    const actionNamed = words.length > depth && node.children.has(words[depth]!) && words[0] !== 'completion';
    if (names.length === depth && !node.spec && !actionNamed) attachInteractive(cmd, extra, state);
    else if (names.length === depth + 1 && !node.children.has(names[depth]!)) {
      attachInteractive(cmd.command(names[depth]!), extra, state);
    }
  }
}

/** Interactive commands by the resource they belong to (`monitors watch` → `monitors`). */
function groupByResource(specs: readonly InteractiveCommandSpec[]): Map<string, InteractiveCommandSpec[]> {
  const out = new Map<string, InteractiveCommandSpec[]>();
  for (const s of specs) {
    const first = s.name.split(' ')[0]!;
    out.set(first, [...(out.get(first) ?? []), s]);
  }
  return out;
}

/** `get, search, favoriters, …`: what a resource offers, as its one-line summary. */
function summaryOf(node: TreeNode, extras: readonly InteractiveCommandSpec[]): string {
  const actions = [...node.children.keys()];
  const prefix = `${node.path.join(' ')} `;
  for (const e of extras) {
    if (!e.name.startsWith(prefix)) continue;
    const action = e.name.slice(prefix.length).split(' ')[0]!;
    if (!actions.includes(action)) actions.push(action);
  }
  const own = extras.find((e) => e.name === node.path.join(' '));
  if (own && actions.length === 0) return own.description;
  return actions.join(', ');
}

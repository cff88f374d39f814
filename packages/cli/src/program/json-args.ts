import { UsageError } from '../errors.js';
import type { TreeNode } from '../table/tree.js';
import type { CommandSpec } from '../table/types.js';
import { commandWords } from './globals.js';

/** A field list as `--json` takes it: `id`, `id,text`, `author.username`. */
const FIELDS = /^[A-Za-z_]\w*(\.\w+)*(,[A-Za-z_]\w*(\.\w+)*)*$/;

/** Positional arguments of the commands that are not operations (their positionals end there). */
const BUILTIN_ARITY: Readonly<Record<string, number>> = {
  login: 0,
  logout: 0,
  'profiles list': 0,
  'profiles use': 1,
  'profiles remove': 1,
  'write-actions watch': 1,
  api: 1,
};

/** A command line with the fields of `--json <fields>` taken out, and the `--jq` filter found. */
export interface JsonArgs {
  /** The command line commander parses: `--json` stays, its fields are gone. */
  readonly argv: readonly string[];
  readonly fields?: string;
  readonly jq?: string;
}

/**
 * Takes the field list out of `--json id,text` (as gh writes it), so that commander sees a plain `--json`.
 * `--json=fields` always names fields; `--json word` does when the word looks like fields and the command
 * has its positional arguments without it (`users get jack --json id`), never when the command still
 * needs the word (`users get --json jack`: `jack` is the user). `--jq` is found here so that its filter is
 * compiled before anything is sent. `tree` is the command tree with the named resource's commands loaded
 * (see `loadTree`).
 */
export function splitJsonArgs(
  argv: readonly string[],
  interactiveArity: ReadonlyMap<string, number>,
  tree: TreeNode,
): JsonArgs {
  const out: string[] = [];
  let fields: string | undefined;
  let jq: string | undefined;
  const end = argv.indexOf('--');
  const head = end < 0 ? argv.length : end;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (i >= head) {
      out.push(a);
      continue;
    }
    if (a.startsWith('--json=')) {
      fields = a.slice('--json='.length);
      out.push('--json');
    } else if (a === '--json') {
      out.push(a);
      const next = argv[i + 1];
      if (next !== undefined && i + 1 < head && FIELDS.test(next)) {
        const rest = [...argv.slice(0, i), ...argv.slice(i + 2)];
        if (next.includes(',') || positionalsComplete(rest, interactiveArity, tree)) {
          fields = next;
          i++;
        }
      }
    } else {
      if (a === '--jq') jq = argv[i + 1];
      else if (a.startsWith('--jq=')) jq = a.slice('--jq='.length);
      out.push(a);
    }
  }
  if (fields !== undefined && !FIELDS.test(fields)) {
    throw new UsageError(
      `--json: "${fields}" is not a list of fields`,
      'Name fields separated by commas, e.g. --json id,text,author.username.',
      'invalid_input',
      '--json',
    );
  }
  return { argv: out, ...(fields !== undefined && { fields }), ...(jq !== undefined && { jq }) };
}

/** `id,author.username` → the list of fields; empty parts dropped. */
export function parseFields(text: string): string[] {
  return text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}

/** Flags of the CLI's own that take a value, on operation commands. */
const CLI_VALUED = ['--data', '--limit', '--cursor', '--wait-timeout', '--idempotency-key', '--output', '-o'];

/** True when a command line (without the word in question) already has all its command's positionals. */
function positionalsComplete(
  argv: readonly string[],
  interactiveArity: ReadonlyMap<string, number>,
  tree: TreeNode,
): boolean {
  const words = commandWords(argv);
  for (let depth = words.length; depth > 0; depth--) {
    const path = words.slice(0, depth);
    const spec = specAt(tree, path);
    const arity = interactiveArity.get(path.join(' ')) ?? spec?.args.length ?? BUILTIN_ARITY[path.join(' ')];
    if (arity === undefined) continue;
    const valued = new Set([
      ...CLI_VALUED,
      ...(spec?.flags ?? []).filter((f) => f.type !== 'boolean').map((f) => `--${f.flag}`),
    ]);
    return positionals(argv, valued).length - depth >= arity;
  }
  return false;
}

/** The operation at a command path, if any. */
function specAt(tree: TreeNode, path: readonly string[]): CommandSpec | undefined {
  let node: TreeNode | undefined = tree;
  for (const word of path) node = node?.children.get(word);
  return node?.spec;
}

/** The words of a command line that are neither flags nor the values of `valued` flags (nor globals'). */
function positionals(argv: readonly string[], valued: ReadonlySet<string>): string[] {
  const words = commandWords(argv);
  const values = new Set<number>();
  argv.forEach((a, i) => {
    if (valued.has(a)) values.add(i + 1);
  });
  // commandWords already skips the globals' values; drop the words that are the values of command flags.
  let at = 0;
  return words.filter((w) => {
    const index = argv.indexOf(w, at);
    at = index + 1;
    return !values.has(index);
  });
}

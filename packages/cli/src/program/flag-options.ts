import { type Command, InvalidArgumentError, Option } from 'commander';
import type { CommandSpec, FlagSpec } from '../table/types.js';
import { choiceParser } from './choice-parser.js';

/**
 * Declares an operation's flags on its commander command. Values stay text here; `args/convert.ts` types
 * and checks them (naming the flag), then the contract's schema validates the whole request.
 */

/** The commander attribute of a flag (`query-type` → `queryType`). */
export function attributeOf(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** `--flag` alone is true; `--flag false` (as the contract's examples write it) is false. */
const toBoolean = (value: string): boolean => {
  const v = value.toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw new InvalidArgumentError('expects true or false (or nothing, for true).');
};

function describeFlag(f: FlagSpec, positional?: string): string {
  const parts = [f.description ?? ''];
  if (f.type === 'list')
    parts.push(f.choices ? `Comma-separated, any of: ${f.choices.join(', ')}.` : 'Comma-separated.');
  if (f.type === 'json') parts.push('JSON, @file.json, or - for stdin.');
  if (f.type === 'file') parts.push('A file path.');
  if (f.type === 'boolean') parts.push(`(true when given alone; --no-${f.flag} sends false)`);
  if (positional !== undefined)
    parts.push(`(or the <${positional}> argument${f.required ? '; one is required' : ''})`);
  else if (f.required) parts.push('(required)');
  if (f.deprecated) parts.push(`(deprecated: use ${f.deprecated})`);
  return parts.filter(Boolean).join(' ');
}

/**
 * Adds one parameter flag (and its alias and negation, hidden: help and completion show one name per flag,
 * the one the guides use) to a command; `positional` names the
 * argument that gives the same parameter, when there is one.
 */
export function addFlag(cmd: Command, f: FlagSpec, positional?: string): void {
  if (f.secret) {
    addSecretFlag(cmd, f, f.secret);
    return;
  }
  const meta =
    f.type === 'number' ? 'n' : f.type === 'list' ? 'values' : f.type === 'file' ? 'path' : 'value';
  if (f.type === 'boolean') {
    cmd.addOption(new Option(`--${f.flag} [bool]`, describeFlag(f, positional)).argParser(toBoolean));
    cmd.addOption(new Option(`--no-${f.flag}`).hideHelp());
    return;
  }
  const opt = new Option(`--${f.flag} <${meta}>`, describeFlag(f, positional));
  if (f.type === 'enum' && f.choices) opt.choices(f.choices).argParser(choiceParser(f.choices));
  if (f.type === 'list') opt.argParser(collect);
  cmd.addOption(opt);
  if (f.alias) {
    const alias = new Option(`--${f.alias} <${meta}>`).hideHelp();
    if (f.type === 'list') alias.argParser(collect);
    cmd.addOption(alias);
  }
}

/**
 * A secret's flags: `--<flag>-stdin` reads it from stdin; `--<flag> <value>` stays declared (hidden) only
 * so that using it gets a clear usage error instead of "unknown option" (see `args/secrets.ts`).
 */
function addSecretFlag(cmd: Command, f: FlagSpec, env: string): void {
  const what = (f.description ?? f.flag).replace(/\.$/, '');
  const when = f.required ? 'asked for (hidden) on a terminal' : 'left out when neither is given';
  cmd.addOption(
    new Option(`--${f.flag}-stdin`, `${what}, read from stdin (else ${env}; else ${when}). Never printed.`),
  );
  cmd.addOption(new Option(`--${f.flag} <value>`).hideHelp());
}

/** Adds the CLI's own per-command flags: `--data`, and listing, write or file flags where they apply. */
export function addCommandFlags(cmd: Command, spec: CommandSpec): void {
  if (spec.flags.length > 0 || spec.body) {
    cmd.option('--data <json>', 'Parameters as a JSON object, @file.json, or - for stdin (flags win).');
  }
  if (spec.pagination) {
    cmd.option('--all', 'Fetch every page (with --json: one page object holding every item).');
    cmd.option('--limit <n>', 'Stop after this many items, fetching more pages as needed.');
    cmd.option('--cursor <cursor>', 'Resume from a cursor printed by an earlier run.');
  }
  if (spec.write) {
    cmd.option('--wait', 'Wait until the write is final (the default).');
    cmd.option('--no-wait', 'Do not wait: print the pending write action (exit code 8).');
    cmd.option('--wait-timeout <seconds>', 'How long to wait before reporting it pending (default 120).');
  }
  if (spec.idempotencyKey) {
    cmd.option(
      '--idempotency-key <key>',
      spec.write
        ? 'Repeat a write safely: the same key is never done twice.'
        : 'Repeat the request safely: the same key is never done twice.',
    );
  }
  if (spec.response === 'binary')
    cmd.option('-o, --output <file>', 'Write the file here (else stdout, when piped).');
  if (spec.response === 'binary' && offersCsv(spec))
    cmd.option(
      '--no-formula-guard',
      "CSV: keep text as posted: undo the service's guard that puts ' before a cell starting with =, +, -, @ (for programs, not spreadsheets).",
    );
  if (spec.machinePayment !== undefined)
    cmd.option('--pay', 'Pay this call with a machine payment instead of credits, without asking first.');
}

/** Whether a file command can answer CSV (its `format` offers it), where the formula guard applies. */
export function offersCsv(spec: CommandSpec): boolean {
  return spec.flags.some((f) => f.key === 'format' && f.choices?.includes('csv'));
}

import type { ArgSpec, CommandSpec, FlagSpec } from '../table/types.js';

/**
 * The options of the program and of every operation command, described without commander: `flag-options.ts`
 * and `build.ts` declare them on commander from this table, and `fast-path.ts` parses the plain operation
 * lines with it without loading commander at all. One table for both keeps them from drifting apart (the
 * fast path's test parses the same lines both ways and compares).
 */

/** How an option's text is turned into its value (commander's `argParser`). */
export type OptionParse =
  /** `true`, `1`, `yes` / `false`, `0`, `no`, in any case. */
  | 'boolean'
  /** Each occurrence is added to a list. */
  | 'collect'
  /** One of `choices`, in any case, passed on in the contract's spelling. */
  | 'choice';

/** One option as commander declares it. */
export interface OptionDecl {
  /** Commander's syntax: `--limit <n>`, `--flag [bool]`, `--no-wait`, `-o, --output <file>`. */
  readonly flags: string;
  readonly description?: string;
  /** Left out of `--help` and completion (aliases, negations, values refused on purpose). */
  readonly hidden?: boolean;
  readonly choices?: readonly string[];
  readonly parse?: OptionParse;
}

/** The commander attribute of a flag (`query-type` → `queryType`). */
export function attributeOf(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** An option's syntax taken apart as commander takes it. */
export interface OptionShape {
  /** `--limit`. */
  readonly long: string;
  /** `-o`, when it has one. */
  readonly short?: string;
  /** The attribute its value is kept under (`--no-wait` → `wait`). */
  readonly attribute: string;
  /** Whether it takes a value: always, optionally, or never. */
  readonly value: 'required' | 'optional' | 'none';
  /** A `--no-…` option: given, it sets its attribute to false. */
  readonly negate: boolean;
}

/** Takes an option's commander syntax apart (`-o, --output <file>`). */
export function shapeOf(decl: OptionDecl): OptionShape {
  const parts = decl.flags.split(/[ ,|]+/);
  const long = parts.find((p) => p.startsWith('--'));
  if (long === undefined) throw new Error(`an option without a long flag: ${decl.flags}`);
  const short = parts.find((p) => /^-[^-]$/.test(p));
  const negate = long.startsWith('--no-');
  const value = decl.flags.includes('<') ? 'required' : decl.flags.includes('[') ? 'optional' : 'none';
  return {
    long,
    ...(short !== undefined && { short }),
    attribute: attributeOf(long.slice(negate ? 5 : 2)),
    value,
    negate,
  };
}

/** The program's own options, which every command takes, before or after its name. */
export const GLOBAL_OPTIONS: readonly OptionDecl[] = [
  {
    flags: '--json',
    description:
      'Print the answer as JSON, one shape per command (with --all or --limit too); `--json id,text` keeps these fields. Errors as JSON on stderr.',
  },
  {
    flags: '--jq <filter>',
    description: 'Filter the JSON output with a jq expression (implies --json); strings print raw.',
  },
  {
    flags: '--profile <name>',
    description: 'Use this saved profile (default: XSVC_PROFILE, then the current one).',
  },
  {
    flags: '--base-url <url>',
    description: 'Service origin (default: XSVC_BASE_URL, the profile, http://127.0.0.1:8787).',
  },
  { flags: '--dry-run', description: 'Print the request as a curl line and as SDK code; send nothing.' },
  { flags: '--no-color', description: 'No colours (also NO_COLOR, or when not a terminal).' },
  {
    flags: '--verbose',
    description: 'With --help: also how the request works on the wire (cursors, retries, headers).',
  },
];

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
 * One parameter's options: the flag (with its alias and negation, hidden: help and completion show one
 * name per flag, the one the guides use); `positional` names the argument that gives the same parameter.
 * A secret's flags: `--<flag>-stdin` reads it from stdin; `--<flag> <value>` stays declared (hidden) only
 * so that using it gets a clear usage error instead of "unknown option" (see `args/secrets.ts`).
 */
function flagOptions(f: FlagSpec, positional?: string): OptionDecl[] {
  if (f.secret) {
    const what = (f.description ?? f.flag).replace(/\.$/, '');
    const when = f.required ? 'asked for (hidden) on a terminal' : 'left out when neither is given';
    return [
      {
        flags: `--${f.flag}-stdin`,
        description: `${what}, read from stdin (else ${f.secret}; else ${when}). Never printed.`,
      },
      { flags: `--${f.flag} <value>`, hidden: true },
    ];
  }
  const meta =
    f.type === 'number' ? 'n' : f.type === 'list' ? 'values' : f.type === 'file' ? 'path' : 'value';
  if (f.type === 'boolean') {
    return [
      { flags: `--${f.flag} [bool]`, description: describeFlag(f, positional), parse: 'boolean' },
      { flags: `--no-${f.flag}`, hidden: true },
    ];
  }
  const main: OptionDecl = {
    flags: `--${f.flag} <${meta}>`,
    description: describeFlag(f, positional),
    ...(f.type === 'enum' && f.choices && { choices: f.choices, parse: 'choice' as const }),
    ...(f.type === 'list' && { parse: 'collect' as const }),
  };
  if (!f.alias) return [main];
  return [
    main,
    {
      flags: `--${f.alias} <${meta}>`,
      hidden: true,
      ...(f.type === 'list' && { parse: 'collect' as const }),
    },
  ];
}

/** Whether a file command can answer CSV (its `format` offers it), where the formula guard applies. */
export function offersCsv(spec: CommandSpec): boolean {
  return spec.flags.some((f) => f.key === 'format' && f.choices?.includes('csv'));
}

/** The CLI's own per-command options: `--data`, and listing, write or file options where they apply. */
function commandOptions(spec: CommandSpec): OptionDecl[] {
  const out: OptionDecl[] = [];
  if (spec.flags.length > 0 || spec.body) {
    out.push({
      flags: '--data <json>',
      description: 'Parameters as a JSON object, @file.json, or - for stdin (flags win).',
    });
  }
  if (spec.pagination) {
    out.push(
      { flags: '--all', description: 'Fetch every page (with --json: one page object holding every item).' },
      { flags: '--limit <n>', description: 'Stop after this many items, fetching more pages as needed.' },
      { flags: '--cursor <cursor>', description: 'Resume from a cursor printed by an earlier run.' },
    );
  }
  if (spec.write) {
    out.push(
      { flags: '--wait', description: 'Wait until the write is final (the default).' },
      { flags: '--no-wait', description: 'Do not wait: print the pending write action (exit code 8).' },
      {
        flags: '--wait-timeout <seconds>',
        description: 'How long to wait before reporting it pending (default 120).',
      },
    );
  }
  if (spec.idempotencyKey) {
    out.push({
      flags: '--idempotency-key <key>',
      description: spec.write
        ? 'Repeat a write safely: the same key is never done twice.'
        : 'Repeat the request safely: the same key is never done twice.',
    });
  }
  if (spec.response === 'binary')
    out.push({ flags: '-o, --output <file>', description: 'Write the file here (else stdout, when piped).' });
  if (spec.response === 'binary' && offersCsv(spec))
    out.push({
      flags: '--no-formula-guard',
      description:
        "CSV: keep text as posted: undo the service's guard that puts ' before a cell starting with =, +, -, @ (for programs, not spreadsheets).",
    });
  if (spec.machinePayment !== undefined)
    out.push({
      flags: '--pay',
      description: 'Pay this call with a machine payment instead of credits, without asking first.',
    });
  return out;
}

/** Every option of an operation's command, in the order commander declares them. */
export function operationOptions(spec: CommandSpec): OptionDecl[] {
  return [
    ...spec.flags.flatMap((f) => flagOptions(f, spec.args.find((a) => a.key === f.key)?.name)),
    ...commandOptions(spec),
  ];
}

/** The choices of a positional argument, when its parameter is an enum (`xsvc tweets search q latest`). */
export function argumentChoices(spec: CommandSpec, arg: ArgSpec): readonly string[] | undefined {
  return spec.flags.find((f) => f.key === arg.key && f.type === 'enum')?.choices;
}

const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** `--flag` alone is true; `--flag false` (as the contract's examples write it) is false; undefined else. */
export function parseBoolean(value: string): boolean | undefined {
  const v = value.toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return undefined;
}

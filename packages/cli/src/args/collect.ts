import type { OptionValues } from 'commander';
import { UsageError } from '../errors.js';
import type { CliIO } from '../io.js';
import { attributeOf } from '../program/option-table.js';
import type { CommandSpec, FlagSpec } from '../table/types.js';
import { convertScalar } from './convert.js';
import { fileFromPath } from './files.js';
import { InputReader } from './input.js';
import { collectSecrets, refuseInlineSecrets } from './secrets.js';

/** An operation's parameters as typed on the command line. */
export interface Collected {
  /** Path, query and body parameters by their contract name. */
  readonly params: Record<string, unknown>;
  /** The paths given to file flags, by parameter (for the dry run's `curl -F`). */
  readonly files: Record<string, string>;
  /** How each parameter was given (`<q>`, `--limit`), to name it in errors. */
  readonly shownAs: Record<string, string>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Gathers an operation's parameters: `--data` first, then positional arguments, then flags (which win),
 * then the secrets (see `secrets.ts`). Values are typed per the command table; the contract's schema
 * validates them afterwards.
 */
export async function collectParams(
  spec: CommandSpec,
  positionals: readonly unknown[],
  opts: OptionValues,
  io: CliIO,
  dryRun = false,
): Promise<Collected> {
  const reader = new InputReader(io);
  const params: Record<string, unknown> = {};
  const files: Record<string, string> = {};
  const shownAs: Record<string, string> = {};
  if (typeof opts.data === 'string') {
    const data = await reader.json(opts.data, '--data');
    if (!isPlainObject(data))
      throw new UsageError('--data must be a JSON object', undefined, 'invalid_input', '--data');
    refuseInlineSecrets(spec, opts.data, data);
    for (const [k, v] of Object.entries(data)) {
      params[k] = v;
      shownAs[k] = `--data ${k}`;
    }
  }
  const flagOf = new Map(spec.flags.map((f) => [f.key, f]));
  spec.args.forEach((arg, i) => {
    const value = positionals[i];
    if (value === undefined) return;
    const f = flagOf.get(arg.key);
    params[arg.key] = f ? convertScalar(f, value, `<${arg.name}>`) : value;
    shownAs[arg.key] = `<${arg.name}>`;
  });
  for (const f of spec.flags) {
    if (f.secret) continue;
    const raw = rawValue(f, opts);
    if (raw === undefined) continue;
    const viaAlias = f.alias !== undefined && opts[attributeOf(f.flag)] === undefined;
    const name = `--${viaAlias ? f.alias : f.flag}`;
    const positional = spec.args.find((a) => a.key === f.key);
    const both = positional !== undefined && positionals[spec.args.indexOf(positional)] !== undefined;
    if (both && f.type === 'list') {
      params[f.key] = [...(params[f.key] as string[]), ...(convertScalar(f, raw, name) as string[])];
      continue;
    }
    if (both)
      throw new UsageError(
        `pass <${positional.name}> or ${name}, not both`,
        undefined,
        'invalid_input',
        name,
      );
    if (f.type === 'json') params[f.key] = await reader.json(String(raw), name);
    else if (f.type === 'file') {
      params[f.key] = await fileFromPath(io.cwd, String(raw), name);
      files[f.key] = String(raw);
    } else params[f.key] = convertScalar(f, raw, name);
    shownAs[f.key] = name;
  }
  await collectSecrets(spec, opts, params, shownAs, { io, reader, dryRun });
  return { params, files, shownAs };
}

/** A flag's value from commander, merging its alias (lists add up; otherwise the main flag wins). */
function rawValue(f: FlagSpec, opts: OptionValues): unknown {
  const main = opts[attributeOf(f.flag)];
  const alias = f.alias ? opts[attributeOf(f.alias)] : undefined;
  if (f.type === 'list' && Array.isArray(main) && Array.isArray(alias)) return [...main, ...alias];
  return main ?? alias;
}

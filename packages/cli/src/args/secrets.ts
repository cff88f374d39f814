import type { OptionValues } from 'commander';
import { promptSecret } from '../commands/prompt.js';
import { UsageError } from '../errors.js';
import { type CliIO, canPrompt } from '../io.js';
import { attributeOf } from '../program/option-table.js';
import type { CommandSpec, FlagSpec } from '../table/types.js';
import type { InputReader } from './input.js';

/** What stands for a secret in everything the CLI prints about a request. */
export const REDACTED = '***';

/** The secret flags of a command. */
export function secretFlags(spec: CommandSpec): readonly (FlagSpec & { readonly secret: string })[] {
  return spec.flags.filter((f): f is FlagSpec & { secret: string } => f.secret !== undefined);
}

/** A copy of `params` with every secret replaced by {@link REDACTED}, for printing. */
export function redactParams(spec: CommandSpec, params: Record<string, unknown>): Record<string, unknown> {
  const out = { ...params };
  for (const f of secretFlags(spec)) if (out[f.key] !== undefined) out[f.key] = REDACTED;
  return out;
}

/**
 * Refuses a secret inside `--data` given inline: like `--password <value>`, it would stay in the shell's
 * history. `--data @file.json` and `--data -` are fine.
 */
export function refuseInlineSecrets(spec: CommandSpec, data: string, parsed: Record<string, unknown>): void {
  if (data === '-' || data.startsWith('@')) return;
  const f = secretFlags(spec).find((s) => parsed[s.key] !== undefined);
  if (!f) return;
  throw new UsageError(
    `--data carries ${f.key} on the command line, where your shell's history keeps it`,
    `Put it in a file (--data @file.json), or use --${f.flag}-stdin or ${f.secret}.`,
    'invalid_input',
    '--data',
  );
}

/** Options of {@link collectSecrets}. */
export interface SecretSources {
  readonly io: CliIO;
  readonly reader: InputReader;
  /** A dry run never asks: a missing secret is shown redacted like a given one. */
  readonly dryRun: boolean;
}

/**
 * Fills in the secret parameters: `--<flag>-stdin`, else `--data` (from a file or stdin), else the
 * flag's environment variable, else a hidden prompt on a terminal when the operation needs it. A value
 * given as `--<flag> <value>` is refused before anything is asked or sent.
 */
export async function collectSecrets(
  spec: CommandSpec,
  opts: OptionValues,
  params: Record<string, unknown>,
  shownAs: Record<string, string>,
  sources: SecretSources,
): Promise<void> {
  const secrets = secretFlags(spec);
  for (const f of secrets) {
    if (opts[attributeOf(f.flag)] === undefined) continue;
    throw new UsageError(
      `--${f.flag} takes no value on the command line: your shell's history would keep it`,
      `Use --${f.flag}-stdin, set ${f.secret}, or leave it out to be asked on a terminal (hidden).`,
      'invalid_input',
      `--${f.flag}`,
    );
  }
  const { io } = sources;
  for (const f of secrets) {
    const stdinFlag = `--${f.flag}-stdin`;
    if (opts[attributeOf(`${f.flag}-stdin`)] === true) {
      if (io.stdin.isTTY) {
        throw new UsageError(
          `${stdinFlag}: stdin is a terminal`,
          `Pipe the secret in (${stdinFlag} < file), set ${f.secret}, or leave the flag out to be asked.`,
          'invalid_input',
          stdinFlag,
        );
      }
      params[f.key] = (await sources.reader.text('-', stdinFlag)).replace(/\r?\n$/, '');
      shownAs[f.key] = stdinFlag;
      continue;
    }
    if (params[f.key] !== undefined) continue;
    const fromEnv = io.env[f.secret];
    if (fromEnv !== undefined && fromEnv !== '') {
      params[f.key] = fromEnv;
      shownAs[f.key] = f.secret;
      continue;
    }
    if (!f.required) continue;
    shownAs[f.key] = stdinFlag;
    if (sources.dryRun) params[f.key] = REDACTED;
    else if (canPrompt(io)) params[f.key] = await promptSecret(io, `${describe(f)} (hidden): `);
    else {
      throw new UsageError(
        `${describe(f)} is required, and there is no terminal to ask for it`,
        `Pipe it in with ${stdinFlag}, or set ${f.secret}. Nothing was sent.`,
        'missing_params',
        stdinFlag,
      );
    }
  }
}

/** `Password of the platform account`: the flag's description as a prompt. */
function describe(f: FlagSpec): string {
  return (f.description ?? f.flag).replace(/\.$/, '').replace(/ \(.*\)$/, '');
}

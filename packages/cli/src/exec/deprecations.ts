import type { Collected } from '../args/collect.js';
import type { CommandSpec } from '../table/types.js';

/**
 * The deprecation warnings for what the user sent, naming the item: the command itself, or each deprecated
 * flag they gave with the one to use instead. A deprecated field of the answer is not theirs to avoid, so it
 * never warns (the service still marks such answers with a `Deprecation` header, for `--json` readers).
 */
export function deprecationWarnings(spec: CommandSpec, collected: Collected): string[] {
  const out: string[] = [];
  const command = `xsvc ${spec.path.join(' ')}`;
  if (spec.deprecated)
    out.push(`\`${command}\` is deprecated and may stop working: see \`${command} --help\`.`);
  for (const f of spec.flags) {
    if (f.deprecated === undefined || collected.params[f.key] === undefined) continue;
    const given = collected.shownAs[f.key] ?? `--${f.flag}`;
    out.push(`${given} is deprecated: use ${replacementOf(f.deprecated, spec)} instead.`);
  }
  return out;
}

/** `outputMode=raw` → `--output-mode raw`; `cursor` → `--cursor`: the contract's replacement as flags. */
function replacementOf(replacement: string, spec: CommandSpec): string {
  const m = /^(\w+)(?:=(.*))?$/.exec(replacement);
  const flag = m ? spec.flags.find((f) => f.key === m[1]) : undefined;
  if (!m || !flag) {
    if (m && m[2] === undefined && ['cursor', 'limit', 'all'].includes(m[1]!)) return `--${m[1]}`;
    return replacement;
  }
  return m[2] === undefined ? `--${flag.flag}` : `--${flag.flag} ${m[2]}`;
}

/** Whether a warning of the SDK is one of its deprecation notices, which {@link deprecationWarnings} replaces. */
export function isSdkDeprecationNotice(message: string): boolean {
  return /\bdeprecated\b/.test(message);
}

import { type ConfigInput, ENV_HELP, envName, isBooleanSetting, parseConfig } from '../core/config.js';
import { serverVersion } from '../features/discovery/version.js';

/** A command line `xsvc-server` does not take (it is configured by the environment). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What the command line asks of `xsvc-server`: start (no arguments), its help, its version, or a key rotation. */
export function parseArgs(args: readonly string[]): 'start' | 'help' | 'version' | 'rotate-secret-key' {
  if (args.some((a) => a === '--help' || a === '-h' || a === 'help')) return 'help';
  if (args.some((a) => a === '--version' || a === '-v')) return 'version';
  if (args.length === 1 && args[0] === 'rotate-secret-key') return 'rotate-secret-key';
  if (args.length > 0)
    throw new UsageError(
      `xsvc-server takes no arguments (got ${JSON.stringify(args[0])}) but rotate-secret-key: it is configured with environment variables, listed by \`xsvc-server --help\``,
    );
  return 'start';
}

/** The text of `xsvc-server --help`: how to start it and every environment variable with its default. */
export function usage(): string {
  const defaults = parseConfig({}) as Record<string, unknown>;
  const keys = Object.keys(ENV_HELP) as (keyof ConfigInput)[];
  const width = Math.max(...keys.map((k) => envName(k).length)) + 2;
  const lines = keys.map((key) => {
    const value = defaults[key];
    const shown =
      value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
        ? ''
        : isBooleanSetting(key)
          ? ` (default ${value ? 'on' : 'off'}; 1, true or yes turn it on)`
          : ` (default ${String(value)})`;
    return `  ${envName(key).padEnd(width)}${ENV_HELP[key]}${shown}`;
  });
  return [
    `xsvc-server ${serverVersion()}: the xsvc service, self-hosted (REST API, webhooks, MCP, dashboard)`,
    '',
    'Usage:',
    '  xsvc-server              start, configured by the environment variables below',
    '  xsvc-server --help       this text',
    '  xsvc-server --version    the version',
    '  xsvc-server rotate-secret-key',
    '                           seal again under XSVC_SECRET_KEY what XSVC_SECRET_KEY_PREVIOUS sealed, and exit',
    '',
    'Environment:',
    ...lines,
    '',
    'Example: XSVC_SEED_SIZE=tiny XSVC_ALLOW_LOOPBACK_WEBHOOKS=1 xsvc-server',
    'On first start it creates the database, seeds the simulated network and prints the owner API key once.',
    'On a terminal it then prints a banner (URL, a one-time dashboard sign-in link, docs, key file, curl) and',
    'one readable line per request; piped, or with LOG_FORMAT=json, it writes JSON lines with the same facts.',
    '',
    "Secrets at rest (webhook signing secrets, connected accounts' sessions) are sealed with AES-256-GCM under",
    'keys derived from XSVC_SECRET_KEY. Without it, the first start creates a random key in a 0600 key file',
    '(XSVC_SECRET_KEY_FILE; next to the SQLite file, ./.xsvc/secret-key with Postgres) and says so; keep it',
    "apart from backups. To rotate: XSVC_SECRET_KEY=<new> XSVC_SECRET_KEY_PREVIOUS=<old> (the old key file's",
    'content); each start, or rotate-secret-key, seals everything again under the new key. Every instance needs the same key.',
    '',
  ].join('\n');
}

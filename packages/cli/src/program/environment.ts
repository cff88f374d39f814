import { secretFlags } from '../table/index.generated.js';

/** One row of the environment the CLI reads: variable names and what they do. */
export interface EnvironmentVariable {
  readonly names: readonly string[];
  readonly meaning: string;
}

/** What the CLI reads from the environment, besides the secrets of the command table (see below). */
const FIXED: readonly EnvironmentVariable[] = [
  { names: ['XSVC_API_KEY'], meaning: 'the API key (overrides the profile)' },
  {
    names: ['XSVC_BASE_URL'],
    meaning: 'the service origin (overrides the profile; `--base-url` overrides it)',
  },
  { names: ['XSVC_PROFILE'], meaning: 'the profile to use when `--profile` is not given' },
  { names: ['XDG_CONFIG_HOME'], meaning: 'where `xsvc/config.json` lives (default `~/.config`)' },
  { names: ['XSVC_MAX_RETRIES'], meaning: 'retries of transient failures and rate limits, 0-10 (default 2)' },
  {
    names: ['XSVC_POLL_INTERVAL_MS'],
    meaning: 'how often `monitors watch` and `webhooks listen` poll the events (default 1000)',
  },
  {
    names: ['XSVC_WEBHOOK_SECRET'],
    meaning: 'the signing secret of `webhooks listen` / `trigger` (default: a new one, printed)',
  },
  {
    names: ['XSVC_PAYMENT_KEY'],
    meaning: 'the payment network credential `--pay` uses (default: the API key)',
  },
  {
    names: ['XSVC_PAYMENT_NETWORK_URL'],
    meaning: "the payment network `--pay` pays on (default: the service's `/sim/payments`)",
  },
  {
    names: ['NO_COLOR', 'CI'],
    meaning: 'no colours; under CI the live views print lines instead of redrawing',
  },
];

/**
 * Every environment variable of the CLI, the one source of `xsvc help environment` and of the README's
 * table (a test keeps them equal): the fixed ones, then each secret flag's variable (`XSVC_PASSWORD`).
 */
export function environmentVariables(): EnvironmentVariable[] {
  const secrets = new Map<string, string[]>();
  for (const [secret, , path] of secretFlags)
    secrets.set(secret, [...(secrets.get(secret) ?? []), `\`${path}\``]);
  const secretRows = [...secrets].map(([name, where]) => {
    const flag = secretFlags.find(([secret]) => secret === name)![1];
    return {
      names: [name],
      meaning: `the \`--${flag}\` secret of ${where.join(', ')} when \`--${flag}-stdin\` is not given (else a hidden prompt asks)`,
    };
  });
  return [...FIXED, ...secretRows];
}

/** `xsvc help environment`. */
export function environmentHelp(): string {
  const rows = environmentVariables().map((v) => [v.names.join(', '), v.meaning] as const);
  const width = Math.max(...rows.map(([n]) => n.length));
  return ['Environment variables:', '', ...rows.map(([n, m]) => `  ${n.padEnd(width)}  ${m}`)].join('\n');
}

/** The README's table of the same variables (Markdown). */
export function environmentMarkdown(): string {
  const rows = environmentVariables().map((v) => [v.names.map((n) => `\`${n}\``).join(', '), v.meaning]);
  const all = [['variable', 'meaning'], ...rows];
  const w0 = Math.max(...all.map((r) => r[0]!.length));
  const w1 = Math.max(...all.map((r) => r[1]!.length));
  const line = (a: string, b: string) => `| ${a.padEnd(w0)} | ${b.padEnd(w1)} |`;
  return [
    line('variable', 'meaning'),
    `| ${'-'.repeat(w0)} | ${'-'.repeat(w1)} |`,
    ...rows.map(([a, b]) => line(a!, b!)),
  ].join('\n');
}

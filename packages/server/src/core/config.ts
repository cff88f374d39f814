import { z } from 'zod';

/**
 * The server's configuration, read from the environment and validated at start: a typo in a variable fails
 * loudly instead of starting a server that behaves differently from what was asked.
 */
export const ConfigSchema = z
  .object({
    port: z.coerce.number().int().min(0).max(65_535).default(8787),
    host: z.string().min(1).default('127.0.0.1'),
    /** `postgres://…` selects Postgres; anything else is a SQLite file path (or `:memory:`). */
    databaseUrl: z.string().min(1).default('./.xsvc/xsvc.db'),
    platform: z.enum(['simulated', 'xapi']).default('simulated'),
    /** The public origin (`https://svc.example.com`); when https, plain HTTP is redirected with 301. */
    publicUrl: z.url().optional(),
    /** A `svc_` key created for the owner account at first start (scripts, CI). */
    bootstrapApiKey: z
      .string()
      .regex(
        /^svc_[0-9a-f]{64}$/,
        'XSVC_BOOTSTRAP_API_KEY must be svc_ followed by 64 lowercase hex characters',
      )
      .optional(),
    /** The owner's starting credit grant. */
    bootstrapCredits: z.coerce
      .bigint()
      .nonnegative()
      .max(2n ** 63n - 1n)
      .default(10_000_000n),
    /** Where the first API key is written (0600). */
    keyFile: z.string().default('./.xsvc/owner-api-key'),
    /** Size of the simulated network's seed: `small` for tests, `default` for realistic volumes. */
    seedSize: z.enum(['tiny', 'small', 'default']).default('default'),
    seed: z.coerce.number().int().default(42),
    /** `newer` (default) or `older` rate-limit figures of spec 8.1. */
    rateLimits: z.enum(['newer', 'older']).default('newer'),
    /** X API v2 app bearer token (xapi platform). */
    xBearerToken: z.string().optional(),
    xApiBaseUrl: z.url().default('https://api.x.com'),
    /**
     * Whether the X app's tier has full-archive search (`GET /2/tweets/search/all`): replies and threads of
     * posts older than 7 days read through it; without it they are refused with a message that says so.
     */
    xApiFullArchive: z.boolean().default(false),
    /**
     * Where the monitors' checks get new posts on the xapi platform: `search` (polling X's reads) or
     * `stream` (X's filtered stream with rules kept in step with the monitors; the app's tier must have it).
     */
    xApiMonitorSource: z.enum(['search', 'stream']).default('search'),
    /** The filtered stream's rule count limit of the app's tier (`stream` source): beyond it a monitor is refused. */
    xApiStreamMaxRules: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    /** The filtered stream's rule length limit of the app's tier, in characters (`stream` source). */
    xApiStreamMaxRuleLength: z.coerce.number().int().min(32).max(100_000).default(1024),
    /** The longest recent-search query X takes from the app: 512 on the self-serve tiers, 4096 on Enterprise. */
    xApiSearchQueryMax: z.coerce.number().int().min(32).max(4096).default(512),
    /**
     * The app's limits per 15 minutes before X's headers report them: `search=60,users=300` (recent search,
     * users lookup; the self-serve figures: check X's pricing page for the app's tier).
     */
    xApiRateLimits: z
      // Parsed once more, a configuration already parsed keeps its limits (the CLI merges flags into one).
      .union([z.string(), z.record(z.string(), z.number().int().min(1))])
      .default('search=60,users=300')
      .transform((value, ctx) => (typeof value === 'string' ? parseXRateLimits(value, ctx) : value)),
    /** The fraction of each X endpoint's limit the monitors may use (the rest stays for API calls). */
    xApiMonitorShare: z.coerce.number().gt(0).max(1).default(0.8),
    /** The longest effective check interval (seconds) before new xapi monitors are refused. */
    xApiMonitorMaxInterval: z.coerce.number().int().min(1).default(300),
    /**
     * The X app's OAuth 2.0 client id (xapi platform): connected accounts log in through X's OAuth 2.0
     * (authorization code with PKCE); without it nothing can be connected on xapi.
     */
    xClientId: z.string().min(1).optional(),
    /** The X app's OAuth 2.0 client secret, for a confidential client (a "web app" on X). */
    xClientSecret: z.string().min(1).optional(),
    /**
     * Allow webhook deliveries, and the xapi platform's media downloads, to http://127.0.0.1:<port> and
     * http://localhost:<port> (tests, local dev).
     */
    allowLoopbackWebhooks: z.boolean().default(false),
    /**
     * Threads that make the webhook deliveries' HTTP requests (0, the default: the server's own thread). On
     * a machine with cores to spare, 1 or 2 take that work off the event loop.
     */
    webhookThreads: z.coerce.number().int().min(0).max(16).default(0),
    /**
     * Trust `X-Forwarded-For` / `X-Forwarded-Proto` from the peer (set it only behind a reverse proxy that
     * overwrites them): client addresses for per-IP limits and the https check come from those headers.
     */
    trustProxy: z.boolean().default(false),
    /**
     * Coverage answers (`mode=coverage`, `mode=complete`, resumed coverage cursors) one process builds at once;
     * one account may hold half of them. Beyond that: 503 `service_unavailable` with `Retry-After`.
     */
    maxCoverageWalks: z.coerce.number().int().min(1).max(1_000).default(8),
    /**
     * Days an `Idempotency-Key` answer is kept for replay (the reference's window is at least 90 days, so no
     * less is accepted); an hourly jobs-engine sweep deletes older ones.
     */
    idempotencyRetentionDays: z.coerce
      .number()
      .int()
      .min(90, 'XSVC_IDEMPOTENCY_RETENTION_DAYS must be at least 90 (the replay window of the reference)')
      .max(36_500)
      .default(90),
    /** Serve the write tools on `/mcp` (read-only by default, like `xsvc-mcp`). */
    mcpEnableWrites: z.boolean().default(false),
    /**
     * Accounts created by signing in start with no subscription (402 `no_subscription` on paid work until
     * a subscription checkout is paid); by default they start with an active plan that does not lapse.
     */
    requireSubscription: z.boolean().default(false),
    /**
     * This instance's stable name: the owner of the job leases it takes. An instance that restarts under the
     * same name frees what it held at once; without one, a Postgres instance's leases are taken over when
     * they expire (SQLite has one process and needs none).
     */
    instanceId: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'letters, digits and ._:- (at most 100)')
      .optional(),
    /**
     * Check every answer against the contract's response schema and fail loudly when one does not match
     * (development and tests; it costs CPU on every request).
     */
    validateResponses: z.boolean().default(false),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * How `xsvc-server` writes its log: `json` (one JSON object a line, for collectors), `pretty` (one
     * readable line a request) or `auto`: pretty when its standard output is a terminal, else JSON.
     */
    logFormat: z.enum(['auto', 'json', 'pretty']).default('auto'),
    /**
     * Origins (`https://app.example.com`, comma-separated, matched exactly) whose pages may call the API
     * from a browser (CORS); none by default. Never a wildcard, and never with cookies.
     */
    corsOrigins: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .transform((v, ctx) => corsOriginList(v, ctx)),
    /**
     * The secret every key of the server derives from (at least 32 characters): the encryption of what it
     * keeps at rest and must read back (webhook signing secrets, connected accounts' sessions) and the
     * machine-payment keys. Without it the server uses the key file (`secretKeyFile`), created at first start.
     */
    secretKey: z.string().min(32, 'XSVC_SECRET_KEY must be at least 32 characters').optional(),
    /**
     * The secret key being replaced (a rotation): what it sealed is still read, and sealed again under the
     * current key at start.
     */
    secretKeyPrevious: z
      .string()
      .min(32, 'XSVC_SECRET_KEY_PREVIOUS must be at least 32 characters')
      .optional(),
    /**
     * Where the generated secret key is kept without `XSVC_SECRET_KEY` (mode 0600). Default: `secret-key` next
     * to the SQLite file, `./.xsvc/secret-key` with Postgres; empty: kept in memory only (an in-memory
     * database, tests), so nothing sealed survives a restart.
     */
    secretKeyFile: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    if (c.secretKeyPrevious !== undefined && c.secretKey === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['secretKeyPrevious'],
        message: 'XSVC_SECRET_KEY_PREVIOUS needs XSVC_SECRET_KEY (the key that replaces it)',
      });
    }
    if (c.secretKeyPrevious !== undefined && c.secretKeyPrevious === c.secretKey) {
      ctx.addIssue({
        code: 'custom',
        path: ['secretKeyPrevious'],
        message: 'XSVC_SECRET_KEY_PREVIOUS is the same as XSVC_SECRET_KEY',
      });
    }
    if (c.allowLoopbackWebhooks && c.publicUrl?.startsWith('https://')) {
      ctx.addIssue({
        code: 'custom',
        path: ['allowLoopbackWebhooks'],
        message:
          'XSVC_ALLOW_LOOPBACK_WEBHOOKS is refused when XSVC_PUBLIC_URL is https (a public deployment)',
      });
    }
    if (c.xClientSecret !== undefined && c.xClientId === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['xClientSecret'],
        message: 'X_CLIENT_SECRET needs X_CLIENT_ID (the OAuth 2.0 client it belongs to)',
      });
    }
    if (c.platform === 'xapi' && !c.xBearerToken) {
      ctx.addIssue({
        code: 'custom',
        path: ['xBearerToken'],
        message: 'XSVC_PLATFORM=xapi needs X_BEARER_TOKEN',
      });
    }
  });

export type Config = z.output<typeof ConfigSchema>;

/**
 * The endpoints `X_API_RATE_LIMITS` names, by their short name (as `platform/xapi/rate-budget.ts` names them;
 * core does not import the platform).
 */
const X_RATE_LIMIT_NAMES: Readonly<Record<string, string>> = {
  search: 'GET /2/tweets/search/recent',
  users: 'GET /2/users',
};

/** `search=60,users=300` as limits per endpoint; an unknown name or a bad count is an issue. */
function parseXRateLimits(value: string, ctx: z.RefinementCtx): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [name = '', count = ''] = item.split('=').map((s) => s.trim());
    const endpoint = X_RATE_LIMIT_NAMES[name];
    const n = Number(count);
    if (!endpoint || !/^\d+$/.test(count) || n < 1) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(item)} is not name=count with name search or users and a count of 1 or more`,
      });
      continue;
    }
    out[endpoint] = n;
  }
  return out;
}

/**
 * The origins of `XSVC_CORS_ORIGINS`: each `scheme://host[:port]` exactly as a browser sends it in
 * `Origin` (lowercase, no path, no trailing slash, no default port), so that an exact comparison matches.
 * A wildcard or anything else is refused: the message shows the origin it would have to be.
 */
function corsOriginList(value: string | string[] | undefined, ctx: z.RefinementCtx): string[] {
  const items = (Array.isArray(value) ? value : (value ?? '').split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const item of items) {
    let origin: string | undefined;
    try {
      const url = new URL(item);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      origin = undefined;
    }
    if (origin !== item) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(item)} is not an origin (scheme://host[:port], no path or wildcard)${origin ? `; did you mean ${origin}?` : ''}`,
      });
    }
  }
  return [...new Set(items)];
}
export type ConfigInput = z.input<typeof ConfigSchema>;

const ENV: Record<keyof ConfigInput, string> = {
  port: 'PORT',
  host: 'HOST',
  databaseUrl: 'DATABASE_URL',
  platform: 'XSVC_PLATFORM',
  publicUrl: 'XSVC_PUBLIC_URL',
  bootstrapApiKey: 'XSVC_BOOTSTRAP_API_KEY',
  bootstrapCredits: 'XSVC_BOOTSTRAP_CREDITS',
  keyFile: 'XSVC_KEY_FILE',
  seedSize: 'XSVC_SEED_SIZE',
  seed: 'XSVC_SEED',
  rateLimits: 'XSVC_RATE_LIMITS',
  xBearerToken: 'X_BEARER_TOKEN',
  xApiBaseUrl: 'X_API_BASE_URL',
  xApiFullArchive: 'X_API_FULL_ARCHIVE',
  xApiMonitorSource: 'X_API_MONITOR_SOURCE',
  xApiStreamMaxRules: 'X_API_STREAM_MAX_RULES',
  xApiStreamMaxRuleLength: 'X_API_STREAM_MAX_RULE_LENGTH',
  xApiSearchQueryMax: 'X_API_SEARCH_QUERY_MAX',
  xApiRateLimits: 'X_API_RATE_LIMITS',
  xApiMonitorShare: 'X_API_MONITOR_SHARE',
  xApiMonitorMaxInterval: 'X_API_MONITOR_MAX_INTERVAL',
  xClientId: 'X_CLIENT_ID',
  xClientSecret: 'X_CLIENT_SECRET',
  allowLoopbackWebhooks: 'XSVC_ALLOW_LOOPBACK_WEBHOOKS',
  webhookThreads: 'XSVC_WEBHOOK_THREADS',
  trustProxy: 'XSVC_TRUST_PROXY',
  maxCoverageWalks: 'XSVC_MAX_COVERAGE_WALKS',
  idempotencyRetentionDays: 'XSVC_IDEMPOTENCY_RETENTION_DAYS',
  mcpEnableWrites: 'XSVC_MCP_ENABLE_WRITES',
  requireSubscription: 'XSVC_REQUIRE_SUBSCRIPTION',
  validateResponses: 'XSVC_VALIDATE_RESPONSES',
  instanceId: 'XSVC_INSTANCE_ID',
  logLevel: 'LOG_LEVEL',
  logFormat: 'LOG_FORMAT',
  secretKey: 'XSVC_SECRET_KEY',
  secretKeyPrevious: 'XSVC_SECRET_KEY_PREVIOUS',
  secretKeyFile: 'XSVC_SECRET_KEY_FILE',
  corsOrigins: 'XSVC_CORS_ORIGINS',
};

/** What each variable does, in a line (`xsvc-server --help`; the README's table says more). */
export const ENV_HELP: Readonly<Record<keyof ConfigInput, string>> = {
  port: 'port to listen on',
  host: 'address to listen on',
  databaseUrl: 'a SQLite file (WAL mode), or postgres://… for Postgres',
  platform: 'simulated (a seeded network in the same database) or xapi (X API v2, needs X_BEARER_TOKEN)',
  publicUrl: 'public origin used in links; when https, plain HTTP is redirected',
  bootstrapApiKey: 'a svc_ + 64 hex key registered for the owner at start (scripts, CI)',
  bootstrapCredits: "the owner's starting credits",
  keyFile: 'where the generated owner key is written (mode 0600; empty: not written)',
  seedSize: 'size of the simulated network: tiny, small or default',
  seed: 'seed of the simulated network',
  rateLimits: "newer or older figures of the spec's rate limits",
  xBearerToken: 'the X API v2 app token (xapi platform)',
  xApiBaseUrl: 'the X API origin (xapi platform)',
  xApiFullArchive: "the X app's tier has full-archive search (replies and threads older than 7 days)",
  xApiMonitorSource:
    "monitors' source of new posts on xapi: search (polling, default) or stream (filtered stream)",
  xApiStreamMaxRules: "the filtered stream's rule count limit of the X app's tier (default 1000)",
  xApiStreamMaxRuleLength: "the filtered stream's rule length limit of the X app's tier (default 1024)",
  xApiSearchQueryMax:
    'the longest recent-search query X takes from the app (512 self-serve, 4096 Enterprise)',
  xApiRateLimits:
    "the app's X limits per 15 min before X's headers tell: search=60,users=300 (see X's pricing)",
  xApiMonitorShare:
    "the fraction of each X endpoint's limit the monitors may use (0.8; the rest for API calls)",
  xApiMonitorMaxInterval:
    'the longest effective monitor check interval in seconds before new monitors are refused',
  xClientId:
    "the X app's OAuth 2.0 client id: connected accounts on xapi (callback {public URL}/api/v1/x/oauth/callback)",
  xClientSecret: "the X app's OAuth 2.0 client secret (a confidential client)",
  allowLoopbackWebhooks:
    'webhook URLs and xapi media downloads on 127.0.0.1/localhost allowed (local development; not with https)',
  webhookThreads: "threads that send webhook deliveries (0: the server's own thread)",
  trustProxy: 'take the client address and scheme from X-Forwarded-For / -Proto (behind a proxy)',
  maxCoverageWalks: 'coverage reads one process builds at once; beyond, 503 with Retry-After',
  idempotencyRetentionDays: 'days an Idempotency-Key answer is replayed (at least 90), then swept',
  mcpEnableWrites: 'the remote /mcp endpoint also serves the write tools',
  requireSubscription: 'accounts created by signing in start without a plan (402 until paid)',
  validateResponses: "check every answer against the contract's response schema (development)",
  instanceId: "this instance's stable name: the owner of its job leases (several instances on Postgres)",
  logLevel: 'log level: fatal, error, warn, info, debug, trace or silent',
  logFormat: 'log format: json, pretty (a readable line a request) or auto (pretty on a terminal, else json)',
  secretKey:
    'secret (32+ characters) every key derives from: secrets at rest (webhook secrets, sessions), payments',
  secretKeyPrevious:
    'the secret key being replaced: still read, and everything sealed again under the new one',
  secretKeyFile:
    'the generated secret key without XSVC_SECRET_KEY (mode 0600; default: secret-key next to the SQLite file, ./.xsvc/secret-key with Postgres)',
  corsOrigins: 'origins whose browser pages may call the API (CORS), comma-separated, exact (default: none)',
};

/** The environment variable of each setting. */
export function envName(key: keyof ConfigInput): string {
  return ENV[key];
}

/** Whether a setting is a yes/no variable (`1`, `true` or `yes` turn it on). */
export function isBooleanSetting(key: keyof ConfigInput): boolean {
  return BOOLEAN_KEYS.has(key);
}

const BOOLEAN_KEYS: ReadonlySet<string> = new Set([
  'xApiFullArchive',
  'allowLoopbackWebhooks',
  'trustProxy',
  'mcpEnableWrites',
  'requireSubscription',
  'validateResponses',
]);

/** Thrown when the environment does not describe a valid configuration; the message names the variables. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Reads the configuration from environment variables (see the README for the list). */
export function configFromEnv(env: Record<string, string | undefined> = process.env): Config {
  const input: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(ENV)) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    input[key] = BOOLEAN_KEYS.has(key) ? ['1', 'true', 'yes'].includes(v.toLowerCase()) : v;
  }
  return parseConfig(input);
}

/** Validates a configuration object (defaults filled in). */
export function parseConfig(input: Partial<ConfigInput> | Record<string, unknown>): Config {
  const r = ConfigSchema.safeParse(input);
  if (!r.success) {
    const lines = r.error.issues.map((i) => {
      const key = String(i.path[0] ?? '');
      const name = ENV[key as keyof ConfigInput] ?? key;
      return `  ${name}: ${i.message}`;
    });
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return r.data;
}

import { UsageError } from '../errors.js';
import type { CliIO } from '../io.js';
import { type Config, DEFAULT_PROFILE } from './store.js';

/** The service origin when nothing names one: a local `xsvc-server`. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';

/** The credentials and origin a command runs with, and where each came from (for messages). */
export interface Credentials {
  readonly profile: string;
  readonly apiKey: string | undefined;
  readonly keySource: 'XSVC_API_KEY' | 'profile' | undefined;
  readonly baseUrl: string;
  /** Where the base URL came from: `--base-url`, `XSVC_BASE_URL`, the profile, or the local default. */
  readonly baseUrlSource: '--base-url' | 'XSVC_BASE_URL' | 'profile' | 'default';
}

/** What the command line says about credentials. */
export interface CredentialFlags {
  readonly profile?: string | undefined;
  readonly baseUrl?: string | undefined;
}

/** The profile in use: `--profile`, then `XSVC_PROFILE`, then the config's current one, then `default`. */
export function profileName(io: Pick<CliIO, 'env'>, flags: CredentialFlags, config: Config): string {
  return flags.profile ?? nonEmpty(io.env.XSVC_PROFILE) ?? config.currentProfile ?? DEFAULT_PROFILE;
}

/**
 * Resolves the API key and base URL: `XSVC_API_KEY` overrides the profile's key; the origin is
 * `--base-url`, then `XSVC_BASE_URL`, then the profile's, then the local default.
 */
export function resolveCredentials(
  io: Pick<CliIO, 'env'>,
  flags: CredentialFlags,
  config: Config,
): Credentials {
  const profile = profileName(io, flags, config);
  const stored = config.profiles[profile];
  if (flags.profile !== undefined && !stored) {
    throw new UsageError(
      `there is no profile named "${flags.profile}"`,
      'List them with `xsvc profiles list`, or create it with `xsvc login --profile <name>`.',
    );
  }
  const envKey = nonEmpty(io.env.XSVC_API_KEY);
  const apiKey = envKey ?? stored?.apiKey;
  const envUrl = nonEmpty(io.env.XSVC_BASE_URL);
  const [url, source, baseUrlSource] =
    flags.baseUrl !== undefined
      ? ([flags.baseUrl, '--base-url', '--base-url'] as const)
      : envUrl !== undefined
        ? ([envUrl, 'XSVC_BASE_URL', 'XSVC_BASE_URL'] as const)
        : ([
            stored?.baseUrl ?? DEFAULT_BASE_URL,
            `the base URL of profile "${profile}"`,
            stored?.baseUrl !== undefined ? 'profile' : 'default',
          ] as const);
  const baseUrl = checkBaseUrl(url, source);
  return {
    profile,
    apiKey,
    keySource: envKey ? 'XSVC_API_KEY' : stored?.apiKey ? 'profile' : undefined,
    baseUrl,
    baseUrlSource,
  };
}

/** An http(s) origin without a trailing slash, or a usage error naming where it came from. */
export function checkBaseUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `${source}: "${value}" is not a URL`,
      'Pass an origin such as http://127.0.0.1:8787.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source}: "${value}" must be an http or https URL`);
  }
  return value.replace(/\/+$/, '');
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

import { redactKey } from '../config/redact.js';
import { createClient } from '../exec/client.js';
import { keySourceText, type LoadedCredentials, loadCredentials, notLoggedIn } from '../exec/credentials.js';
import { makeOutput } from '../output/output.js';
import { startSpinner } from '../output/spinner.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';

/** What `xsvc whoami --json` prints: the account as the service sees the key, and where each setting came from. */
export interface WhoamiReport {
  /** The linked platform username, or null when none is linked. */
  readonly account: string | null;
  readonly plan: string;
  /** The credit balance, when the account has credit information. */
  readonly credits: string | null;
  /** The key, masked (`svc_…9f2a`). */
  readonly key: string;
  /** Where the key came from: `XSVC_API_KEY (environment)` or `profile "<name>" in <config file>`. */
  readonly keySource: string;
  readonly baseUrl: string;
  /** Where the base URL came from: `--base-url`, `XSVC_BASE_URL`, `profile`, or `default`. */
  readonly baseUrlSource: string;
  readonly profile: string;
  /** The config file the profiles are read from. */
  readonly configFile: string;
}

/**
 * `xsvc whoami` and `xsvc auth status`: checks the key in use with `GET /account` and shows the account,
 * its plan and credits, the masked key, the base URL, the profile, and where the key and the base URL came
 * from. Without a key it fails as any command needing one (exit 4); a refused key names its source.
 */
export async function whoami(state: RunState, globals: GlobalFlags): Promise<void> {
  const { io } = state;
  const out = await makeOutput(io, globals);
  const creds = await loadCredentials(state, globals);
  const loaded = state.credentials as LoadedCredentials;
  if (creds.apiKey === undefined) throw notLoggedIn(creds);
  if (globals.dryRun) {
    out.line(`curl ${creds.baseUrl}/api/v1/account -H "x-api-key: $XSVC_API_KEY"`);
    return;
  }
  const client = createClient(io, creds, out);
  const spinner = startSpinner(io.stderr, `Checking the key with ${creds.baseUrl}…`);
  let account: Awaited<ReturnType<typeof client.account.get>>;
  try {
    account = await client.account.get(io.signal ? { signal: io.signal } : {});
  } finally {
    spinner.stop();
  }
  const report: WhoamiReport = {
    account: account.xUsername ?? null,
    plan: account.plan,
    credits: account.creditInfo?.balance ?? null,
    key: redactKey(creds.apiKey),
    keySource: keySourceText(loaded) ?? 'unknown',
    baseUrl: creds.baseUrl,
    baseUrlSource: creds.baseUrlSource,
    profile: creds.profile,
    configFile: loaded.configFile,
  };
  if (out.json) {
    out.value(report);
    return;
  }
  const { style } = out.layout;
  const rows: [string, string][] = [
    ['Account', report.account ? `@${report.account}` : '(no platform username linked)'],
    ['Plan', report.plan],
    ...(report.credits !== null ? [['Credits', groupDigits(report.credits)] as [string, string]] : []),
    ['Key', `${report.key}, from ${report.keySource}`],
    ['Base URL', `${report.baseUrl}${urlSource(report.baseUrlSource, report.profile)}`],
    ['Profile', `${report.profile} (${report.configFile})`],
  ];
  out.line(`${style.green('✓')} Signed in to ${report.baseUrl}`);
  for (const [k, v] of rows) out.line(`  ${style.dim(k.padEnd(9))} ${v}`);
}

/** `9999976` → `9,999,976` for a reader; anything not a plain whole number is shown as it is. */
export function groupDigits(value: string): string {
  return /^-?\d+$/.test(value) ? BigInt(value).toLocaleString('en-US') : value;
}

/** `, from XSVC_BASE_URL`: where the base URL came from, when that is not obvious. */
function urlSource(source: string, profile: string): string {
  if (source === 'profile') return `, from profile "${profile}"`;
  if (source === 'default') return ' (the default: a local xsvc server)';
  return `, from ${source}`;
}

import { AuthenticationError, Xsvc } from '@xsvc/sdk';
import { readStdin } from '../args/input.js';
import { configFile } from '../config/paths.js';
import { redactKey } from '../config/redact.js';
import { checkBaseUrl, DEFAULT_BASE_URL, profileName } from '../config/resolve.js';
import { readConfig, writeConfig } from '../config/store.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { canPrompt } from '../io.js';
import { makeOutput } from '../output/output.js';
import { startSpinner } from '../output/spinner.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';
import { promptSecret } from './prompt.js';

/**
 * `xsvc login`: takes a key (`--api-key`, `--api-key -` from stdin, or a prompt on a terminal), checks it
 * with `GET /account`, then saves it in the profile (0600) and makes that profile current. Never prompts
 * without a terminal: a missing key is then a usage error naming `--api-key`.
 */
export async function login(state: RunState, globals: GlobalFlags, opts: { apiKey?: string }): Promise<void> {
  const { io } = state;
  const out = await makeOutput(io, globals);
  const file = configFile(io);
  const config = await readConfig(file);
  const profile = profileName(io, globals, config);
  const stored = config.profiles[profile];
  const baseUrl = checkBaseUrl(
    globals.baseUrl ?? nonEmpty(io.env.XSVC_BASE_URL) ?? stored?.baseUrl ?? DEFAULT_BASE_URL,
    globals.baseUrl !== undefined ? '--base-url' : 'the base URL',
  );
  const key = await readKey(state, opts.apiKey);
  if (globals.dryRun) {
    out.line(`curl ${baseUrl}/api/v1/account -H "x-api-key: $XSVC_API_KEY"`);
    out.line(`dry run: would check the key ${redactKey(key)} and save it in profile "${profile}" of ${file}`);
    return;
  }
  // The check reads GET /account only to validate the key: nothing the SDK could warn about here is the
  // user's business (a deprecated field of that answer never is; see `exec/deprecations.ts`).
  const client = new Xsvc({
    apiKey: key,
    baseUrl,
    ...(io.fetch && { fetch: io.fetch }),
    maxRetries: 1,
    logger: { warn: () => {} },
  });
  const spinner = startSpinner(io.stderr, `Checking the key with ${baseUrl}…`);
  let account: Awaited<ReturnType<typeof client.account.get>>;
  try {
    account = await client.account.get(io.signal ? { signal: io.signal } : {});
  } catch (err) {
    if (err instanceof AuthenticationError) {
      throw new CliError(
        `${baseUrl} refused the key ${redactKey(key)} (${err.code})`,
        ExitCode.auth,
        'Check the key (svc_ followed by 64 hex characters) and the base URL; nothing was saved.',
        err.code,
      );
    }
    throw err;
  } finally {
    spinner.stop();
  }
  config.profiles[profile] = { ...stored, apiKey: key, baseUrl };
  config.currentProfile = profile;
  await writeConfig(file, config);
  const summary = { profile, baseUrl, key: redactKey(key), plan: account.plan, config: file };
  if (out.json) out.value({ ...summary, account });
  else {
    out.line(
      `${out.layout.style.green('✓')} Logged in to ${baseUrl} with ${summary.key} (profile "${profile}", plan ${account.plan}).`,
    );
    if (account.creditInfo) out.line(`  Credits: ${account.creditInfo.balance}`);
  }
  if (io.env.XSVC_API_KEY)
    out.note(out.errStyle.yellow('Note: XSVC_API_KEY is set and overrides the saved key.'));
}

async function readKey(state: RunState, given: string | undefined): Promise<string> {
  const { io } = state;
  let key = given;
  if (key === '-') key = await readStdin(io);
  if (key === undefined) {
    if (!canPrompt(io)) {
      throw new UsageError(
        'no API key given, and no terminal to ask for one',
        'Pass --api-key <key>, or --api-key - to read it from stdin.',
        'missing_params',
        '--api-key',
      );
    }
    key = await promptSecret(io, 'Paste your API key (svc_…): ');
  }
  key = key.trim();
  if (key === '' || /\s/.test(key)) {
    throw new UsageError(
      '--api-key: the key is empty or contains spaces',
      undefined,
      'invalid_input',
      '--api-key',
    );
  }
  return key;
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v === '' ? undefined : v;
}

import { configFile } from '../config/paths.js';
import { redactKey } from '../config/redact.js';
import { type Credentials, resolveCredentials } from '../config/resolve.js';
import { readConfig } from '../config/store.js';
import { AuthRequiredError } from '../errors.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';

/**
 * The credentials of this run: the config file, then `XSVC_API_KEY` / `XSVC_BASE_URL`, then the flags.
 * Kept in the run's state too, so that an authentication error can say where the key came from.
 */
export async function loadCredentials(
  state: Pick<RunState, 'io' | 'credentials'>,
  globals: GlobalFlags,
): Promise<Credentials> {
  const file = configFile(state.io);
  const config = await readConfig(file);
  const creds = resolveCredentials(state.io, globals, config);
  state.credentials = { ...creds, configFile: file };
  return creds;
}

/** Credentials with the config file they were read from. */
export type LoadedCredentials = Credentials & { readonly configFile: string };

/** Where the key came from, in words: `XSVC_API_KEY (environment)`, `profile "default" in <file>`. */
export function keySourceText(creds: LoadedCredentials): string | undefined {
  if (creds.keySource === 'XSVC_API_KEY') return 'XSVC_API_KEY (environment)';
  if (creds.keySource === 'profile') return `profile "${creds.profile}" in ${creds.configFile}`;
  return undefined;
}

/** What to do when the service refuses the key, by where it came from (the next step of a 401). */
export function refusedKeyNext(creds: LoadedCredentials): string | undefined {
  const from = keySourceText(creds);
  if (from === undefined || creds.apiKey === undefined) return undefined;
  const fix =
    creds.keySource === 'XSVC_API_KEY'
      ? 'set XSVC_API_KEY to a valid key, or unset it to use the saved profile'
      : `run \`xsvc login${creds.profile === 'default' ? '' : ` --profile ${creds.profile}`}\` to replace it`;
  return `The service at ${creds.baseUrl} refused the key ${redactKey(creds.apiKey)} from ${from}: ${fix}. \`xsvc whoami\` shows what is in use.`;
}

/** The error for an operation that needs a key when none is configured (exit code 4). */
export function notLoggedIn(creds: Credentials): AuthRequiredError {
  return new AuthRequiredError(
    `no API key for profile "${creds.profile}"`,
    'Run `xsvc login` (or `xsvc login --profile <name>`), or set XSVC_API_KEY.',
  );
}

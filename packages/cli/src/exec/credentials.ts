import { configFile } from '../config/paths.js';
import { type Credentials, resolveCredentials } from '../config/resolve.js';
import { readConfig } from '../config/store.js';
import { AuthRequiredError } from '../errors.js';
import type { CliIO } from '../io.js';
import type { GlobalFlags } from '../program/globals.js';

/** The credentials of this run: the config file, then `XSVC_API_KEY` / `XSVC_BASE_URL`, then the flags. */
export async function loadCredentials(io: CliIO, globals: GlobalFlags): Promise<Credentials> {
  const config = await readConfig(configFile(io));
  return resolveCredentials(io, globals, config);
}

/** The error for an operation that needs a key when none is configured (exit code 4). */
export function notLoggedIn(creds: Credentials): AuthRequiredError {
  return new AuthRequiredError(
    `no API key for profile "${creds.profile}"`,
    'Run `xsvc login` (or `xsvc login --profile <name>`), or set XSVC_API_KEY.',
  );
}

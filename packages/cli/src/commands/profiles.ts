import { configFile } from '../config/paths.js';
import { redactKey } from '../config/redact.js';
import { DEFAULT_BASE_URL, profileName } from '../config/resolve.js';
import { readConfig, writeConfig } from '../config/store.js';
import { UsageError } from '../errors.js';
import { chooseColumns } from '../output/columns.js';
import { makeOutput } from '../output/output.js';
import { renderTable } from '../output/table.js';
import type { GlobalFlags } from '../program/globals.js';
import type { RunState } from '../program/run-state.js';

function missing(name: string): UsageError {
  return new UsageError(
    `there is no profile named "${name}"`,
    'List them with `xsvc profiles list`.',
    'not_found',
    '<name>',
  );
}

/** `xsvc profiles list`: every profile, the current one marked, keys shown as prefix and last 4. */
export async function listProfiles(state: RunState, globals: GlobalFlags): Promise<void> {
  const { io } = state;
  const out = await makeOutput(io, globals);
  const config = await readConfig(configFile(io));
  const current = profileName(io, {}, config);
  const rows = Object.entries(config.profiles).map(([name, p]) => ({
    name,
    current: name === current,
    baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
    key: p.apiKey ? redactKey(p.apiKey) : '',
  }));
  if (out.json) out.value(rows);
  else if (rows.length === 0) out.note('No profiles yet: run `xsvc login`.');
  else {
    const shown = rows.map((r) => ({ ...r, current: r.current ? '*' : '' }));
    for (const line of renderTable(shown, chooseColumns(shown, undefined), out.layout)) out.line(line);
  }
  if (io.env.XSVC_API_KEY) out.note('XSVC_API_KEY is set: it overrides the key of every profile.');
}

/** `xsvc profiles use <name>`: makes a profile the current one. */
export async function useProfile(state: RunState, globals: GlobalFlags, name: string): Promise<void> {
  const file = configFile(state.io);
  const config = await readConfig(file);
  if (!config.profiles[name]) throw missing(name);
  config.currentProfile = name;
  await writeConfig(file, config);
  const out = await makeOutput(state.io, globals);
  if (out.json) out.value({ current: name });
  else out.line(`Now using profile "${name}".`);
}

/** `xsvc profiles remove <name>`: deletes a profile and its key. */
export async function removeProfile(state: RunState, globals: GlobalFlags, name: string): Promise<void> {
  const file = configFile(state.io);
  const config = await readConfig(file);
  if (!config.profiles[name]) throw missing(name);
  delete config.profiles[name];
  if (config.currentProfile === name) delete config.currentProfile;
  await writeConfig(file, config);
  const out = await makeOutput(state.io, globals);
  if (out.json) out.value({ removed: name });
  else out.line(`Removed profile "${name}".`);
}

/** `xsvc logout`: removes the key of the profile in use (its base URL stays). */
export async function logout(state: RunState, globals: GlobalFlags): Promise<void> {
  const file = configFile(state.io);
  const config = await readConfig(file);
  const name = profileName(state.io, globals, config);
  const profile = config.profiles[name];
  const out = await makeOutput(state.io, globals);
  if (!profile?.apiKey) {
    if (out.json) out.value({ profile: name, loggedOut: false });
    else out.note(`Profile "${name}" has no key: nothing to do.`);
    return;
  }
  const key = redactKey(profile.apiKey);
  delete profile.apiKey;
  await writeConfig(file, config);
  if (out.json) out.value({ profile: name, loggedOut: true, key });
  else out.line(`Logged out of profile "${name}" (removed ${key}).`);
  if (state.io.env.XSVC_API_KEY) out.note('XSVC_API_KEY is still set in the environment.');
}

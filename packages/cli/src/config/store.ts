import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError } from '../errors.js';

/** One named set of credentials. */
export interface Profile {
  apiKey?: string;
  baseUrl?: string;
}

/** The config file's content. */
export interface Config {
  /** The profile used when neither `--profile` nor `XSVC_PROFILE` names one. */
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

/** The profile name used when none was ever chosen. */
export const DEFAULT_PROFILE = 'default';

/** Reads the config; a missing file is an empty config, a corrupt one an error naming the file. */
export async function readConfig(file: string): Promise<Config> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw err;
  }
  try {
    const parsed = JSON.parse(text) as Partial<Config>;
    const profiles =
      parsed.profiles && typeof parsed.profiles === 'object' && !Array.isArray(parsed.profiles)
        ? parsed.profiles
        : {};
    return {
      profiles,
      ...(typeof parsed.currentProfile === 'string' && { currentProfile: parsed.currentProfile }),
    };
  } catch {
    throw new CliError(
      `the config file ${file} is not valid JSON`,
      undefined,
      'Fix it by hand, or delete it and run `xsvc login` again.',
    );
  }
}

/**
 * Writes the config readable by its owner only (0600, in a 0700 directory): it holds API keys. Written to
 * a temporary file first and renamed, so a crash never leaves half a file.
 */
export async function writeConfig(file: string, config: Config): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}

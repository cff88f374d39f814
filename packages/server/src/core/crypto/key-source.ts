import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type Config, ConfigError } from '../config.js';
import type { Db } from '../db/database.js';
import {
  deleteLegacySecrets,
  initKeyCheck,
  keyCheck,
  legacySessionSecret,
  setKeyCheck,
} from '../db/server-secret.js';
import { deriveKey, SecretKeys } from './secret-box.js';

/** Where the current secret key came from, for the start-up message. */
export type KeySource =
  | { kind: 'environment' }
  /** The key file, as it was. */
  | { kind: 'file'; file: string; looseMode?: number }
  /** A new key file with a new random key. */
  | { kind: 'created'; file: string }
  /** A new key file holding the secret an older server kept in the database (deleted from it). */
  | { kind: 'moved'; file: string }
  /** A random key for this process only (no key file configured: an in-memory database, tests). */
  | { kind: 'memory' };

/** The server's keys and where they came from. */
export interface LoadedKeys {
  readonly keys: SecretKeys;
  readonly source: KeySource;
}

/**
 * The key file of a configuration: `XSVC_SECRET_KEY_FILE`, else `secret-key` next to the SQLite file, else
 * (Postgres) `./.xsvc/secret-key`; undefined for none (set empty, or an in-memory SQLite database, whose
 * contents die with the process anyway).
 */
export function keyFileOf(config: Pick<Config, 'secretKeyFile' | 'databaseUrl'>): string | undefined {
  if (config.secretKeyFile !== undefined) return config.secretKeyFile || undefined;
  const url = config.databaseUrl;
  if (/^postgres(ql)?:\/\//.test(url)) return join('.xsvc', 'secret-key');
  if (url === ':memory:' || url.startsWith('file::memory:')) return undefined;
  return join(dirname(url), 'secret-key');
}

/** The check value of a secret key: lets a start tell whether the database's values are under it. */
export function checkValue(secret: string): string {
  return deriveKey(secret, 'secret-key-check').toString('hex');
}

/**
 * The secret keys of a server at start: `XSVC_SECRET_KEY` (with `XSVC_SECRET_KEY_PREVIOUS` during a
 * rotation), else the key file, created at first start (mode 0600) with a random key, or with the secret an
 * older server kept in the database for connected accounts' sessions, so what it sealed still opens. A
 * secret still in the database and not the current key joins the previous keys: what it sealed is sealed
 * again under the current key, then it is deleted ({@link completeKeyChange}).
 *
 * Refuses to start (`ConfigError`) when the database records the check value of another key: that instance
 * would seal what the others cannot open, and could open nothing they sealed.
 */
export async function loadSecretKeys(config: Config, database: Db): Promise<LoadedKeys> {
  const legacy = await legacySessionSecret(database.db);
  let current: string;
  let source: KeySource;
  const previous: string[] = [];
  if (config.secretKey) {
    current = config.secretKey;
    source = { kind: 'environment' };
    if (config.secretKeyPrevious) previous.push(config.secretKeyPrevious);
  } else {
    const file = keyFileOf(config);
    if (file === undefined) {
      current = randomBytes(32).toString('hex');
      source = { kind: 'memory' };
    } else {
      const existing = readKeyFile(file);
      if (existing !== undefined) {
        current = existing.key;
        source = {
          kind: 'file',
          file,
          ...(existing.looseMode !== undefined && { looseMode: existing.looseMode }),
        };
      } else {
        const created = createKeyFile(file, legacy ?? randomBytes(32).toString('hex'));
        current = created.key;
        source = created.won ? { kind: legacy ? 'moved' : 'created', file } : { kind: 'file', file };
      }
    }
  }
  if (legacy !== undefined && legacy !== current) previous.push(legacy);
  const stored = await keyCheck(database.db);
  if (
    stored !== undefined &&
    stored !== checkValue(current) &&
    !previous.some((p) => checkValue(p) === stored)
  )
    throw new ConfigError(
      `the secret key does not match this database: its secrets were sealed under another key (${describeKeySource(source)}). Give every instance the same XSVC_SECRET_KEY (or the same key file); to change the key, set the old one as XSVC_SECRET_KEY_PREVIOUS`,
    );
  return { keys: new SecretKeys(current, previous), source };
}

/**
 * Once every sealed value is under the current key: records its check value (the first start on a new
 * database, or the end of a rotation) and deletes the secrets older servers kept in the database.
 */
export async function completeKeyChange(database: Db, keys: SecretKeys, now: number): Promise<void> {
  const check = checkValue(keys.current);
  if (keys.previous.length > 0) await setKeyCheck(database.db, check, now);
  else await initKeyCheck(database.db, check, now);
  await deleteLegacySecrets(database.db);
}

/** The start-up line about the key (the server logs it; `xsvc-server` prints it). */
export function describeKeySource(source: KeySource): string {
  switch (source.kind) {
    case 'environment':
      return 'from XSVC_SECRET_KEY';
    case 'file':
      return source.looseMode === undefined
        ? `from ${source.file}`
        : `from ${source.file}, which others can read (mode ${source.looseMode.toString(8)}): chmod 600 it`;
    case 'created':
      return `created ${source.file} (mode 0600): keep it, apart from the database's backups; without it nothing sealed can be read`;
    case 'moved':
      return `moved the secret the database held to ${source.file} (mode 0600) and deleted it from the database`;
    case 'memory':
      return 'a random key for this process only (no key file): nothing sealed survives a restart';
  }
}

function readKeyFile(file: string): { key: string; looseMode?: number } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const key = text.trim();
  if (key.length < 32)
    throw new ConfigError(
      `${file} does not hold a secret key (at least 32 characters); remove it or restore it`,
    );
  const mode = statSync(file).mode & 0o777;
  return { key, ...((mode & 0o077) !== 0 && { looseMode: mode }) };
}

/**
 * Writes `key` to `file` (mode 0600) unless it exists: written aside, then linked into place, so a
 * concurrent start never reads a half-written file, and the one that loses the race reads the winner's.
 */
function createKeyFile(file: string, key: string): { key: string; won: boolean } {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${key}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(tmp, 0o600);
  try {
    linkSync(tmp, file);
    return { key, won: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const existing = readKeyFile(file);
    if (!existing) throw err;
    return { key: existing.key, won: false };
  } finally {
    unlinkSync(tmp);
  }
}

import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * `server_secrets` holds no key any more, only a check value of the current secret key (so that an instance
 * with another key refuses to start instead of sealing what the others cannot open). Before, it held random
 * secrets the server generated for itself (`x-account-sessions`, `machine-payments`): a copy of the database
 * held the key of what it encrypted. A start moves the first one to the key file and deletes both
 * (`core/crypto/key-source.ts`).
 */
export const LEGACY_SECRET_NAMES = ['x-account-sessions', 'machine-payments'] as const;

const CHECK_NAME = 'secret-key-check';

/** The value of a row of `server_secrets`, if any. */
async function value(db: Kysely<Database>, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.value;
}

/** The secret an older server generated and kept in the database for connected accounts' sessions. */
export function legacySessionSecret(db: Kysely<Database>): Promise<string | undefined> {
  return value(db, LEGACY_SECRET_NAMES[0]);
}

/** Deletes the secrets older servers kept in the database. */
export async function deleteLegacySecrets(db: Kysely<Database>): Promise<void> {
  await db
    .deleteFrom('server_secrets')
    .where('name', 'in', [...LEGACY_SECRET_NAMES])
    .execute();
}

/** The check value of the secret key the database's sealed values are under, if one was recorded. */
export function keyCheck(db: Kysely<Database>): Promise<string | undefined> {
  return value(db, CHECK_NAME);
}

/** Records `check` as the database's key check value (replacing the one of a rotated key). */
export async function setKeyCheck(db: Kysely<Database>, check: string, now: number): Promise<void> {
  await db
    .insertInto('server_secrets')
    .values({ name: CHECK_NAME, value: check, created_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: check, created_at: now }))
    .execute();
}

/**
 * Records `check` unless a check value is already there; answers the one that stands (the first instance
 * to start on a new database sets it).
 */
export async function initKeyCheck(db: Kysely<Database>, check: string, now: number): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name: CHECK_NAME, value: check, created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await value(db, CHECK_NAME)) ?? check;
}

import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * A random secret the server generates once under `name` and keeps in `server_secrets`, so that every
 * instance on the same database (and every restart) uses the same one. The insert that loses a race changes
 * nothing; the value read back is the one that won.
 */
export async function storedSecret(db: Kysely<Database>, name: string, now: number): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomBytes(32).toString('hex'), created_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}

import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type AccountRow, createAccount } from './accounts.js';

/** The e-mail of the owner account that `bootstrapOwner` creates. */
export const OWNER_EMAIL = 'owner@localhost';

/**
 * The account an e-mail signs in to, created on first sign-in: a regular account with no credits, or the
 * owner for {@link OWNER_EMAIL} when the server has no owner yet (normally the first start created it). A
 * regular account starts with `plan` (`none`: no subscription yet); the owner's plan is always active.
 */
export async function accountForEmail(
  db: Kysely<Database>,
  email: string,
  now: number,
  plan: 'active' | 'none' = 'active',
): Promise<AccountRow> {
  const existing = await db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
  if (existing) return existing;
  const owner = await db.selectFrom('accounts').select('id').where('is_owner', '=', 1).executeTakeFirst();
  const isOwner = email === OWNER_EMAIL && !owner;
  try {
    return await createAccount(db, { email, isOwner, credits: 0n, now, plan: isOwner ? 'active' : plan });
  } catch (err) {
    // Two first sign-ins of the same address at once: the unique e-mail lets one insert win.
    const again = await db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
    if (again) return again;
    throw err;
  }
}

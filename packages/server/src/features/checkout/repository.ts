import type { Kysely, Selectable } from 'kysely';
import { num } from '../../db/database.js';
import type { CheckoutsTable, Database } from '../../db/schema.js';

/** A checkout row (created by `subscribe` and `topUpCredits`). */
export type CheckoutRow = Selectable<CheckoutsTable>;

/** Loads a checkout by id. */
export function findCheckout(db: Kysely<Database>, id: string): Promise<CheckoutRow | undefined> {
  return db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Moves an open checkout to `paid`. The conditional update is the claim: of two concurrent approvals only
 * one gets true, so the credits are granted once.
 */
export async function claimCheckout(db: Kysely<Database>, id: string): Promise<boolean> {
  const r = await db
    .updateTable('checkouts')
    .set({ status: 'paid' })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return num(r.numUpdatedRows) === 1;
}

/** Undoes a claim whose grant failed, so the checkout can be approved again. */
export async function releaseCheckout(db: Kysely<Database>, id: string): Promise<void> {
  await db
    .updateTable('checkouts')
    .set({ status: 'open' })
    .where('id', '=', id)
    .where('status', '=', 'paid')
    .execute();
}

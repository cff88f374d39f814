import type { Kysely, Selectable } from 'kysely';
import { num } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { randomId } from '../ids/index.js';
import type { CheckoutsTable } from './tables.js';

/** A checkout row (created by `subscribe` and `topUpCredits`). */
export type CheckoutRow = Selectable<CheckoutsTable>;

/**
 * What a checkout buys: credits (`topup`), the plan (`subscription`), or credits bought automatically when
 * the balance ran low (`auto_topup`, paid at once with the payment method on file).
 */
export type CheckoutKind = 'topup' | 'subscription' | 'auto_topup';

/**
 * How long a checkout can be approved: 24 hours, as a hosted Stripe Checkout session. After that it is
 * `expired` for good (its page answers 410, approving it answers 410 `expired`); the buyer opens a new one.
 */
export const CHECKOUT_TTL_MS = 24 * 3_600_000;

/** When a checkout stops accepting approval (rows from before expiries existed: created + the TTL). */
export function checkoutExpiresAt(row: Pick<CheckoutRow, 'expires_at' | 'created_at'>): number {
  return row.expires_at === null ? num(row.created_at) + CHECKOUT_TTL_MS : num(row.expires_at);
}

/** Opens a checkout for `dollars` (credits granted on approval: `credits`); returns its `cs_…` id. */
export async function insertCheckout(
  db: Kysely<Database>,
  c: { accountId: string; kind: CheckoutKind; dollars: bigint; credits: bigint; now: number },
): Promise<{ id: string; expiresAt: number }> {
  const id = randomId('cs');
  const expiresAt = c.now + CHECKOUT_TTL_MS;
  await db
    .insertInto('checkouts')
    .values({
      id,
      account_id: c.accountId,
      kind: c.kind,
      dollars: c.dollars,
      credits: c.credits,
      status: 'open',
      created_at: c.now,
      expires_at: expiresAt,
    })
    .execute();
  return { id, expiresAt };
}

/** Loads a checkout by id, as stored. */
export function findCheckout(db: Kysely<Database>, id: string): Promise<CheckoutRow | undefined> {
  return db.selectFrom('checkouts').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Loads a checkout by id as it stands at `now`: an open checkout past its expiry is moved to `expired`
 * first (a conditional update, so it cannot race an approval that claimed it in time).
 */
export async function currentCheckout(
  db: Kysely<Database>,
  id: string,
  now: number,
): Promise<CheckoutRow | undefined> {
  const row = await findCheckout(db, id);
  if (row?.status !== 'open' || checkoutExpiresAt(row) > now) return row;
  await db
    .updateTable('checkouts')
    .set({ status: 'expired' })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .execute();
  return findCheckout(db, id);
}

/**
 * Moves an open, unexpired checkout to `paid`. The conditional update is the claim: of two concurrent
 * approvals only one gets true, so the credits are granted once; an expired checkout is never claimed.
 */
export async function claimCheckout(db: Kysely<Database>, id: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('checkouts')
    .set({ status: 'paid' })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .where((eb) =>
      eb.or([
        eb('expires_at', '>', now),
        eb.and([eb('expires_at', 'is', null), eb('created_at', '>', now - CHECKOUT_TTL_MS)]),
      ]),
    )
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

import type { Kysely, Selectable } from 'kysely';
import { planState } from '../billing/plan.js';
import { big, num } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { uuid } from '../ids/index.js';
import { generateApiKey, keyPrefix, sha256 } from './keys.js';
import type { AccountsTable } from './tables.js';

/** An account row. */
export type AccountRow = Selectable<AccountsTable>;

/** Loads an account by id. */
export function findAccount(db: Kysely<Database>, id: string): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Creates an account with a starting credit grant written to the ledger. */
export async function createAccount(
  db: Kysely<Database>,
  input: { email: string; isOwner: boolean; credits: bigint; now: number; plan?: 'active' | 'none' },
): Promise<AccountRow> {
  const id = uuid();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('accounts')
      .values({
        id,
        email: input.email,
        plan: input.plan ?? 'active',
        locale: 'en',
        x_username: null,
        credits_balance: input.credits,
        lifetime_purchased: 0n,
        lifetime_used: 0n,
        auto_topup_enabled: 0,
        auto_topup_amount_dollars: 0,
        auto_topup_threshold: 0n,
        is_owner: input.isOwner ? 1 : 0,
        created_at: input.now,
      })
      .execute();
    if (input.credits > 0n) {
      await trx
        .insertInto('credit_ledger')
        .values({
          id: uuid(),
          account_id: id,
          delta: input.credits,
          balance_after: input.credits,
          operation: 'grant:bootstrap',
          units: 1,
          request_id: null,
          created_at: input.now,
        })
        .execute();
    }
  });
  const row = await findAccount(db, id);
  if (!row) throw new Error('account vanished after creation');
  return row;
}

/** Creates an API key for an account; returns the full key (shown once) and its record. */
export async function createApiKey(
  db: Kysely<Database>,
  input: { accountId: string; name: string; now: number; key?: string },
): Promise<{ id: string; fullKey: string; prefix: string }> {
  const fullKey = input.key ?? generateApiKey();
  const id = uuid();
  await db
    .insertInto('api_keys')
    .values({
      id,
      account_id: input.accountId,
      name: input.name,
      prefix: keyPrefix(fullKey),
      hash: sha256(fullKey),
      created_at: input.now,
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return { id, fullKey, prefix: keyPrefix(fullKey) };
}

/** Revokes an active key of the account; false when it has no active key with this id. */
export async function revokeApiKey(
  db: Kysely<Database>,
  accountId: string,
  keyId: string,
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('id', '=', keyId)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return num(r.numUpdatedRows) !== 0;
}

/** Sets the account's locale. */
export async function setAccountLocale(
  db: Kysely<Database>,
  accountId: string,
  locale: string,
): Promise<void> {
  await db.updateTable('accounts').set({ locale }).where('id', '=', accountId).execute();
}

/** Sets the platform username the account presents as its own (`x_username`). */
export async function setAccountXUsername(
  db: Kysely<Database>,
  accountId: string,
  username: string,
): Promise<void> {
  await db.updateTable('accounts').set({ x_username: username }).where('id', '=', accountId).execute();
}

/**
 * Inserts the account row of a guest wallet (plan `guest`, no credits, no sign-in: `email` is not an
 * address); the caller writes the wallet in the same transaction.
 */
export async function insertGuestAccount(
  db: Kysely<Database>,
  input: { id: string; email: string; now: number },
): Promise<void> {
  await db
    .insertInto('accounts')
    .values({
      id: input.id,
      email: input.email,
      plan: 'guest',
      locale: 'en',
      x_username: null,
      credits_balance: 0n,
      lifetime_purchased: 0n,
      lifetime_used: 0n,
      auto_topup_enabled: 0,
      auto_topup_amount_dollars: 0,
      auto_topup_threshold: 0n,
      is_owner: 0,
      created_at: input.now,
    })
    .execute();
}

/** Counts an account's active keys (spec 2.3: at most 100). */
export async function countActiveKeys(db: Kysely<Database>, accountId: string): Promise<number> {
  const r = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return num(r?.n as bigint | number | undefined);
}

/** The account in the API's shape (spec 2.2). */
export function toApiAccount(row: AccountRow, monitorsUsed: number, creditsPerHour: number, now: number) {
  const perHour = BigInt(creditsPerHour);
  return {
    plan: planState(row, now) === 'active' ? ('active' as const) : ('inactive' as const),
    monitorsUsed,
    monitorsAllowed: Number.MAX_SAFE_INTEGER,
    monitorBilling: {
      activeDailyEstimate: String(perHour * 24n * BigInt(monitorsUsed)),
      activeHourlyBurn: String(perHour * BigInt(monitorsUsed)),
      creditsPerActiveMonitorDay: String(perHour * 24n),
      creditsPerActiveMonitorHour: String(perHour),
      eventsIncluded: true,
      instantCheckIntervalSeconds: 1,
      unlimitedSlots: true,
    },
    creditInfo: {
      balance: String(big(row.credits_balance)),
      lifetimePurchased: String(big(row.lifetime_purchased)),
      lifetimeUsed: String(big(row.lifetime_used)),
      autoTopupEnabled: num(row.auto_topup_enabled) === 1,
      autoTopupAmountDollars: num(row.auto_topup_amount_dollars),
      autoTopupThreshold: String(big(row.auto_topup_threshold)),
    },
    ...(row.x_username ? { xUsername: row.x_username } : {}),
  };
}

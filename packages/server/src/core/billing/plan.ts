import type { Kysely } from 'kysely';
import type { AccountsTable } from '../auth/tables.js';
import { num } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';

/** The period a subscription checkout pays for: 30 days, after which the plan lapses unless renewed. */
export const PLAN_PERIOD_MS = 30 * 24 * 3_600_000;

/** Where an account's plan stands: paid for, lapsed, or never subscribed. */
export type PlanState = 'active' | 'inactive' | 'none';

/**
 * The plan of an account at `now` (the plan life cycle of the reference): `active` while its period runs (a
 * plan with no period, as the owner's, never lapses), `inactive` once the period ended or the plan was
 * stopped, `none` for an account that never subscribed (stored `plan` `none`; the API shows `inactive`).
 */
export function planState(row: Pick<AccountsTable, 'plan' | 'plan_renews_at'>, now: number): PlanState {
  if (row.plan === 'none') return 'none';
  if (row.plan !== 'active') return 'inactive';
  const renews = row.plan_renews_at === null ? undefined : num(row.plan_renews_at);
  return renews === undefined || renews > now ? 'active' : 'inactive';
}

/** 402 `no_subscription` or `subscription_inactive` for a plan that is not active; undefined when it is. */
export function planError(state: PlanState): HttpError | undefined {
  if (state === 'active') return undefined;
  if (state === 'inactive')
    return new HttpError(
      'subscription_inactive',
      'the subscription has lapsed; renew it with POST /api/v1/subscribe',
    );
  return new HttpError(
    'no_subscription',
    'the account has no subscription; subscribe with POST /api/v1/subscribe',
  );
}

/** Throws the 402 of {@link planError} unless the account's plan is active at `now`. */
export async function requireActivePlan(db: Kysely<Database>, accountId: string, now: number): Promise<void> {
  const row = await db
    .selectFrom('accounts')
    .select(['plan', 'plan_renews_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) return;
  const error = planError(planState(row, now));
  if (error) throw error;
}

/**
 * A paid subscription checkout: the plan is active for a new period from `now`, or from the end of the
 * running one when it is renewed early (reactivation of a lapsed plan starts at `now`).
 */
export async function activatePlan(db: Kysely<Database>, accountId: string, now: number): Promise<void> {
  const row = await db
    .selectFrom('accounts')
    .select(['plan', 'plan_renews_at'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  const running = row && planState(row, now) === 'active' && row.plan_renews_at !== null;
  const from = running ? num(row.plan_renews_at as number | bigint) : now;
  await db
    .updateTable('accounts')
    .set({ plan: 'active', plan_renews_at: from + PLAN_PERIOD_MS })
    .where('id', '=', accountId)
    .execute();
}

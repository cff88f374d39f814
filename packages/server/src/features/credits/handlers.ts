import { randomUUID } from 'node:crypto';
import { big, num } from '../../db/database.js';
import { HttpError } from '../../http/errors.js';
import { defineHandlers } from '../../http/handler.js';
import { findAccount } from '../account/repository.js';

/** Credits bought per US dollar by a simulated checkout. */
export const CREDITS_PER_DOLLAR = 10_000n;

/**
 * Credits and subscriptions (reference tag Subscribe). A self-hosted server has no card processor: a
 * checkout is a local page (`/checkout/{id}`) where the owner of the server approves the grant, so the flow
 * (create checkout → pay → poll status) is the service's, without money moving.
 */
export const creditsHandlers = defineHandlers({
  getCredits: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const row = await findAccount(ctx.services.database.db, accountId);
    if (!row) throw new HttpError('account_not_found', 'the account no longer exists');
    return {
      balance: String(big(row.credits_balance)),
      lifetime_purchased: String(big(row.lifetime_purchased)),
      lifetime_used: String(big(row.lifetime_used)),
      auto_topup_enabled: num(row.auto_topup_enabled) === 1,
      auto_topup_amount_dollars: num(row.auto_topup_amount_dollars),
      auto_topup_threshold: String(big(row.auto_topup_threshold)),
    };
  },

  subscribe: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const row = await findAccount(ctx.services.database.db, accountId);
    if (row?.plan === 'active') {
      return {
        url: `${ctx.services.publicUrl()}/account`,
        status: 'already_subscribed',
        message: 'the account already has an active plan',
      };
    }
    const id = await createCheckout(ctx.services, accountId, 'subscription', 0n);
    return {
      url: `${ctx.services.publicUrl()}/checkout/${id}`,
      status: 'checkout_created',
      message: 'open the URL to confirm the plan',
    };
  },

  topUpCredits: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const dollars = BigInt(ctx.body.dollars);
    const id = await createCheckout(ctx.services, accountId, 'topup', dollars);
    const base = ctx.services.publicUrl();
    return { url: `${base}/checkout/${id}`, redirect_url: `${base}/checkout/${id}/done` };
  },

  getCreditTopupStatus: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const row = await ctx.services.database.db
      .selectFrom('checkouts')
      .selectAll()
      .where('id', '=', ctx.query.session_id)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (!row) throw new HttpError('not_found', 'no checkout with this session_id');
    const status = row.status === 'paid' ? 'paid' : row.status === 'expired' ? 'expired' : 'processing';
    return {
      status,
      amount_dollars: num(row.dollars),
      ...(status === 'paid' && { credits: String(big(row.credits)) }),
    };
  },

  quickTopUpCredits: async (ctx) => {
    // A self-hosted server holds no saved card: say so instead of pretending to charge one.
    ctx.requirePrincipal();
    return { outcome: 'no_saved_card' };
  },
});

async function createCheckout(
  services: {
    database: { db: import('kysely').Kysely<import('../../db/schema.js').Database> };
    clock: { now(): number };
  },
  accountId: string,
  kind: string,
  dollars: bigint,
): Promise<string> {
  const id = `cs_${randomUUID().replace(/-/g, '')}`;
  await services.database.db
    .insertInto('checkouts')
    .values({
      id,
      account_id: accountId,
      kind,
      dollars,
      credits: dollars * CREDITS_PER_DOLLAR,
      status: 'open',
      created_at: services.clock.now(),
    })
    .execute();
  return id;
}

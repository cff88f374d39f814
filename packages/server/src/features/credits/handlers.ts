import { findAccount } from '../../core/auth/accounts.js';
import { CREDITS_PER_DOLLAR, saveAutoTopupSettings } from '../../core/billing/auto-topup.js';
import { type CheckoutKind, currentCheckout, insertCheckout } from '../../core/billing/checkouts.js';
import { planState } from '../../core/billing/plan.js';
import { big, num } from '../../core/db/database.js';
import { HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers } from '../../core/http/handler.js';
import type { Services } from '../../core/services.js';

export { CREDITS_PER_DOLLAR };

/**
 * Credits and subscriptions (reference tag Subscribe). A self-hosted server has no card processor: a
 * checkout is a local page (`/checkout/{id}`) where the owner of the server approves the grant, so the flow
 * (create checkout → pay → poll status) is the service's, without money moving. A checkout left unapproved
 * for 24 hours expires (`getCreditTopupStatus` answers `expired`).
 */
export const creditsHandlers = defineHandlers({
  getCredits: async (ctx) => creditsOf(ctx.services, ctx.requirePrincipal().accountId),

  updateAutoTopup: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { database, credits } = ctx.services;
    await saveAutoTopupSettings(database.db, accountId, ctx.body);
    const after = await creditsOf(ctx.services, accountId);
    if (after.auto_topup_enabled && after.auto_topup_amount_dollars < 10)
      throw new HttpError(
        'invalid_input',
        'auto_topup_amount_dollars: set an amount of 10-500 dollars to turn auto top-up on',
      );
    await credits.setAutoTopup(
      accountId,
      after.auto_topup_enabled ? BigInt(after.auto_topup_threshold) : undefined,
    );
    return after;
  },

  subscribe: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const row = await findAccount(ctx.services.database.db, accountId);
    if (row && planState(row, ctx.services.clock.now()) === 'active') {
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
    // Both fields are the service's own redirect (reference shapes 8.11): the checkout page stays behind it.
    const url = `${ctx.services.publicUrl()}/api/v1/credits/topup/redirect?session_id=${id}`;
    return { url, redirect_url: url };
  },

  redirectTopupCheckout: async (ctx) => {
    const { database, clock } = ctx.services;
    const row = await currentCheckout(database.db, ctx.query.session_id, clock.now());
    if (!row || row.kind !== 'topup')
      throw new HttpError('not_found', 'no top-up checkout with this session_id');
    if (row.status === 'expired')
      throw new HttpError('expired', 'this checkout expired before it was paid; open a new top-up');
    // An open checkout goes to its page; a settled one to its confirmation (a second open of the link).
    const page = row.status === 'open' ? '' : '/done';
    return new Answer(302, undefined, {
      location: `${ctx.services.publicUrl()}/checkout/${row.id}${page}`,
      'cache-control': 'no-store',
    });
  },

  getCreditTopupStatus: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { database, clock } = ctx.services;
    const row = await currentCheckout(database.db, ctx.query.session_id, clock.now());
    // Another account's checkout is answered like a missing one: its existence is not revealed.
    if (!row || row.account_id !== accountId)
      throw new HttpError('not_found', 'no checkout with this session_id');
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

/** Opens a checkout of the caller's account; the credits follow from the dollars. */
async function createCheckout(
  services: Pick<Services, 'database' | 'clock'>,
  accountId: string,
  kind: CheckoutKind,
  dollars: bigint,
): Promise<string> {
  const { id } = await insertCheckout(services.database.db, {
    accountId,
    kind,
    dollars,
    credits: dollars * CREDITS_PER_DOLLAR,
    now: services.clock.now(),
  });
  return id;
}

/** The credits of an account in the API's shape (reference `GET /credits`). */
async function creditsOf(services: Pick<Services, 'database'>, accountId: string) {
  const row = await findAccount(services.database.db, accountId);
  if (!row) throw new HttpError('account_not_found', 'the account no longer exists');
  return {
    balance: String(big(row.credits_balance)),
    lifetime_purchased: String(big(row.lifetime_purchased)),
    lifetime_used: String(big(row.lifetime_used)),
    auto_topup_enabled: num(row.auto_topup_enabled) === 1,
    auto_topup_amount_dollars: num(row.auto_topup_amount_dollars),
    auto_topup_threshold: String(big(row.auto_topup_threshold)),
  };
}

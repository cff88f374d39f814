import {
  type CheckoutRow,
  checkoutExpiresAt,
  claimCheckout,
  currentCheckout,
  findCheckout,
  releaseCheckout,
} from '../../core/billing/checkouts.js';
import { activatePlan } from '../../core/billing/plan.js';
import { big } from '../../core/db/database.js';
import { HttpError } from '../../core/http/errors.js';
import type { Services } from '../../core/services.js';

/** What an approval did. */
export interface Approval {
  checkout: CheckoutRow;
  /** False when the checkout was already paid (approving again changes nothing). */
  granted: boolean;
}

/**
 * Pays a checkout: a top-up grants its credits as purchased credits (ledger row `purchase:topup`), a
 * subscription activates the plan for a period (`PLAN_PERIOD_MS`; a lapsed plan is reactivated). Idempotent: approving a paid checkout again grants nothing. A checkout
 * past its expiry (see `CHECKOUT_TTL_MS`) is never paid: 410 `expired`.
 */
export async function approveCheckout(services: Services, id: string): Promise<Approval> {
  const db = services.database.db;
  const at = services.clock.now();
  const checkout = await findCheckout(db, id);
  if (!checkout) throw new HttpError('not_found', 'no checkout with this id');
  if (!(await claimCheckout(db, id, at))) {
    const now = await currentCheckout(db, id, at);
    if (now?.status === 'paid') return { checkout: now, granted: false };
    if (now?.status === 'expired') {
      const expiresAt = new Date(checkoutExpiresAt(now)).toISOString();
      throw new HttpError('expired', `this checkout expired at ${expiresAt}; open a new one`, { expiresAt });
    }
    throw new HttpError(
      'invalid_input',
      `this checkout is ${now?.status ?? 'gone'} and can no longer be approved`,
      {},
      409,
    );
  }
  try {
    const credits = big(checkout.credits);
    if (credits > 0n)
      await services.credits.grant(checkout.account_id, credits, `purchase:${checkout.kind}`, true);
    if (checkout.kind === 'subscription') await activatePlan(db, checkout.account_id, at);
  } catch (err) {
    await releaseCheckout(db, id);
    throw err;
  }
  return { checkout: { ...checkout, status: 'paid' }, granted: true };
}

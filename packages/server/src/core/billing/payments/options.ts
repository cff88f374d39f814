import type { Principal } from '../../auth/authenticate.js';
import { HttpError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { planState } from '../plan.js';

/** One way to pay that a 402 offers (spec 4.9, part 7): an action the caller may take, never taken for it. */
export interface PaymentOption {
  readonly type: 'credit_topup' | 'subscription_checkout' | 'guest_wallet_topup';
  readonly method: 'POST';
  readonly url: string;
  /** A body the action accepts (the smallest top-up), where it takes one. */
  readonly body?: Record<string, unknown>;
  readonly description: string;
  /** Always true: a person completes the checkout; nothing is bought automatically. */
  readonly requires_user_interaction: true;
}

/**
 * The payment options of a caller who ran out of credits: for an account, a credit top-up and (while its
 * plan is not active) a subscription checkout; for a guest wallet, a wallet top-up. A machine payment has
 * none (it pays per call).
 */
export async function paymentOptionsFor(
  services: Services,
  principal: Principal | undefined,
): Promise<PaymentOption[]> {
  if (!principal || principal.mode === 'payment') return [];
  const base = `${services.publicUrl()}/api/v1`;
  if (principal.mode === 'guest') {
    return [
      {
        type: 'guest_wallet_topup',
        method: 'POST',
        url: `${base}/guest-wallets/topups`,
        body: { amount_minor: 1000, currency: 'usd' },
        description: 'add credits to this guest wallet through a hosted checkout (Idempotency-Key required)',
        requires_user_interaction: true,
      },
    ];
  }
  const options: PaymentOption[] = [
    {
      type: 'credit_topup',
      method: 'POST',
      url: `${base}/credits/topup`,
      body: { dollars: 10 },
      description: 'buy credits through a hosted checkout (at least 10 dollars)',
      requires_user_interaction: true,
    },
  ];
  const account = await services.database.db
    .selectFrom('accounts')
    .select(['plan', 'plan_renews_at'])
    .where('id', '=', principal.accountId)
    .executeTakeFirst();
  if (account && planState(account, services.clock.now()) !== 'active') {
    options.push({
      type: 'subscription_checkout',
      method: 'POST',
      url: `${base}/subscribe`,
      description: 'start or renew the subscription through a hosted checkout',
      requires_user_interaction: true,
    });
  }
  return options;
}

/**
 * `err` with the caller's payment options added, when it is a 402 that names none yet; any other error as
 * it is. Nothing is started: the options are links the caller may follow.
 */
export async function withPaymentOptions(
  err: unknown,
  services: Services,
  principal: Principal | undefined,
): Promise<unknown> {
  if (!(err instanceof HttpError) || err.status !== 402 || 'payment_options' in err.extra) return err;
  const options = await paymentOptionsFor(services, principal);
  if (options.length === 0) return err;
  return new HttpError(
    err.code,
    err.message,
    { ...err.extra, payment_options: options },
    err.status,
    err.headers,
  );
}

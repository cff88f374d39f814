import { z } from 'zod';
import { openEnum } from '../zod-helpers.js';

/** States of a guest-wallet purchase (one hosted checkout). */
export const GUEST_PURCHASE_STATUSES = [
  'creating',
  'pending',
  'paid',
  'expired',
  'failed',
  'refunded',
  'disputed',
] as const;

/** States of a guest wallet. */
export const GUEST_WALLET_STATUSES = ['active', 'pending', 'expired', 'failed', 'frozen', 'closed'] as const;

/** The required `Idempotency-Key` of guest-wallet checkouts: a UUID version 4. */
export const GUEST_IDEMPOTENCY_KEY =
  /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$/;

/** Bounds of a guest-wallet payment, in minor units of the currency (cents). */
export const GUEST_AMOUNT_MINOR = { min: 1000, max: 25_000 } as const;

/**
 * The one sentence the service answers as `credential_notice` (fixed by the reference: clients validate it
 * as a literal), so the notice reads the same on every server.
 */
export const GUEST_CREDENTIAL_NOTICE =
  'Store api_key and the Idempotency-Key securely before sharing checkout_url. No email recovery is available.';

/** A whole number carried as a decimal string (credits, balances). */
const DigitString = z.string().regex(/^\d+$/, 'must be a non-negative integer string');

/** An amount of money; its fields are not shown by the reference (they mirror the request's). */
export const GuestWalletAmountSchema = z.object({
  amount_minor: z.number().int().describe('Amount in minor units (cents).'),
  currency: z.string().describe('Currency code.'),
});

/** The answer of guest-wallet creation and top-up: a hosted checkout to pay, and how to follow it. */
export const GuestWalletCheckoutSchema = z.object({
  wallet_id: z.string().describe('Identifier of the wallet (`gw_…`).'),
  purchase_id: z.string().describe('Identifier of this purchase (`gp_…`).'),
  status: openEnum(GUEST_PURCHASE_STATUSES).describe(
    'State of the purchase; credits are usable once `paid`.',
  ),
  amount: GuestWalletAmountSchema.describe('What the checkout charges.'),
  credits: DigitString.describe('Credits the purchase adds once paid.'),
  checkout_url: z.string().describe('Hosted checkout to open in a browser; only after the user confirms.'),
  status_url: z.string().describe('Where to poll the wallet and payment status (with the guest key).'),
  expires_at: z.string().describe('When the checkout expires (ISO 8601).'),
  poll_after_seconds: z.number().int().describe('Seconds to wait before polling `status_url`.'),
  requires_user_interaction: z.boolean().describe('True: a person must complete the checkout.'),
  account_required: z.boolean().describe('False: no account is needed.'),
  instructions: z.string().describe('What to do next, for people and agents.'),
  api_key: z
    .string()
    .optional()
    .describe('The guest key (`Authorization: Bearer …`), shown once at creation; it works after payment.'),
  credential_notice: z
    .literal(GUEST_CREDENTIAL_NOTICE)
    .optional()
    .describe('How to keep the guest key: one fixed sentence.'),
  authorization: z
    .object({
      header: z.literal('Authorization').describe('Always `Authorization`.'),
      scheme: z.literal('Bearer').describe('Always `Bearer`.'),
    })
    .optional()
    .describe('How to send the guest key: `Authorization: Bearer <api_key>`; with the key only.'),
});

/** The latest purchase of a guest wallet (reference `LatestPurchase`). */
export const GuestWalletPurchaseSchema = z.object({
  purchase_id: z.string().describe('Identifier of the purchase (`gp_…`).'),
  status: openEnum(GUEST_PURCHASE_STATUSES).describe('State of the purchase.'),
  amount: GuestWalletAmountSchema.describe('What the checkout charges.'),
  credits: DigitString.describe('Credits the purchase adds once paid.'),
  checkout_url: z.string().nullable().describe('Hosted checkout while it can still be paid; null after.'),
  expires_at: z.string().describe('When the checkout expires or expired (ISO 8601).'),
});

/** A guest wallet's balance and payment status. */
export const GuestWalletStatusSchema = z.object({
  wallet_id: z.string().describe('Identifier of the wallet (`gw_…`).'),
  status: openEnum(GUEST_WALLET_STATUSES).describe('State of the wallet.'),
  usable: z.boolean().describe('True when the guest key can pay for reads now.'),
  balance: DigitString.describe('Credits left.'),
  scope: z.string().describe('What the guest key may call (`paid_reads`).'),
  latest_purchase: GuestWalletPurchaseSchema.nullable().describe('The most recent checkout; null when none.'),
  poll_after_seconds: z
    .number()
    .int()
    .nullable()
    .describe('Seconds to wait before polling again; null when nothing is pending.'),
  top_up: z
    .object({
      method: z.literal('POST').describe('Always `POST`.'),
      path: z.literal('/api/v1/guest-wallets/topups').describe('The top-up operation.'),
    })
    .nullable()
    .describe('How to add credits; null unless the wallet is usable with no checkout open.'),
});

/** The body of guest-wallet creation and top-up. */
export const GuestWalletRequestSchema = z.object({
  amount_minor: z
    .number()
    .int()
    .min(GUEST_AMOUNT_MINOR.min)
    .max(GUEST_AMOUNT_MINOR.max)
    .describe('Amount to pay, in minor units (cents): 1000-25000.'),
  currency: z
    .string()
    .regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code')
    .describe('Currency code (ISO 4217, for example `usd`).'),
});

export type GuestWalletAmount = z.infer<typeof GuestWalletAmountSchema>;
export type GuestWalletCheckout = z.infer<typeof GuestWalletCheckoutSchema>;
export type GuestWalletPurchase = z.infer<typeof GuestWalletPurchaseSchema>;
export type GuestWalletStatus = z.infer<typeof GuestWalletStatusSchema>;
export type GuestWalletRequest = z.input<typeof GuestWalletRequestSchema>;

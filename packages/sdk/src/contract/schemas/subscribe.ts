import { z } from 'zod';
import { CreditString, openEnum } from '../zod-helpers.js';

/** Subscription tiers a checkout can be opened for. */
export const SUBSCRIPTION_TIERS = ['starter', 'pro', 'business'] as const;

/** What a subscription request led to. */
export const SUBSCRIBE_STATUSES = ['checkout_created', 'already_subscribed', 'payment_issue'] as const;

/** States of a credit top-up checkout. */
export const TOPUP_STATUSES = ['paid', 'processing', 'failed', 'expired'] as const;

/** The answer of a subscription request: a hosted checkout (or billing portal) URL. */
export const SubscribeCheckoutSchema = z.object({
  url: z
    .string()
    .describe('Hosted page to open in a browser: the checkout, or where to fix a payment issue.'),
  status: openEnum(SUBSCRIBE_STATUSES).describe(
    '`checkout_created` (open `url` to pay), `already_subscribed`, or `payment_issue` (update the card).',
  ),
  message: z.string().describe('Human-readable explanation of `status`.'),
});

/** The credit balance and auto top-up settings (snake_case on the wire, as the reference spells them). */
export const CreditsSchema = z.object({
  balance: CreditString.describe('Credits available now (integer string).'),
  lifetime_purchased: CreditString.describe('Credits bought since the account was opened.'),
  lifetime_used: CreditString.describe('Credits spent since the account was opened.'),
  auto_topup_enabled: z.boolean().describe('True when the saved card is charged when the balance runs low.'),
  auto_topup_amount_dollars: z.number().describe('US dollars charged by each automatic top-up.'),
  auto_topup_threshold: CreditString.describe('Balance under which an automatic top-up happens.'),
});

/** The answer of a credit top-up request: a hosted checkout. */
export const CreditTopupCheckoutSchema = z.object({
  url: z
    .string()
    .describe('Where to send the user: the service’s own address that redirects to the hosted checkout.'),
  redirect_url: z.string().describe('The same address as `url` (the hosted checkout URL is never exposed).'),
});

/** The state of one credit top-up checkout. */
export const CreditTopupStatusSchema = z.object({
  status: openEnum(TOPUP_STATUSES).describe('`paid`, `processing`, `failed` or `expired`.'),
  amount_dollars: z
    .number()
    .int()
    .min(10)
    .nullable()
    .optional()
    .describe('US dollars of the top-up; null while not known.'),
  credits: CreditString.optional().describe('Credits the top-up adds, once known.'),
});

/** Quick top-up charged the saved card: the new balance. */
export const QuickTopupChargedSchema = z.object({
  outcome: z.string().describe('What happened to the charge.'),
  balance: CreditString.describe('Credit balance after the top-up.'),
  credits: CreditString.describe('Credits added.'),
});

/** Quick top-up needs the user to confirm the payment (for example 3-D Secure) with this client secret. */
export const QuickTopupActionSchema = z.object({
  outcome: z.string().describe('What happened to the charge.'),
  clientSecret: z.string().describe('Secret for the payment page to confirm the charge in the browser.'),
});

/** Quick top-up ended without a charge (no saved card, declined, ...): only the outcome. */
export const QuickTopupOutcomeSchema = z.object({
  outcome: z.string().describe('What happened to the charge.'),
});

/** The answer of a quick top-up: one of its three shapes. */
export const QuickTopupResultSchema = z.union([
  QuickTopupChargedSchema,
  QuickTopupActionSchema,
  QuickTopupOutcomeSchema,
]);

export type SubscribeCheckout = z.infer<typeof SubscribeCheckoutSchema>;
export type Credits = z.infer<typeof CreditsSchema>;
export type CreditTopupCheckout = z.infer<typeof CreditTopupCheckoutSchema>;
export type CreditTopupStatus = z.infer<typeof CreditTopupStatusSchema>;
export type QuickTopupCharged = z.infer<typeof QuickTopupChargedSchema>;
export type QuickTopupAction = z.infer<typeof QuickTopupActionSchema>;
export type QuickTopupOutcome = z.infer<typeof QuickTopupOutcomeSchema>;
export type QuickTopupResult = z.infer<typeof QuickTopupResultSchema>;

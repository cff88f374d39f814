import { z } from 'zod';
import { defineOperation } from '../operation.js';
import {
  CreditsSchema,
  CreditTopupCheckoutSchema,
  CreditTopupStatusSchema,
  QuickTopupResultSchema,
  SUBSCRIPTION_TIERS,
  SubscribeCheckoutSchema,
} from '../schemas/subscribe.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

const checkoutNote = 'Nothing is charged here: the user completes the hosted checkout in a browser.';

export const subscribe = defineOperation({
  id: 'subscribe',
  method: 'POST',
  path: '/api/v1/subscribe',
  tag: 'Subscribe',
  summary: 'Open a subscription checkout',
  description: `Answers a hosted checkout URL, or says the account is already subscribed or has a payment issue. ${checkoutNote}`,
  sdk: ['subscriptions', 'checkout'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z.object({
    tier: z.enum(SUBSCRIPTION_TIERS).optional().describe('Plan to subscribe to: starter, pro or business.'),
  }),
  success: [200],
  response: SubscribeCheckoutSchema,
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'subscriptions checkout --tier pro',
});

export const getCredits = defineOperation({
  id: 'getCredits',
  method: 'GET',
  path: '/api/v1/credits',
  tag: 'Subscribe',
  summary: 'Get the credit balance and auto top-up settings',
  description: 'Credit quantities are integer strings (they may exceed 2^53).',
  sdk: ['credits', 'get'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: CreditsSchema,
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'credits get',
});

export const topUpCredits = defineOperation({
  id: 'topUpCredits',
  method: 'POST',
  path: '/api/v1/credits/topup',
  tag: 'Subscribe',
  summary: 'Open a checkout to buy credits',
  description: `Follow the purchase with \`credits topup-status\`. ${checkoutNote}`,
  sdk: ['credits', 'topup'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z.object({
    dollars: z
      .number()
      .int()
      .min(10)
      .max(1_000_000)
      .describe('US dollars to spend, 10 to 1,000,000 (the credits bought must fit a 64-bit balance).'),
    locale: z.string().min(1).optional().describe('Language of the checkout page (for example `en`).'),
  }),
  success: [200],
  response: CreditTopupCheckoutSchema,
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'credits topup --dollars 25',
});

export const updateAutoTopup = defineOperation({
  id: 'updateAutoTopup',
  method: 'PATCH',
  path: '/api/v1/credits/auto-topup',
  tag: 'Subscribe',
  summary: 'Turn automatic top-up on or off and set its threshold and amount',
  description:
    'With auto top-up on, a charge that takes the balance under the threshold buys the amount through the ' +
    'payment method on file, once per crossing. Answers the credits with the new settings. Fields left out ' +
    'keep their value; at least one is required.',
  sdk: ['credits', 'autoTopup'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z
    .object({
      auto_topup_enabled: z
        .boolean()
        .optional()
        .describe('True buys credits automatically when the balance runs low.'),
      auto_topup_threshold: z
        .union([
          z.string().regex(/^\d{1,18}$/, 'must be a non-negative integer string'),
          z.number().int().min(0),
        ])
        .optional()
        .describe('Balance (credits) under which a top-up happens; an integer or an integer string.'),
      auto_topup_amount_dollars: z
        .number()
        .int()
        .min(10)
        .max(500)
        .optional()
        .describe('US dollars each automatic top-up buys, 10-500.'),
    })
    .refine((b) => Object.values(b).some((v) => v !== undefined), {
      message:
        'at least one of auto_topup_enabled, auto_topup_threshold, auto_topup_amount_dollars is required',
    }),
  success: [200],
  response: CreditsSchema,
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example:
    'credits auto-topup --auto-topup-enabled true --auto-topup-threshold 1000 --auto-topup-amount-dollars 10',
});

export const getCreditTopupStatus = defineOperation({
  id: 'getCreditTopupStatus',
  method: 'GET',
  path: '/api/v1/credits/topup/status',
  tag: 'Subscribe',
  summary: 'Get the state of a credit top-up checkout',
  sdk: ['credits', 'topupStatus'],
  auth: keyOrToken,
  params: null,
  query: z.object({
    session_id: z.string().min(1).describe('Checkout session id, from the return URL of the checkout.'),
  }),
  body: null,
  success: [200],
  response: CreditTopupStatusSchema,
  errors: ['invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'credits topup-status --session-id cs_test_a1b2c3',
});

/**
 * The service's own address of a top-up checkout: `topUpCredits` answers it as `url` and `redirect_url`, and
 * it redirects to the checkout while it can be paid. Outside the reference's 127 operations; the service's
 * SDKs call it (`credits.redirectTopupCheckout`), without credentials.
 */
export const redirectTopupCheckout = defineOperation({
  id: 'redirectTopupCheckout',
  method: 'GET',
  path: '/api/v1/credits/topup/redirect',
  tag: 'Subscribe',
  summary: 'Redirect a browser to an active top-up checkout',
  description:
    'Opened in a browser, with no credentials: answers 302 to the checkout page of `session_id` while it is ' +
    'open, or to its confirmation page once paid. An unknown checkout answers 404 `not_found`, an expired ' +
    `one 410 \`expired\`. ${checkoutNote}`,
  sdk: ['credits', 'redirectTopupCheckout'],
  auth: ['none'],
  params: null,
  query: z.object({
    session_id: z.string().min(1).describe('Checkout session id, from the answer of `topUpCredits`.'),
  }),
  body: null,
  success: [302],
  response: z.void(),
  responseKind: 'empty',
  errors: ['invalid_input', 'not_found', 'expired'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'credits redirect-topup-checkout --session-id cs_0123456789abcdef0123456789abcdef',
});

export const quickTopUpCredits = defineOperation({
  id: 'quickTopUpCredits',
  method: 'POST',
  path: '/api/v1/credits/quick-topup',
  tag: 'Subscribe',
  summary: 'Buy credits with the saved card',
  description:
    'Dashboard only (session cookie). Charges the card on file: the answer gives the new balance, or a ' +
    '`clientSecret` when the payment needs the user to confirm it, or only an `outcome` when nothing was charged.',
  sdk: ['credits', 'quickTopup'],
  auth: ['session'],
  params: null,
  query: null,
  body: z.object({
    dollars: z.number().min(10).max(500).describe('US dollars to charge, 10-500.'),
  }),
  success: [200],
  response: QuickTopupResultSchema,
  errors: ['invalid_input'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'credits quick-topup --dollars 50',
});

/** The Subscribe operations. */
export const subscribeOperations = [
  subscribe,
  getCredits,
  topUpCredits,
  updateAutoTopup,
  getCreditTopupStatus,
  redirectTopupCheckout,
  quickTopUpCredits,
] as const;

import type { ErrorCode } from '../errors.js';
import { CHECKOUT_IDEMPOTENCY_KEY } from '../headers.js';
import { defineOperation } from '../operation.js';
import {
  GuestWalletCheckoutSchema,
  GuestWalletRequestSchema,
  GuestWalletStatusSchema,
} from '../schemas/guest-wallets.js';

/** Errors of both checkout operations. */
const checkoutErrors = [
  'invalid_input',
  'invalid_payment_amount',
  'missing_idempotency_key',
  'invalid_idempotency_key',
  'idempotency_key_conflict',
  'expired',
  'body_too_large',
  'unsupported_media_type',
  'rate_limited',
  'checkout_unavailable',
  'guest_wallets_unavailable',
  'guest_wallets_disabled',
] as const satisfies readonly ErrorCode[];

const checkoutNote =
  'Requires an `Idempotency-Key` header holding a UUID v4 (the SDK sends one by itself): a repeat with the ' +
  'same key answers the same checkout; the same key with another body answers 409. Start a checkout only ' +
  'after the user has explicitly confirmed the payment: nothing is ever bought automatically.';

export const createGuestWallet = defineOperation({
  id: 'createGuestWallet',
  method: 'POST',
  path: '/api/v1/guest-wallets',
  tag: 'Guest Wallets',
  summary: 'Create an accountless prepaid wallet and its checkout',
  description:
    'No account or credential needed. Answers a guest key (`api_key`, shown once), a hosted checkout URL and ' +
    'a status URL. The guest key works only after the payment is verified, and only for paid read-only ' +
    `routes (scope \`paid_reads\`). ${checkoutNote}`,
  sdk: ['guestWallets', 'create'],
  auth: ['none'],
  params: null,
  query: null,
  body: GuestWalletRequestSchema,
  success: [201],
  response: GuestWalletCheckoutSchema,
  errors: checkoutErrors,
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  headers: { 'Idempotency-Key': CHECKOUT_IDEMPOTENCY_KEY },
  example: 'guest-wallets create --amount-minor 1000 --currency usd',
});

export const topUpGuestWallet = defineOperation({
  id: 'topUpGuestWallet',
  method: 'POST',
  path: '/api/v1/guest-wallets/topups',
  tag: 'Guest Wallets',
  summary: 'Open another checkout to add credits to a guest wallet',
  description: `Authenticated with the guest key (\`Authorization: Bearer …\`). ${checkoutNote}`,
  sdk: ['guestWallets', 'topUp'],
  auth: ['guest'],
  params: null,
  query: null,
  body: GuestWalletRequestSchema,
  success: [201],
  response: GuestWalletCheckoutSchema,
  errors: [...checkoutErrors, 'closed'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  headers: { 'Idempotency-Key': CHECKOUT_IDEMPOTENCY_KEY },
  example: 'guest-wallets top-up --amount-minor 2500 --currency usd',
});

export const getGuestWalletStatus = defineOperation({
  id: 'getGuestWalletStatus',
  method: 'GET',
  path: '/api/v1/guest-wallets/status',
  tag: 'Guest Wallets',
  summary: 'Get the balance and payment status of a guest wallet',
  description:
    'Authenticated with the guest key. Poll it after a checkout, waiting `poll_after_seconds` between calls, ' +
    'until the wallet is `usable`.',
  sdk: ['guestWallets', 'status'],
  auth: ['guest'],
  params: null,
  query: null,
  body: null,
  success: [200],
  response: GuestWalletStatusSchema,
  errors: ['rate_limited'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'guest-wallets status',
});

/** The Guest Wallets operations. */
export const guestWalletsOperations = [createGuestWallet, topUpGuestWallet, getGuestWalletStatus] as const;

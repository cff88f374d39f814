import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { SuccessSchema } from '../schemas/common.js';
import {
  CONNECTION_ATTEMPT_ID,
  CONNECTION_CHALLENGE_ID,
  ConnectionAttemptPendingSchema,
  ConnectionAttemptSchema,
  ConnectionChallengeSchema,
  SanitizedXAccountSchema,
  XAccountSchema,
} from '../schemas/x-account.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

const accountParams = z.object({ id: z.string().min(1).max(255).describe('Id of the connected account.') });

/** Errors of the operations that log in to the platform (connect and re-authenticate). */
const loginErrors = [
  'invalid_input',
  'login_failed',
  'x_login_failed',
  'x_login_denied',
  'x_login_challenge',
  'x_login_suspended',
  'x_login_auth_failed',
  'login_cooldown',
  'login_rate_limited',
  'x_login_rate_limited',
  'x_login_proxy_error',
  'service_unavailable',
  'login_service_unavailable',
  'x_login_service_unavailable',
] as const satisfies readonly ErrorCode[];

/** A one-time code e-mailed by the platform: whitespace is removed, then 4-64 characters remain. */
export const EmailCode = z
  .string()
  .overwrite((v) => v.replace(/\s+/g, ''))
  .min(limits.emailCode.min)
  .max(limits.emailCode.max)
  .describe(
    `The code the platform e-mailed to the account, ${limits.emailCode.min}-${limits.emailCode.max} characters (spaces are removed).`,
  );

export const listXAccounts = defineOperation({
  id: 'listXAccounts',
  method: 'GET',
  path: '/api/v1/x/accounts',
  tag: 'X Accounts',
  summary: 'List the connected platform accounts and their health',
  sdk: ['xAccounts', 'list'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: z.object({ accounts: z.array(XAccountSchema).describe('The connected accounts.') }),
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'x-accounts list',
});

export const connectXAccount = defineOperation({
  id: 'connectXAccount',
  method: 'POST',
  path: '/api/v1/x/accounts',
  tag: 'X Accounts',
  summary: 'Connect a platform account by logging in to it',
  description:
    'Answers 201 with the account when the login completes, or 202 with either a challenge (`requires_email_code`: submit the e-mailed code with `xAccounts submitChallenge`) or a pending attempt (poll `xAccounts attempt`). ' +
    'On the X API platform the login is X’s OAuth 2.0 consent: 202 with a pending attempt whose `authorizationUrl` the account’s owner opens to approve (the password, e-mail and authenticator secret are not used); the attempt becomes `connected` once X calls back. ' +
    `Safety limit: ${limits.connectAccount.limit} connections per ${limits.connectAccount.windowMs / 60_000} minutes; beyond it 429 with Retry-After ${limits.connectAccount.retryAfterSeconds}. ` +
    'Repeated failed logins give 429 login_cooldown (Retry-After and `retryAfterMs`). Credentials are used to log in and never returned.',
  sdk: ['xAccounts', 'connect'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: z.object({
    username: z
      .string()
      .trim()
      .overwrite((v) => v.replace(/^@/, ''))
      .regex(/^[A-Za-z0-9_]{1,15}$/, 'must be a username of 1-15 letters, digits or underscores')
      .describe('Platform username to connect (a leading @ is stripped).'),
    email: z.email().describe('E-mail address of the platform account.'),
    password: z.string().min(1).describe('Password of the platform account.'),
    totp_secret: z
      .string()
      .trim()
      .min(1)
      .describe('Secret of the account two-factor authenticator (the base32 key behind its TOTP codes).'),
  }),
  success: [201, 202],
  response: z.union([SanitizedXAccountSchema, ConnectionChallengeSchema, ConnectionAttemptPendingSchema]),
  errors: [...loginErrors, 'account_already_connected', 'x_user_lookup_failed'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example:
    'x-accounts connect --username myhandle --email me@example.com --password "$X_PASSWORD" --totp-secret "$X_TOTP_SECRET"',
});

export const getXAccountConnectionAttempt = defineOperation({
  id: 'getXAccountConnectionAttempt',
  method: 'GET',
  path: '/api/v1/x/account-connection-attempts/{id}',
  tag: 'X Accounts',
  summary: 'Get the state of a connection attempt',
  description:
    'Poll after `pollAfterMs` while the status is `pending`. A challenge answer means the platform e-mailed a code to submit.',
  sdk: ['xAccounts', 'attempt'],
  auth: keyOrToken,
  params: z.object({
    id: z
      .string()
      .regex(CONNECTION_ATTEMPT_ID, 'must be `xatt_` followed by 32 hex digits')
      .describe('Id of the connection attempt (`xatt_` and 32 hex digits).'),
  }),
  query: null,
  body: null,
  success: [200],
  response: ConnectionAttemptSchema,
  errors: ['invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'x-accounts attempt xatt_0123456789abcdef0123456789abcdef',
});

export const submitXAccountConnectionChallenge = defineOperation({
  id: 'submitXAccountConnectionChallenge',
  method: 'POST',
  path: '/api/v1/x/account-connection-challenges/{id}/submit',
  tag: 'X Accounts',
  summary: 'Submit the e-mailed code of a connection challenge',
  description:
    'Answers 201 with the account when the login completes, or 202 with the same challenge when the platform asks for another code. ' +
    'A challenge that is completed, failed, expired or replaced cannot be reopened (409 connection_challenge_inactive, 410 connection_challenge_expired); ' +
    'after 422 login_failed start a new connection or re-authentication.',
  sdk: ['xAccounts', 'submitChallenge'],
  auth: keyOrToken,
  params: z.object({
    id: z
      .string()
      .regex(CONNECTION_CHALLENGE_ID, 'must be a challenge id starting with xch_')
      .describe('Id of the challenge (prefixed `xch_`).'),
  }),
  query: null,
  body: z.object({ email_code: EmailCode }),
  success: [201, 202],
  response: z.union([SanitizedXAccountSchema, ConnectionChallengeSchema]),
  errors: [
    'invalid_input',
    'connection_challenge_not_found',
    'not_found',
    'connection_challenge_inactive',
    'connection_challenge_expired',
    'login_failed',
    'service_unavailable',
  ],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'x-accounts submit-challenge xch_7Hq2LmP9 --email-code 482913',
});

export const getXAccount = defineOperation({
  id: 'getXAccount',
  method: 'GET',
  path: '/api/v1/x/accounts/{id}',
  tag: 'X Accounts',
  summary: 'Get a connected platform account',
  sdk: ['xAccounts', 'get'],
  auth: keyOrToken,
  params: accountParams,
  query: null,
  body: null,
  success: [200],
  response: XAccountSchema,
  errors: ['invalid_input', 'not_found', 'account_not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'x-accounts get 1843',
});

export const disconnectXAccount = defineOperation({
  id: 'disconnectXAccount',
  method: 'DELETE',
  path: '/api/v1/x/accounts/{id}',
  tag: 'X Accounts',
  summary: 'Disconnect a platform account and forget its session',
  sdk: ['xAccounts', 'disconnect'],
  auth: keyOrToken,
  params: accountParams,
  query: null,
  body: null,
  success: [200],
  response: SuccessSchema,
  errors: ['invalid_input', 'not_found', 'account_not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'x-accounts disconnect 1843',
});

export const reauthXAccount = defineOperation({
  id: 'reauthXAccount',
  method: 'POST',
  path: '/api/v1/x/accounts/{id}/reauth',
  tag: 'X Accounts',
  summary: 'Log in again to a connected account whose session no longer works',
  description:
    'For accounts whose health is needsReauth. Answers 201 with the account, or 202 with a challenge when the platform e-mails a code. ' +
    'On the X API platform: 202 with a pending attempt whose `authorizationUrl` the owner opens to approve again on X (the password is not used). ' +
    'Repeated failed logins give 429 login_cooldown (Retry-After and `retryAfterMs`).',
  sdk: ['xAccounts', 'reauth'],
  auth: keyOrToken,
  params: accountParams,
  query: null,
  body: z.object({
    password: z.string().min(1).describe('Current password of the platform account.'),
    totp_secret: z
      .string()
      .trim()
      .min(1)
      .optional()
      .describe('Secret of the account two-factor authenticator, when the account uses one.'),
    email: z.email().optional().describe('E-mail address of the platform account, for e-mail verification.'),
  }),
  success: [201, 202],
  response: z.union([SanitizedXAccountSchema, ConnectionChallengeSchema, ConnectionAttemptPendingSchema]),
  errors: [...loginErrors, 'not_found', 'account_not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'x-accounts reauth 1843 --password "$X_PASSWORD"',
});

export const bulkRetryXAccounts = defineOperation({
  id: 'bulkRetryXAccounts',
  method: 'POST',
  path: '/api/v1/x/accounts/bulk-retry',
  tag: 'X Accounts',
  summary: 'Retry every account held back by a temporary issue',
  description:
    'Clears the temporary-failure state of the accounts so that they are tried again; answers how many.',
  sdk: ['xAccounts', 'bulkRetry'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: z.object({
    cleared: z.number().int().min(0).describe('How many accounts were set to be tried again.'),
  }),
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  example: 'x-accounts bulk-retry',
});

/** The X Accounts operations. */
export const xAccountsOperations = [
  listXAccounts,
  connectXAccount,
  getXAccountConnectionAttempt,
  submitXAccountConnectionChallenge,
  getXAccount,
  disconnectXAccount,
  reauthXAccount,
  bulkRetryXAccounts,
] as const;

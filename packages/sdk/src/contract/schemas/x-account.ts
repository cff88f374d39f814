import { z } from 'zod';
import { openEnum } from '../zod-helpers.js';

/** Health of a connected platform account (spec 2.13). */
export const X_ACCOUNT_HEALTH = [
  'healthy',
  'locked',
  'needsReauth',
  'recovering',
  'suspended',
  'temporaryIssue',
] as const;
export type XAccountHealth = (typeof X_ACCOUNT_HEALTH)[number];

/** The prefix of connection challenge ids (spec 2.1). */
export const CONNECTION_CHALLENGE_ID = /^xch_[A-Za-z0-9_-]{1,128}$/;

/** Connection attempt ids (reference `ConnectionAttemptId`): `xatt_` and 32 lowercase hex digits. */
export const CONNECTION_ATTEMPT_ID = /^xatt_[0-9a-f]{32}$/;

/**
 * A connected platform account (spec 2.13; reference `SanitizedXAccount` / `XAccountDetail`). Credentials are
 * never returned.
 */
export const XAccountSchema = z.object({
  id: z.string().describe('Id of the connection; pass it (or the @username) as `account` in writes.'),
  xUserId: z.string().describe('Platform user id of the connected account.'),
  xUsername: z.string().describe('Platform username of the connected account, without @.'),
  status: z.string().describe('Connection status, for example `active`.'),
  health: openEnum(X_ACCOUNT_HEALTH).describe(
    'Whether the account can act now: healthy, locked, needsReauth (re-authenticate it), recovering, suspended or temporaryIssue.',
  ),
  createdAt: z.string().describe('When the account was connected (ISO 8601).'),
  updatedAt: z.string().optional().describe('When the connection last changed (ISO 8601).'),
  cookiesObtainedAt: z
    .string()
    .optional()
    .describe('When the current platform session was obtained (ISO 8601).'),
});
export type XAccount = z.infer<typeof XAccountSchema>;

/**
 * The account a successful connect, challenge submission or re-authentication answers (reference
 * `SanitizedXAccount`): active, without `updatedAt` or `cookiesObtainedAt`.
 */
export const SanitizedXAccountSchema = XAccountSchema.pick({
  id: true,
  xUserId: true,
  xUsername: true,
  health: true,
  createdAt: true,
}).extend({ status: z.literal('active').describe('Always `active`: the account can act now.') });
export type SanitizedXAccount = z.infer<typeof SanitizedXAccountSchema>;

/**
 * The 202 answer of a connect, re-authentication or challenge submission when the platform wants the code it
 * e-mailed to the account (spec 2.13, 3.5). Submit it with `submitXAccountConnectionChallenge` before
 * `expiresAt`.
 */
export const ConnectionChallengeSchema = z.object({
  object: z.literal('x_account_connection_challenge').describe('Always `x_account_connection_challenge`.'),
  id: z.string().regex(CONNECTION_CHALLENGE_ID).describe('Challenge id, prefixed `xch_`.'),
  status: z.literal('requires_email_code').describe('Always `requires_email_code`.'),
  expiresAt: z.string().describe('When the challenge stops accepting codes (ISO 8601).'),
  message: z.string().describe('Instructions to show the user.'),
  username: z.string().describe('Platform username being connected, without @.'),
});
export type ConnectionChallenge = z.infer<typeof ConnectionChallengeSchema>;

const attemptObject = z
  .literal('x_account_connection_attempt')
  .describe('Always `x_account_connection_attempt`.');
const attemptId = z.string().regex(CONNECTION_ATTEMPT_ID).describe('Attempt id: `xatt_` and 32 hex digits.');

/** A connection still logging in (reference `XAccountConnectionAttemptPending`): poll the attempt. */
export const ConnectionAttemptPendingSchema = z.object({
  object: attemptObject,
  id: attemptId,
  status: z.literal('pending').describe('Always `pending`: the login is still running.'),
  pollAfterMs: z.number().int().min(0).describe('Milliseconds to wait before polling the attempt again.'),
  authorizationUrl: z
    .url()
    .optional()
    .describe(
      "Where the account's owner approves the connection in a browser (the X API platform: X's OAuth 2.0 consent page); the attempt stays pending until then.",
    ),
  authorizationExpiresAt: z
    .string()
    .optional()
    .describe('When `authorizationUrl` stops working (ISO 8601); start a new connection after it.'),
});
export type ConnectionAttemptPending = z.infer<typeof ConnectionAttemptPendingSchema>;

/** A connection that completed (reference `XAccountConnectionAttemptSuccess`): the account is listed now. */
export const ConnectionAttemptSuccessSchema = z.object({
  object: attemptObject,
  id: attemptId,
  status: z
    .literal('connected')
    .describe('Always `connected`: the account is connected; list the accounts to read it.'),
});
export type ConnectionAttemptSuccess = z.infer<typeof ConnectionAttemptSuccessSchema>;

/** A connection that failed (reference `XAccountConnectionAttemptFailed`). */
export const ConnectionAttemptFailedSchema = z.object({
  object: attemptObject,
  id: attemptId,
  status: z.literal('failed').describe('Always `failed`: the login did not complete.'),
  error: z.string().describe('Error code of the failure (for example login_failed).'),
  reason: z.string().optional().describe('More detail on the failure.'),
  retryable: z.boolean().describe('True when starting a new connection may succeed.'),
});
export type ConnectionAttemptFailed = z.infer<typeof ConnectionAttemptFailedSchema>;

/**
 * The state of a connection attempt (`getXAccountConnectionAttempt`): pending, connected, failed, or waiting
 * for an e-mailed code (a challenge).
 */
export const ConnectionAttemptSchema = z.union([
  ConnectionAttemptPendingSchema,
  ConnectionAttemptSuccessSchema,
  ConnectionAttemptFailedSchema,
  ConnectionChallengeSchema,
]);
export type ConnectionAttempt = z.infer<typeof ConnectionAttemptSchema>;

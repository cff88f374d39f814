/**
 * Every error code of the service (spec part 7 and the reference's 112 codes), each with its HTTP status,
 * its `type` under the opt-in contract, and how a client should react. The server maps code → status from
 * this table only; the SDK picks its error class and retry behaviour from it.
 */

import type { ErrorType, RetryClass } from './error-kinds.js';

export type { ErrorType, RetryClass } from './error-kinds.js';

/** One entry of the catalog. */
export interface ErrorInfo {
  readonly status: number;
  readonly type: ErrorType;
  readonly retry: RetryClass;
  /**
   * What the code means, where its status alone does not say it: a clause in words that suit every client
   * (no command or tool names), which clients build their next step on (`Billing: <hint>. …`).
   */
  readonly hint?: string;
}

const bad = { status: 400, type: 'invalid_request_error', retry: 'never' } as const;
const auth = { status: 401, type: 'authentication_error', retry: 'never' } as const;
const billing = { status: 402, type: 'billing_error', retry: 'never' } as const;
const perm = { status: 403, type: 'permission_error', retry: 'never' } as const;
const missing = { status: 404, type: 'invalid_request_error', retry: 'never' } as const;
const conflict = { status: 409, type: 'invalid_request_error', retry: 'never' } as const;
const gone = { status: 410, type: 'invalid_request_error', retry: 'never' } as const;
const rejected = { status: 422, type: 'invalid_request_error', retry: 'never' } as const;
const limited = { status: 429, type: 'rate_limit_error', retry: 'rate_limit' } as const;
const dependency = { status: 502, type: 'dependency_error', retry: 'transient' } as const;
const unavailable = { status: 503, type: 'api_error', retry: 'transient' } as const;

/** The catalog: error code → status, opt-in type, retry class. */
export const errorCatalog = {
  // 400: fix the request
  invalid_input: bad,
  invalid_json: bad,
  invalid_id: bad,
  invalid_tweet_url: bad,
  invalid_tweet_id: bad,
  invalid_username: bad,
  invalid_user_id: bad,
  invalid_user_ids: bad,
  invalid_tool_type: bad,
  invalid_format: bad,
  invalid_params: bad,
  invalid_community_id: bad,
  invalid_list_id: bad,
  invalid_job_id: bad,
  invalid_coverage_cursor: bad,
  invalid_coverage_request: bad,
  invalid_complete_replies_request: bad,
  invalid_output_options: bad,
  invalid_payment_amount: bad,
  invalid_range: bad,
  invalid_reply_options: bad,
  invalid_idempotency_key: bad,
  missing_idempotency_key: bad,
  missing_query: bad,
  missing_ids: bad,
  missing_params: bad,
  missing_url: bad,
  too_many_ids: bad,
  too_many_tweets: bad,
  unsupported_field: bad,
  unknown_field: bad,
  account_required: bad,
  // 401
  unauthenticated: auth,
  x_auth_failure: auth,
  // 402: billing; never auto-checkout
  no_subscription: { ...billing, hint: 'the account has no subscription' },
  subscription_inactive: { ...billing, hint: 'the subscription is not active' },
  payment_failed: { ...billing, hint: 'the last payment failed' },
  no_credits: { ...billing, hint: 'the account has no credits left' },
  insufficient_credits: { ...billing, hint: 'the credits left do not cover this call' },
  no_cached_style: billing,
  // 403
  api_key_limit_reached: perm,
  dm_not_permitted: perm,
  account_needs_reauth: perm,
  account_restricted: perm,
  x_account_protected: perm,
  forbidden: perm,
  passkey_required: perm,
  // 404
  not_found: missing,
  account_not_found: missing,
  user_not_found: missing,
  tweet_not_found: missing,
  no_media: missing,
  article_not_found: missing,
  draft_not_found: missing,
  style_not_found: missing,
  job_not_found: missing,
  connection_challenge_not_found: missing,
  // 409: never retried blindly
  connection_challenge_inactive: conflict,
  monitor_already_exists: conflict,
  idempotency_conflict: conflict,
  idempotency_key_conflict: conflict,
  account_already_connected: conflict,
  webhook_inactive: conflict,
  coverage_cursor_unavailable: { status: 409, type: 'dependency_error', retry: 'cursor_once' },
  // 410
  connection_challenge_expired: gone,
  expired: gone,
  closed: gone,
  coverage_cursor_gone: { status: 410, type: 'invalid_request_error', retry: 'restart' },
  // 413 / 415
  body_too_large: { status: 413, type: 'invalid_request_error', retry: 'never' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error', retry: 'never' },
  // 422: write validation
  login_failed: rejected,
  x_login_failed: rejected,
  x_login_denied: rejected,
  x_login_challenge: rejected,
  x_login_suspended: rejected,
  x_login_auth_failed: rejected,
  x_account_feature_required: rejected,
  x_account_suspended: rejected,
  x_duplicate_action: rejected,
  x_dm_not_allowed: rejected,
  x_reply_not_allowed: rejected,
  x_target_not_found: rejected,
  x_content_too_long: rejected,
  x_rejected: rejected,
  write_rejected: rejected,
  media_download_failed: rejected,
  monitor_profile_unavailable: rejected,
  // 202: accepted, not confirmed
  x_write_unconfirmed: { status: 202, type: 'api_error', retry: 'poll' },
  // 429
  rate_limit_exceeded: limited,
  rate_limited: limited,
  login_cooldown: limited,
  login_rate_limited: limited,
  x_login_rate_limited: limited,
  x_rate_limited: limited,
  x_daily_limit: limited,
  support_media_rate_limit: limited,
  support_request_rate_limit: limited,
  // 5xx / 424: transient
  internal_error: { status: 500, type: 'api_error', retry: 'transient' },
  x_write_failed: { status: 500, type: 'api_error', retry: 'transient' },
  x_write_ambiguous: { status: 500, type: 'api_error', retry: 'poll' },
  x_transient_error: { status: 503, type: 'dependency_error', retry: 'transient' },
  x_api_unavailable: dependency,
  x_api_rate_limited: dependency,
  x_api_unauthorized: dependency,
  x_user_lookup_failed: dependency,
  x_login_proxy_error: dependency,
  pagination_stalled: { status: 424, type: 'dependency_error', retry: 'never' },
  replies_incomplete: { status: 424, type: 'dependency_error', retry: 'transient' },
  favoriters_unavailable: { status: 424, type: 'dependency_error', retry: 'transient' },
  read_request_timeout: { status: 504, type: 'dependency_error', retry: 'transient' },
  service_unavailable: unavailable,
  write_tracking_unavailable: unavailable,
  login_service_unavailable: unavailable,
  x_login_service_unavailable: unavailable,
  checkout_unavailable: unavailable,
  guest_wallet_unavailable: unavailable,
  guest_wallets_unavailable: unavailable,
  guest_wallets_disabled: unavailable,
} as const satisfies Record<string, ErrorInfo>;

/** Every error code the service answers with. */
export type ErrorCode = keyof typeof errorCatalog;

/** All codes, for enums and documentation. */
export const errorCodes = Object.keys(errorCatalog) as ErrorCode[];

/** True when `code` is one of the catalog's codes. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(errorCatalog, code);
}

/**
 * The catalog entry for a code; unknown codes (a newer server) fall back to what their HTTP status implies,
 * so a client never breaks on a code it has not seen.
 */
export function errorInfo(code: string, status?: number): ErrorInfo {
  if (isErrorCode(code)) return errorCatalog[code];
  const s = status ?? 500;
  if (s === 401) return auth;
  if (s === 402) return billing;
  if (s === 403) return perm;
  if (s === 404) return missing;
  if (s === 409) return conflict;
  if (s === 410) return gone;
  if (s === 422) return rejected;
  if (s === 429) return limited;
  if (s >= 500 || s === 424) return { status: s, type: 'api_error', retry: 'transient' };
  return { status: s, type: 'invalid_request_error', retry: 'never' };
}

/** The error body of the default contract (spec 2.1, part 7). */
export interface ErrorBody {
  error: string;
  message?: string;
  retryAfter?: number;
  retryAfterMs?: number;
  reason?: string;
  payment_options?: unknown;
  [key: string]: unknown;
}

/** The error body of the opt-in contract. */
export interface StructuredErrorBody {
  error: { type: ErrorType | (string & {}); code: string; message: string; [key: string]: unknown };
}

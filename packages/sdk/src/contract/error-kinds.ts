/**
 * How a client reacts to an error and the `type` of a structured error: the two words of the error catalog
 * (`errors.ts`) the SDK's error classes carry. Kept apart from the catalog, so that the client's declarations
 * name them without loading the 112 codes' table (the root entry's types stay small).
 */

/** How a client reacts to an error. */
export type RetryClass =
  /** Fix the request or the account; retrying the same request cannot help. */
  | 'never'
  /** Wait `Retry-After` (or `retryAfter`), then retry. */
  | 'rate_limit'
  /** Transient dependency or server failure: exponential backoff, at most 3 attempts; writes only when `safeToRetry`. */
  | 'transient'
  /** `coverage_cursor_unavailable`: wait `Retry-After` and retry the same cursor once. */
  | 'cursor_once'
  /** `coverage_cursor_gone`: restart without a cursor and de-duplicate by id. */
  | 'restart'
  /** The write was accepted but not confirmed: poll the write action, never re-send. */
  | 'poll';

/** The `type` of a structured error under the opt-in contract (`svc-api-contract: 2026-04-29`). */
export type ErrorType =
  | 'api_error'
  | 'authentication_error'
  | 'billing_error'
  | 'dependency_error'
  | 'invalid_request_error'
  | 'permission_error'
  | 'rate_limit_error';

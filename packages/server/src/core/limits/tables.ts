/**
 * The tables owned by `core/limits` (rate-limit counters): their row types, and their names. Only code under
 * `core/limits` writes them; any code may read them through `Database`. `core/db/schema.ts` lists them in
 * `Database`.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/limits` owns. */
export const LIMITS_TABLES = ['rate_limit_counters', 'upstream_rate_limits'] as const;

/** The windows of the one fixed-window limiter (`core/limits/fixed-window.ts`), one row per key. */
export interface RateLimitCountersTable {
  bucket: string;
  window_start: Int;
  /** When the window ends (epoch ms). */
  expires_at: Int;
  count: Int;
}

/**
 * The rate limits an upstream API last reported (the X API's `x-rate-limit-*` headers), one row per endpoint,
 * shared by every instance on the database (`core/limits/upstream-limits.ts`).
 */
export interface UpstreamRateLimitsTable {
  /** The endpoint (`GET /2/tweets/search/recent`). */
  endpoint: string;
  /** Requests allowed per window (`x-rate-limit-limit`). */
  max_requests: Int;
  /** Requests left in the current window (`x-rate-limit-remaining`). */
  remaining: Int;
  /** When the current window ends (epoch ms, from `x-rate-limit-reset`). */
  reset_at: Int;
  /** When an answer last reported these figures (epoch ms). */
  seen_at: Int;
}

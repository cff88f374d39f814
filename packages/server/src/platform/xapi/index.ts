import { type FetchLike, XApiClient } from './client.js';
import { type RateLimitStore, XRateBudget } from './rate-budget.js';
import { XStreamSource, type XStreamSourceOptions } from './stream-source.js';
import { XUserAccess } from './user-access.js';
import type { SendFetch } from './user-client.js';
import type { XMediaOptions } from './writes.js';
import { XApiPlatform } from './xapi-platform.js';

export type { FetchLike, XApiClientOptions, XQuery } from './client.js';
export { isXApiRequestError, XApiClient, XApiRequestError } from './client.js';
export type { Expanded } from './mappers.js';
export { expand, mapAuthor, mapList, mapTrends, mapTweet, mapUser } from './mappers.js';
export { X_SCOPES, X_SCOPES_BY_FEATURE } from './oauth.js';
export type { RateLimitStore } from './rate-budget.js';
export { DEFAULT_X_RATE_LIMITS, endpointOf, XRateBudget } from './rate-budget.js';
export { MAX_FOLLOW_SCAN } from './relations.js';
export type { StreamBackoff } from './stream-connection.js';
export type { StreamHealth, XStreamSourceOptions } from './stream-source.js';
export { XStreamSource } from './stream-source.js';
export { XAPI_PLATFORM_TABLES } from './stream-tables.js';
export type { UserRef } from './user-ref.js';
export { parseUserRef } from './user-ref.js';
export type { XMediaOptions } from './writes.js';
export { XApiPlatform } from './xapi-platform.js';

/** What the `xapi` platform needs: the app bearer token, the API origin and optionally a `fetch`. */
export interface CreateXApiPlatformOptions {
  bearerToken: string;
  /** `https://api.x.com` by default (config `X_API_BASE_URL`). */
  baseUrl?: string | undefined;
  fetch?: FetchLike | undefined;
  /** Per-request timeout; 10 s by default. */
  timeoutMs?: number | undefined;
  /** The clock used to turn `x-rate-limit-reset` into a wait (milliseconds since the epoch). */
  now?: (() => number) | undefined;
  /** Whether the app's tier has full-archive search (config `X_API_FULL_ARCHIVE`); `false` by default. */
  fullArchive?: boolean | undefined;
  /** The longest recent-search query (config `X_API_SEARCH_QUERY_MAX`); 512 by default. */
  searchQueryMax?: number | undefined;
  /**
   * The monitors' request budget: where X's reported limits are shared (the `upstream_rate_limits` table),
   * the limits assumed before X reports them (config `X_API_RATE_LIMITS`), the monitors' share of each
   * (`X_API_MONITOR_SHARE`) and the longest effective check interval accepted (`X_API_MONITOR_MAX_INTERVAL`).
   */
  budget?:
    | {
        store?: RateLimitStore | undefined;
        defaults?: Readonly<Record<string, number>> | undefined;
        share?: number | undefined;
        maxIntervalMs?: number | undefined;
      }
    | undefined;
  /** The app's OAuth 2.0 client, for connected accounts (config `X_CLIENT_ID`, `X_CLIENT_SECRET`). */
  oauth?:
    | {
        clientId: string;
        clientSecret?: string | undefined;
        /** The callback registered on the X app: `{public URL}/api/v1/x/oauth/callback`. */
        redirectUri: string;
        fetch?: SendFetch | undefined;
      }
    | undefined;
  /**
   * The monitors read new posts from X's filtered stream (config `X_API_MONITOR_SOURCE=stream`) instead of
   * polling: the database for its buffer and lease, the tier's rule limits, timing for tests. Started here.
   */
  stream?: Omit<XStreamSourceOptions, 'bearerToken' | 'baseUrl' | 'now'> | undefined;
  /**
   * Media of the accounts' writes: how media URLs are downloaded (the loopback allowance of
   * `XSVC_ALLOW_LOOPBACK_WEBHOOKS`, off by default), how long X's processing of a video is waited for.
   */
  media?: XMediaOptions | undefined;
}

/**
 * Builds the `xapi` platform: reads through the X API v2 with an app bearer token, and, with `oauth`,
 * connected accounts, their writes and private reads through each account's own OAuth 2.0 token.
 */
export function createXApiPlatform(opts: CreateXApiPlatformOptions): XApiPlatform {
  const users = opts.oauth
    ? new XUserAccess({
        ...opts.oauth,
        apiBaseUrl: opts.baseUrl ?? 'https://api.x.com',
        timeoutMs: opts.timeoutMs,
        now: opts.now,
        media: opts.media,
      })
    : undefined;
  const now = opts.now ?? Date.now;
  const budget = new XRateBudget({ ...opts.budget, now });
  const client = new XApiClient({
    ...opts,
    onAnswer: (path, status, headers) => budget.observe(path, status, headers),
  });
  const stream = opts.stream
    ? new XStreamSource({
        ...opts.stream,
        bearerToken: opts.bearerToken,
        baseUrl: opts.baseUrl ?? 'https://api.x.com',
        now,
        budget,
      })
    : undefined;
  stream?.start();
  return new XApiPlatform(
    client,
    {
      fullArchive: opts.fullArchive ?? false,
      now,
      stream,
      searchQueryMax: opts.searchQueryMax,
      budget,
    },
    users,
  );
}

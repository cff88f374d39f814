import type { z } from 'zod';
import type { ErrorCode } from './errors.js';

/** HTTP methods used by the service. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Credentials an operation accepts (spec part 5). `apiKey` is `x-api-key` (or `Authorization: Bearer svc_…`),
 * `oauth` an OAuth 2.1 access token, `session` the `session_token` cookie, `guest` a guest-wallet key,
 * `payment` a machine payment (MPP), `none` a public endpoint.
 */
export type AuthMode = 'apiKey' | 'oauth' | 'session' | 'guest' | 'payment' | 'none';

/** The reference's tags (spec 1.3), plus the public discovery endpoints. */
export type Tag =
  | 'API Keys'
  | 'Account'
  | 'Agent Discovery'
  | 'Articles'
  | 'Communities'
  | 'Composition'
  | 'Draws'
  | 'Events'
  | 'Extractions'
  | 'Guest Wallets'
  | 'Lists'
  | 'Media'
  | 'Monitors'
  | 'Subscribe'
  | 'Support'
  | 'Trends'
  | 'Tweets'
  | 'Users'
  | 'Webhooks'
  | 'X Accounts'
  | 'X Write';

/**
 * Pagination style (spec 4.1). A: platform lists, `after` (alias `cursor`) in, `hasMore` / `nextCursor` out.
 * B: `/x/*` reads, `cursor` in, `has_next_page` / `next_cursor` out.
 */
export type PaginationStyle = 'A' | 'B';

/** What an operation costs in credits (spec 8.2); `free` operations never touch the ledger. */
export type Cost =
  | { readonly kind: 'free' }
  | { readonly kind: 'per_call'; readonly credits: number; readonly mppMicroUsd?: number }
  | { readonly kind: 'per_result'; readonly credits: number }
  | { readonly kind: 'metered'; readonly note: string };

/** How the request body is encoded. */
export type BodyEncoding = 'json' | 'multipart' | 'form';

/** What the success response carries. */
export type ResponseKind = 'json' | 'binary' | 'text' | 'empty';

/** Request headers an operation may declare (credentials and the contract header apply to every operation). */
export type HeaderName = 'Idempotency-Key';

/** One request header an operation accepts: the SDK sends it, the server checks it, the reference lists it. */
export interface RequestHeader {
  /** True when a request without the header is refused (400). */
  readonly required: boolean;
  /** What the header does, for the reference. */
  readonly description: string;
  /** Its valid values (a malformed value is 400). */
  readonly schema: z.ZodType<string, string>;
}

/** The request headers of an operation, by name. */
export type RequestHeaders = { readonly [K in HeaderName]?: RequestHeader };

/** A deprecation notice (spec 9.4-9.5): the whole operation, or some of its parameters or response fields. */
export interface Deprecation {
  /** Deprecated query or body parameters, with their replacement. */
  readonly params?: Readonly<Record<string, string>>;
  /** Deprecated response fields, with their replacement ('' when there is none). */
  readonly fields?: Readonly<Record<string, string>>;
  /** True when the operation itself is deprecated. */
  readonly operation?: boolean;
  /** Unix seconds of the deprecation, for the `Deprecation: @<seconds>` header. */
  readonly since: number;
}

/**
 * One operation of the service, defined once. The SDK's methods, the server's routes and validation, the
 * OpenAPI document, the mock handlers, the CLI commands and the MCP tools are all derived from these objects.
 */
export interface Operation<
  P extends z.ZodObject | null = z.ZodObject | null,
  Q extends z.ZodObject | null = z.ZodObject | null,
  B extends z.ZodType | null = z.ZodType | null,
  R extends z.ZodType = z.ZodType,
> {
  /** The reference's operationId, unique (`lookupTweet`). */
  readonly id: string;
  readonly method: HttpMethod;
  /** Full path from the origin, with `{name}` placeholders (`/api/v1/x/tweets/{id}`). */
  readonly path: string;
  readonly tag: Tag;
  /** One line, imperative, for help texts and tool descriptions. */
  readonly summary: string;
  /** Longer notes: behaviours, limits, costs. */
  readonly description?: string;
  /** Where the operation lives in the SDK, the CLI and MCP: `['tweets', 'search']`, `['monitors', 'keywords', 'update']`. */
  readonly sdk: readonly [string, ...string[]];
  readonly auth: readonly AuthMode[];
  /** Path parameters, in path order (null when the path has none). */
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  readonly bodyEncoding?: BodyEncoding;
  /** Success status codes (the first is the usual one). */
  readonly success: readonly number[];
  readonly response: R;
  readonly responseKind?: ResponseKind;
  /** Error codes this operation may answer with, beyond the standard ones (401, 429, 400 invalid_input). */
  readonly errors: readonly ErrorCode[];
  readonly pagination: PaginationStyle | null;
  /** Name of the array field holding the page's items (`tweets`, `users`, `events`), for paginated operations. */
  readonly items?: string;
  readonly cost: Cost;
  /** The durable write action name (`create_tweet`): the request may answer 202 with a write action. */
  readonly writeAction?: string;
  /**
   * Request headers the operation accepts beyond the credentials and the contract header: an
   * `Idempotency-Key` on durable writes, checkouts and support messages. The SDK sends a fresh key per call.
   */
  readonly headers?: RequestHeaders;
  /** True when repeating the request cannot change anything more (safe to retry on a network error). */
  readonly idempotent: boolean;
  readonly deprecated?: Deprecation;
  /** An example invocation for help texts (`tweets search "from:jack"`). */
  readonly example?: string;
}

/** Any operation, for tables and generic code. */
export type AnyOperation = Operation<z.ZodObject | null, z.ZodObject | null, z.ZodType | null, z.ZodType>;

/**
 * Identity function that checks an operation's shape and keeps its literal types (ids, item names, schemas),
 * so that the client's generated methods are typed precisely.
 */
export function defineOperation<const T extends AnyOperation>(op: T): T {
  return op;
}

/**
 * Table types of the server's database. Integers that can grow (credits, counters, times in epoch ms) are
 * int8 columns read as BigInt on both engines; booleans are 0/1 integers; JSON is text. Migrations under
 * `migrations/` create exactly these tables for SQLite and Postgres alike.
 */

type Int = bigint | number;

export interface AccountsTable {
  id: string;
  email: string;
  plan: string;
  locale: string;
  x_username: string | null;
  credits_balance: Int;
  lifetime_purchased: Int;
  lifetime_used: Int;
  auto_topup_enabled: Int;
  auto_topup_amount_dollars: Int;
  auto_topup_threshold: Int;
  is_owner: Int;
  created_at: Int;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** The first characters of the key (`svc_1a2b`), shown in listings. */
  prefix: string;
  /** SHA-256 hex of the full key; the key itself is never stored. */
  hash: string;
  created_at: Int;
  last_used_at: Int | null;
  revoked_at: Int | null;
}

export interface SessionsTable {
  /** SHA-256 hex of the `session_token` cookie value. */
  token_hash: string;
  account_id: string;
  created_at: Int;
  expires_at: Int;
}

export interface MagicLinksTable {
  token_hash: string;
  email: string;
  created_at: Int;
  expires_at: Int;
  used_at: Int | null;
}

/** One row per charge or grant: balances always reconcile with the sum of the ledger. */
export interface CreditLedgerTable {
  id: string;
  account_id: string;
  /** Negative for charges, positive for grants and refunds. */
  delta: Int;
  balance_after: Int;
  operation: string;
  units: Int;
  request_id: string | null;
  created_at: Int;
}

/** Fixed-window request counters (spec 8.1), one row per account, tier and window. */
export interface RateLimitCountersTable {
  bucket: string;
  window_start: Int;
  count: Int;
}

export interface CheckoutsTable {
  id: string;
  account_id: string;
  kind: string;
  dollars: Int;
  credits: Int;
  status: string;
  created_at: Int;
  /** When an open checkout stops accepting approval (epoch ms; null on rows from before migration 0006). */
  expires_at: Int | null;
}

export interface XAccountsTable {
  id: string;
  account_id: string;
  x_user_id: string;
  x_username: string;
  status: string;
  health: string;
  created_at: Int;
}

export interface SimUsersTable {
  id: string;
  username: string;
  /** Lower-cased username, unique: lookups are case-insensitive. */
  username_lower: string;
  name: string;
  description: string;
  location: string;
  url: string;
  profile_picture: string;
  cover_picture: string;
  verified: Int;
  verified_type: string | null;
  protected: Int;
  suspended: Int;
  pinned_tweet_id: string | null;
  followers_count: Int;
  following_count: Int;
  statuses_count: Int;
  media_count: Int;
  favourites_count: Int;
  created_at: Int;
  /** Bumped on every profile change, so monitors can detect changes cheaply. */
  profile_version: Int;
}

export interface SimTweetsTable {
  id: string;
  author_id: string;
  text: string;
  created_at: Int;
  lang: string;
  source: string;
  /** `tweet`, `reply`, `quote` or `retweet`. */
  kind: string;
  conversation_id: string;
  in_reply_to_id: string | null;
  in_reply_to_user_id: string | null;
  quoted_tweet_id: string | null;
  retweet_of_id: string | null;
  is_note: Int;
  /** JSON array of media objects (spec 2.10), or null. */
  media: string | null;
  /** JSON poll object, or null. */
  poll: string | null;
  /** JSON entities (urls, mentions, hashtags, cashtags). */
  entities: string;
  like_count: Int;
  retweet_count: Int;
  reply_count: Int;
  quote_count: Int;
  view_count: Int;
  bookmark_count: Int;
  community_id: string | null;
  deleted: Int;
}

export interface SimFollowsTable {
  follower_id: string;
  followee_id: string;
  created_at: Int;
}

export interface SimLikesTable {
  user_id: string;
  tweet_id: string;
  created_at: Int;
}

export interface SimBookmarksTable {
  user_id: string;
  tweet_id: string;
  folder_id: string | null;
  created_at: Int;
}

export interface SimListsTable {
  id: string;
  owner_id: string;
  name: string;
  description: string;
  banner_url: string | null;
  created_at: Int;
}

export interface SimListMembersTable {
  list_id: string;
  user_id: string;
  /** `member` or `follower`. */
  role: string;
}

export interface SimCommunitiesTable {
  id: string;
  name: string;
  description: string;
  creator_id: string;
  created_at: Int;
}

export interface SimCommunityMembersTable {
  community_id: string;
  user_id: string;
  /** `member`, `moderator` or `admin`. */
  role: string;
  joined_at: Int;
}

export interface SimArticlesTable {
  tweet_id: string;
  title: string;
  body_text: string;
  preview_text: string;
  cover_image_url: string | null;
}

export interface SimSpacesTable {
  id: string;
  host_id: string;
  title: string;
  state: string;
  created_at: Int;
}

export interface SimSpaceParticipantsTable {
  space_id: string;
  user_id: string;
  role: string;
}

export interface SimTrendsTable {
  woeid: Int;
  rank: Int;
  name: string;
  description: string | null;
  query: string;
}

export interface SimJobsTable {
  id: string;
  /** The job listing object (spec 2.12) as JSON. */
  data: string;
  closed: Int;
}

export interface SimDmsTable {
  id: string;
  sender_id: string;
  recipient_id: string;
  text: string;
  created_at: Int;
}

export interface SimNotificationsTable {
  id: string;
  user_id: string;
  kind: string;
  actor_id: string;
  tweet_id: string | null;
  created_at: Int;
}

export interface SimMetaTable {
  key: string;
  value: string;
}

/**
 * A stored event (spec 2.5). Ids sort in creation order (time-prefixed), so `after` paging is by id.
 * `payload` is the delivery payload of spec 6.3 as JSON, without `deliveryId` (which each delivery adds):
 * `{ eventType, schemaVersion, streamEventId (= id), occurredAt, username? | query?, data }`.
 */
export interface EventsTable {
  id: string;
  account_id: string;
  monitor_id: string | null;
  keyword_monitor_id: string | null;
  event_type: string;
  username: string | null;
  query: string | null;
  occurred_at: Int;
  created_at: Int;
  payload: string;
  /**
   * Unique per (monitor, tweet, event type) or (monitor, profile change, event type) (migration 0004): a
   * re-check never stores an event twice. Null on rows not written by a monitor.
   */
  dedupe_key: string | null;
}

/**
 * The columns both kinds of monitor share (spec 2.4, migration 0004): owner, event types (a JSON array),
 * activity and billing, the watermark of creation or resume (`baseline_tweet_id`), shard and revision.
 */
export interface MonitorLifecycleColumns {
  id: string;
  account_id: string;
  event_types: string;
  is_active: Int;
  created_at: Int;
  next_billing_at: Int;
  paused_reason: string | null;
  paused_at: Int | null;
  baseline_tweet_id: string;
  baseline_at: Int;
  shard: Int;
  /** Bumped on every change an engine must reload. */
  rev: Int;
}

/**
 * An account monitor (spec 2.4, migration 0004): `profile_snapshot` is the JSON of the watched profile
 * fields at the last check.
 */
export interface MonitorsTable extends MonitorLifecycleColumns {
  username: string;
  x_user_id: string;
  profile_snapshot: string;
  /** The platform's change stamp of the profile when `profile_snapshot` was taken. */
  profile_stamp: string;
  /** 1 once an engine has checked the monitor since its baseline (the shard's cursor then covers it). */
  joined: Int;
}

/** A keyword monitor (spec 2.4, migration 0004): `cursor_tweet_id` is how far its search was processed. */
export interface KeywordMonitorsTable extends MonitorLifecycleColumns {
  query: string;
  /** The query normalized for the duplicate check (case and spacing). */
  query_key: string;
  cursor_tweet_id: string;
}

/** A shard of the monitors and the engine instance leasing it (migration 0004). */
export interface MonitorShardsTable {
  shard: Int;
  owner: string | null;
  lease_expires_at: Int;
  /** How far the shard's account-monitor tweet stream was processed (a tweet id), or null. */
  tweet_cursor: string | null;
  /** Bumped after every change of the shard's monitors, so engines reload only changed shards. */
  version: Int;
}

/** A heartbeat per running check engine, so instances split the shards (migration 0004). */
export interface MonitorEnginesTable {
  id: string;
  seen_at: Int;
}

/**
 * A webhook endpoint (spec 2.6, migration 0005). `event_types` is a JSON array; `secret` the hex signing
 * secret (kept, because every delivery is signed with it); `health` is `active` or `needs_attention`
 * (spec 3.4), separate from `is_active` (switched off by the owner).
 */
export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  event_types: string;
  secret: string;
  is_active: Int;
  health: string;
  consecutive_failures: Int;
  failure_hard_cap: Int;
  created_at: Int;
  updated_at: Int;
}

/**
 * One delivery of a stored event to a webhook (spec 2.6, 3.3, migration 0005): `id` is the payload's
 * `deliveryId`, the same on every retry. `status` is `pending`, `delivered`, `failed` or `exhausted`;
 * `next_attempt_at` is null when nothing is scheduled (done, or parked while the endpoint is off or needs
 * attention); an attempt in progress holds the lease.
 */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  account_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: Int;
  last_status_code: Int | null;
  last_error: string | null;
  created_at: Int;
  delivered_at: Int | null;
  next_attempt_at: Int | null;
  lease_owner: string | null;
  lease_until: Int | null;
}

/** One row per stored event whose webhook deliveries are not created yet (see migration 0003). */
export interface EventOutboxTable {
  event_id: string;
  account_id: string;
  created_at: Int;
}

/** A coverage walk: the server-side checkpoint behind a `mode=coverage` cursor (see migration 0006). */
export interface CoverageWalksTable {
  id: string;
  account_id: string;
  /** The operation id the walk belongs to; a cursor is refused on any other operation. */
  operation: string;
  /** Hash of the request's parameters (cursor and page size aside); a cursor is refused for another query. */
  fingerprint: string;
  /** `coverage` (asked for) or `automatic` (chosen by the service). */
  mode: string;
  /** The step of the latest checkpoint; its cursor and the one before it can be resumed. */
  step: Int;
  /** JSON state of the walk at `step`, and at `step - 1` (to serve a lost answer again). */
  state: string;
  prev_state: string;
  created_at: Int;
  expires_at: Int;
  /** A request resuming the walk holds it until this time (epoch ms); others get 409. */
  lease_until: Int | null;
  lease_owner: string | null;
}

/** An id a coverage walk returned, and the step whose answer returned it. */
export interface CoverageSeenTable {
  walk_id: string;
  item_id: string;
  step: Int;
}

/** A media gallery page (`/media/gallery/{id}`): the media of the tweets as last downloaded. */
export interface MediaGalleriesTable {
  id: string;
  /** JSON array of the tweet ids, in request order. */
  tweet_ids: string;
  /** JSON array of `{ tweetId, url, authorUsername?, text, media[] }`. */
  items: string;
  total_media: Int;
  created_at: Int;
  updated_at: Int;
}

/** An accountless prepaid wallet (spec 5.5); its credits live on its own account row. */
export interface GuestWalletsTable {
  /** `gw_…` */
  id: string;
  account_id: string;
  /** SHA-256 hex of the guest key. */
  key_hash: string;
  /** `pending` until a purchase is paid, then `active`. */
  status: string;
  created_at: Int;
}

/** One checkout of a guest wallet. */
export interface GuestPurchasesTable {
  /** `gp_…` */
  id: string;
  wallet_id: string;
  checkout_id: string;
  amount_minor: Int;
  currency: string;
  credits: Int;
  idempotency_key: string;
  /** SHA-256 hex of the request body: the same key with another body is a conflict. */
  request_hash: string;
  /** The answer given for this key (a retry gets it again), kept while the checkout can be paid. */
  response: string | null;
  created_at: Int;
}

/** A registered OAuth client (dynamic registration, spec 5.3.3). */
export interface OAuthClientsTable {
  id: string;
  name: string;
  /** JSON array of the exact redirect URIs. */
  redirect_uris: string;
  auth_method: string;
  /** SHA-256 hex of the `client_secret_post` secret. */
  secret_hash: string | null;
  created_at: Int;
}

/** An authorization request waiting for the signed-in user's consent. */
export interface OAuthRequestsTable {
  id: string;
  account_id: string;
  client_id: string;
  /** JSON of the validated authorize parameters. */
  params: string;
  created_at: Int;
  expires_at: Int;
}

/** An authorization code (hash only; 60 seconds, single use). */
export interface OAuthCodesTable {
  code_hash: string;
  /** The token family the code's tokens belong to (a replayed code revokes it). */
  family_id: string;
  client_id: string;
  account_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  created_at: Int;
  expires_at: Int;
  used_at: Int | null;
}

/** An OAuth access or refresh token (hash only). */
export interface OAuthTokensTable {
  token_hash: string;
  kind: 'access' | 'refresh';
  family_id: string;
  client_id: string;
  account_id: string;
  scope: string;
  resource: string;
  created_at: Int;
  expires_at: Int;
  revoked_at: Int | null;
}

/** Every table, for `Kysely<Database>`. */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  magic_links: MagicLinksTable;
  credit_ledger: CreditLedgerTable;
  rate_limit_counters: RateLimitCountersTable;
  checkouts: CheckoutsTable;
  x_accounts: XAccountsTable;
  sim_users: SimUsersTable;
  sim_tweets: SimTweetsTable;
  sim_follows: SimFollowsTable;
  sim_likes: SimLikesTable;
  sim_bookmarks: SimBookmarksTable;
  sim_lists: SimListsTable;
  sim_list_members: SimListMembersTable;
  sim_communities: SimCommunitiesTable;
  sim_community_members: SimCommunityMembersTable;
  sim_articles: SimArticlesTable;
  sim_spaces: SimSpacesTable;
  sim_space_participants: SimSpaceParticipantsTable;
  sim_trends: SimTrendsTable;
  sim_jobs: SimJobsTable;
  sim_dms: SimDmsTable;
  sim_notifications: SimNotificationsTable;
  sim_meta: SimMetaTable;
  events: EventsTable;
  event_outbox: EventOutboxTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  monitors: MonitorsTable;
  keyword_monitors: KeywordMonitorsTable;
  monitor_shards: MonitorShardsTable;
  monitor_engines: MonitorEnginesTable;
  coverage_walks: CoverageWalksTable;
  coverage_seen: CoverageSeenTable;
  media_galleries: MediaGalleriesTable;
  oauth_clients: OAuthClientsTable;
  oauth_requests: OAuthRequestsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  guest_wallets: GuestWalletsTable;
  guest_purchases: GuestPurchasesTable;
}

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
  /** End of the period the last subscription checkout paid for (epoch ms); null: a plan with no period. */
  plan_renews_at: Int | null;
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

/** The windows of the one fixed-window limiter (`core/limits/fixed-window.ts`), one row per key. */
export interface RateLimitCountersTable {
  bucket: string;
  window_start: Int;
  /** When the window ends (epoch ms). */
  expires_at: Int;
  count: Int;
}

/** The answers of the one idempotency store (`core/idempotency`), one per scope and `Idempotency-Key`. */
export interface IdempotencyKeysTable {
  /** Who the key belongs to, e.g. `support:<account id>`. */
  scope: string;
  key: string;
  /** SHA-256 hex of the request: the same key with another request is a conflict. */
  request_hash: string;
  /** The answer given (a retry gets it again): text, as the feature encoded it. */
  answer: string;
  created_at: Int;
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
  /** The platform session of the connection, AES-256-GCM encrypted (migration 0008); never a password. */
  session_enc?: string | null;
  /** When the current session was obtained (epoch ms). */
  cookies_obtained_at?: Int | null;
  updated_at?: Int | null;
}

/** A connect or re-authentication (`xatt_` ids, migration 0008): `pending`, `challenge`, `connected`, `failed`. */
export interface XConnectionAttemptsTable {
  id: string;
  account_id: string;
  /** `connect` or `reauth`. */
  purpose: string;
  username: string;
  status: string;
  challenge_id: string | null;
  x_account_id: string | null;
  error: string | null;
  reason: string | null;
  retryable: Int;
  created_at: Int;
  updated_at: Int;
}

/**
 * An e-mail code challenge (`xch_` ids, spec 3.5): `requires_email_code`, then `completed`, `failed`,
 * `expired` or `replaced`. `flow_enc` is the platform's login state, encrypted.
 */
export interface XConnectionChallengesTable {
  id: string;
  account_id: string;
  attempt_id: string;
  username: string;
  username_lower: string;
  /** The connection being re-authenticated; null for a new connection. */
  x_account_id: string | null;
  flow_enc: string;
  status: string;
  expires_at: Int;
  created_at: Int;
  updated_at: Int;
}

/** A durable write action (spec 2.16, 3.6), unique per account and `Idempotency-Key`. */
export interface WriteActionsTable {
  id: string;
  account_id: string;
  idempotency_key: string;
  request_hash: string;
  /** The sanitized payload sent to the platform (JSON); null on actions stored before it was kept. */
  request_payload: string | null;
  request_id: string;
  method: string;
  path: string;
  action: string;
  status: string;
  x_account_id: string;
  x_user_id: string;
  x_username: string;
  target_type: string | null;
  target_id: string | null;
  target_username: string | null;
  /** The platform's result (`WriteResult`) as JSON. */
  result: string | null;
  error: string | null;
  message: string | null;
  retryable: Int;
  safe_to_retry: Int;
  send_dispatched_at: Int | null;
  billing_status: string;
  credits: Int;
  charged_at: Int | null;
  billing_reason: string | null;
  confirmation_attempts: Int;
  confirmation_checked_at: Int | null;
  confirmed_at: Int | null;
  expires_at: Int | null;
  completed_at: Int | null;
  created_at: Int;
  updated_at: Int;
}

/** Secrets the server generated for itself (the session encryption secret without `XSVC_SECRET_KEY`). */
/** A machine payment made on the local payment network (spec 5.4); settled once by the request it pays. */
export interface MppPaymentsTable {
  reference: string;
  challenge_id: string;
  amount: string;
  currency: string;
  paid_at: Int;
  settled_at: Int | null;
  settled_operation: string | null;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: Int;
}

/** Login secrets of a simulated account; absent fields fall back to the documented development defaults. */
export interface SimulatedCredentialsTable {
  user_id: string;
  password_salt: string | null;
  /** scrypt of the password with the salt, hex. */
  password_hash: string | null;
  email: string | null;
  totp_secret: string | null;
  /** How many e-mailed codes a login asks for (0: none). */
  email_codes: Int;
}

/** A simulated login waiting for an e-mailed code; the code is what the simulated inbox shows. */
export interface SimulatedLoginFlowsTable {
  id: string;
  user_id: string;
  code: string;
  codes_left: Int;
  /** `waiting`, `done` or `failed`. */
  status: string;
  sent_at: Int;
  expires_at: Int;
}

/** A simulated platform session (SHA-256 of its token). */
export interface SimulatedSessionsTable {
  token_hash: string;
  user_id: string;
  created_at: Int;
}

/** Media uploaded to the simulated platform (`data` base64; null when only a source URL was given). */
export interface SimulatedUploadsTable {
  id: string;
  user_id: string;
  /** `photo`, `video` or `animated_gif`. */
  media_type: string;
  mime_type: string;
  size_bytes: Int;
  source_url: string | null;
  data: string | null;
  created_at: Int;
}

/** What the simulated platform did for a write token (`WriteOutcome` as JSON): a token is performed once. */
export interface SimulatedWriteReceiptsTable {
  token: string;
  user_id: string;
  action: string;
  outcome: string;
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

/**
 * One attempt of a webhook delivery (migration 0015), written in the transaction that counts it on its
 * delivery: `attempt` is 1 for the first; `started_at` is clock time, `duration_ms` measured; `status_code`
 * is null when no answer came; `error` (bounded) is null on success; `outcome` is the delivery's status the
 * attempt led to (`delivered`, `failed`: retried, `exhausted`). Deleted with the delivery.
 */
export interface WebhookDeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  webhook_id: string;
  account_id: string;
  attempt: Int;
  started_at: Int;
  duration_ms: Int;
  status_code: Int | null;
  error: string | null;
  outcome: string;
}

/** One row per stored event whose webhook deliveries are not created yet (see migration 0003). */
export interface EventOutboxTable {
  event_id: string;
  account_id: string;
  created_at: Int;
}

/**
 * One unit of background work (migration 0017, `core/jobs`): `kind` names what runs it, `key` (unique per
 * kind when set) makes singleton and recurring jobs (a monitor shard, a coverage walk), `payload` is JSON.
 * `state` is `queued` (due at `run_at`; running while a lease is held), `parked` or `failed` (terminal);
 * done jobs are deleted. A claimed job holds a lease until `lease_until`; an expired lease is free to take.
 */
export interface JobsTable {
  id: string;
  kind: string;
  key: string | null;
  payload: string;
  state: string;
  run_at: Int;
  attempts: Int;
  lease_owner: string | null;
  lease_until: Int | null;
  last_error: string | null;
  created_at: Int;
  updated_at: Int;
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
  /** `closed` for a closed wallet; otherwise `pending` (active or pending is derived from its paid purchases). */
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

/** A cached writing style (spec 2.9): analyzed from the platform or saved from custom tweets. */
export interface StylesTable {
  id: string;
  account_id: string;
  username_lower: string;
  /** Name shown for a custom style. */
  label: string | null;
  /** `analyzed` (fetched from the platform) or `custom` (saved by the account). */
  origin: string;
  /** JSON array of the sample tweets (API shape). */
  tweets: string;
  tweet_count: Int;
  fetched_at: Int;
  created_at: Int;
}

/** A saved post draft. */
export interface DraftsTable {
  id: string;
  account_id: string;
  text: string;
  topic: string | null;
  goal: string | null;
  created_at: Int;
  updated_at: Int;
}

/** An item of the radar feed (spec 2.15), seeded deterministically. */
export interface RadarItemsTable {
  id: string;
  source: string;
  category: string;
  region: string;
  title: string;
  url: string;
  description: string;
  /** Trend strength times 100. */
  score_centi: Int;
  published_at: Int;
  /** JSON object of the source's metadata fields. */
  metadata: string;
}

/** A support ticket (spec 2.14). */
export interface SupportTicketsTable {
  id: string;
  public_id: string;
  account_id: string;
  subject: string;
  status: string;
  message_count: Int;
  created_at: Int;
  updated_at: Int;
}

/** A message of a support ticket's conversation. */
export interface SupportMessagesTable {
  id: string;
  ticket_id: string;
  account_id: string;
  /** `customer` or `support`. */
  author: string;
  body: string;
  attachment_count: Int;
  created_at: Int;
}

/** A file attached to a support message, stored base64. */
export interface SupportAttachmentsTable {
  id: string;
  message_id: string;
  account_id: string;
  filename: string;
  content_type: string;
  size: Int;
  sha256: string;
  data: string;
  created_at: Int;
}

/** A giveaway draw (spec 2.7); `settings` is the JSON of its request. */
export interface DrawsTable {
  id: string;
  account_id: string;
  tweet_id: string;
  tweet_url: string;
  tweet_text: string | null;
  tweet_author_username: string | null;
  tweet_created_at: string | null;
  status: string;
  total_entries: Int;
  valid_entries: Int;
  settings: string;
  credits_charged: Int;
  created_at: Int;
  drawn_at: Int;
  /** Verifiable draws (null on draws made before them): the procedure the winners follow (`xsvc-draw-v1`). */
  procedure: string | null;
  /** The seed, 64 hex digits, shown once the winners are drawn. */
  seed: string | null;
  /** SHA-256 (hex) of the seed's bytes, fixed before any entry was read. */
  seed_hash: string | null;
  seed_committed_at: Int | null;
  /** SHA-256 (hex) of the entry list, and of the request as canonical JSON. */
  entries_hash: string | null;
  filters_hash: string | null;
}

/** A reply a draw inspected: whether it was eligible (or why not) and whether it won. */
export interface DrawEntriesTable {
  draw_id: string;
  /** Order in which the entry was read, from 1. */
  position: Int;
  tweet_id: string;
  author_id: string;
  author_username: string;
  text: string;
  tweet_created_at: string;
  valid: Int;
  reason: string | null;
  winner_position: Int | null;
  is_backup: Int;
}

/** An extraction job (spec 2.8, 3.2), also its own work item (lease, resume cursor). */
export interface ExtractionJobsTable {
  id: string;
  account_id: string;
  tool_type: string;
  status: string;
  /** JSON of the accepted request. */
  params: string;
  target_tweet_id: string | null;
  target_username: string | null;
  target_user_id: string | null;
  target_community_id: string | null;
  target_list_id: string | null;
  target_space_id: string | null;
  search_query: string | null;
  results_limit: Int | null;
  total_results: Int;
  /** Where the platform read continues; null before the first page. */
  cursor: string | null;
  /** Consecutive pages that brought nothing new (a stall at 3, spec 3.2). */
  stalled_pages: Int;
  error_message: string | null;
  created_at: Int;
  updated_at: Int;
  completed_at: Int | null;
  lease_owner: string | null;
  lease_until: Int | null;
}

/** One result of an extraction job; `data` is the JSON of the result record without its id. */
export interface ExtractionResultsTable {
  job_id: string;
  /** The result's id, from 1 in collection order. */
  seq: Int;
  /** The platform id the result is about (a user or a tweet): one result per item and job. */
  item_key: string;
  data: string;
  has_media: Int;
  created_at: Int;
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
  x_connection_attempts: XConnectionAttemptsTable;
  x_connection_challenges: XConnectionChallengesTable;
  write_actions: WriteActionsTable;
  server_secrets: ServerSecretsTable;
  mpp_payments: MppPaymentsTable;
  simulated_credentials: SimulatedCredentialsTable;
  simulated_login_flows: SimulatedLoginFlowsTable;
  simulated_sessions: SimulatedSessionsTable;
  simulated_uploads: SimulatedUploadsTable;
  simulated_write_receipts: SimulatedWriteReceiptsTable;
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
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  monitors: MonitorsTable;
  keyword_monitors: KeywordMonitorsTable;
  monitor_shards: MonitorShardsTable;
  monitor_engines: MonitorEnginesTable;
  coverage_walks: CoverageWalksTable;
  jobs: JobsTable;
  coverage_seen: CoverageSeenTable;
  media_galleries: MediaGalleriesTable;
  draws: DrawsTable;
  draw_entries: DrawEntriesTable;
  extraction_jobs: ExtractionJobsTable;
  extraction_results: ExtractionResultsTable;
  oauth_clients: OAuthClientsTable;
  oauth_requests: OAuthRequestsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  guest_wallets: GuestWalletsTable;
  guest_purchases: GuestPurchasesTable;
  styles: StylesTable;
  drafts: DraftsTable;
  radar_items: RadarItemsTable;
  support_tickets: SupportTicketsTable;
  support_messages: SupportMessagesTable;
  support_attachments: SupportAttachmentsTable;
  idempotency_keys: IdempotencyKeysTable;
}

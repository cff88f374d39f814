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
}

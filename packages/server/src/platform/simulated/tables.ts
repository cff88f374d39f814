/**
 * The tables owned by `platform/simulated` (the simulated network and its logins): their row types, and their
 * names. Only code under `platform/simulated` writes them; any code may read them through `Database`. They
 * join `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
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
  }
}

/** The tables `platform/simulated` owns. */
export const SIM_PLATFORM_TABLES = [
  'simulated_credentials',
  'simulated_login_flows',
  'simulated_sessions',
  'simulated_uploads',
  'simulated_write_receipts',
  'sim_users',
  'sim_tweets',
  'sim_follows',
  'sim_likes',
  'sim_bookmarks',
  'sim_lists',
  'sim_list_members',
  'sim_communities',
  'sim_community_members',
  'sim_articles',
  'sim_spaces',
  'sim_space_participants',
  'sim_trends',
  'sim_jobs',
  'sim_dms',
  'sim_notifications',
  'sim_meta',
] as const satisfies readonly (keyof Database)[];

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

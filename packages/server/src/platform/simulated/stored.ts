import type { schemas } from '@xsvc/sdk/contract';
import type { Insertable, Selectable } from 'kysely';
import type { SimTweetsTable, SimUsersTable } from './tables.js';

/** A `sim_users` row as read. */
export type UserRow = Selectable<SimUsersTable>;
/** A `sim_tweets` row as read. */
export type TweetRow = Selectable<SimTweetsTable>;

/** What a {@link blankSimUserRow} is given: who the account is and when it was created. */
export interface BlankSimUser {
  id: string;
  username: string;
  /** Display name (default: the username). */
  name?: string;
  /** Creation time, epoch ms. */
  createdAt: number;
}

/**
 * A complete `sim_users` row for a blank account: no profile text, pictures, pin or verification, not
 * protected or suspended, every counter 0, profile version 1. For seeding many watched accounts straight into
 * the table (load tests and benchmarks), where creating them through the control API would measure the API.
 */
export function blankSimUserRow(user: BlankSimUser): Insertable<SimUsersTable> {
  return {
    id: user.id,
    username: user.username,
    username_lower: user.username.toLowerCase(),
    name: user.name ?? user.username,
    description: '',
    location: '',
    url: '',
    profile_picture: '',
    cover_picture: '',
    verified: 0,
    verified_type: null,
    protected: 0,
    suspended: 0,
    pinned_tweet_id: null,
    followers_count: 0,
    following_count: 0,
    statuses_count: 0,
    media_count: 0,
    favourites_count: 0,
    created_at: user.createdAt,
    profile_version: 1,
  };
}

/**
 * The JSON of `sim_tweets.entities`. Arrays are stored only when non-empty, so a SQL `LIKE '%"urls"%'` tells
 * whether a tweet has links. `contentDisclosure` rides along (spec 2.10) since it is per-tweet metadata.
 */
export interface StoredEntities {
  urls?: { url: string; expandedUrl: string; displayUrl: string }[];
  mentions?: { id?: string; username: string }[];
  hashtags?: { text: string }[];
  cashtags?: { text: string }[];
  contentDisclosure?: {
    advertising?: { isPaidPromotion: boolean };
    aiGenerated?: { hasAiGeneratedMedia: boolean };
  };
}

/** The JSON of `sim_tweets.media`: media items already in the API's shape. */
export type StoredMedia = schemas.TweetMedia[];

/** The JSON of `sim_tweets.poll`: options with votes and the closing time (epoch ms). */
export interface StoredPoll {
  options: { label: string; votes: number }[];
  endsAt: number;
}

/** Serializes entities with only their non-empty parts, in a fixed key order. */
export function encodeEntities(e: StoredEntities): string {
  if (!e.urls && !e.mentions && !e.hashtags && !e.cashtags && !e.contentDisclosure) return '{}';
  const out: StoredEntities = {};
  if (e.urls?.length) out.urls = e.urls;
  if (e.mentions?.length) out.mentions = e.mentions;
  if (e.hashtags?.length) out.hashtags = e.hashtags;
  if (e.cashtags?.length) out.cashtags = e.cashtags;
  if (e.contentDisclosure) out.contentDisclosure = e.contentDisclosure;
  return JSON.stringify(out);
}

/** Parses stored JSON, tolerating a corrupt value (treated as absent) so one bad row never fails a page. */
export function parseJson<T>(json: string | null): T | undefined {
  if (json === null || json === '') return undefined;
  try {
    return JSON.parse(json) as T;
  } catch {
    return undefined;
  }
}

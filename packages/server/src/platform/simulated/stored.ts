import type { schemas } from '@xsvc/sdk/contract';
import type { Selectable } from 'kysely';
import type { SimTweetsTable, SimUsersTable } from './tables.js';

/** A `sim_users` row as read. */
export type UserRow = Selectable<SimUsersTable>;
/** A `sim_tweets` row as read. */
export type TweetRow = Selectable<SimTweetsTable>;

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

import type { XQuery } from './client.js';

/**
 * The fields and expansions every read asks for. X returns only `id` and `text` by default, and an unknown
 * field name fails the whole request with 400, so this list holds only documented field names.
 */
const TWEET_FIELDS = [
  'attachments',
  'author_id',
  'conversation_id',
  'created_at',
  'entities',
  'in_reply_to_user_id',
  'lang',
  'note_tweet',
  'public_metrics',
  'referenced_tweets',
  'reply_settings',
].join(',');

const USER_FIELDS = [
  'created_at',
  'description',
  'entities',
  'location',
  'pinned_tweet_id',
  'profile_banner_url',
  'profile_image_url',
  'protected',
  'public_metrics',
  'url',
  'verified',
  'verified_type',
  'withheld',
].join(',');

const MEDIA_FIELDS = [
  'media_key',
  'type',
  'url',
  'preview_image_url',
  'width',
  'height',
  'duration_ms',
  'alt_text',
  'variants',
].join(',');

const POLL_FIELDS = ['duration_minutes', 'end_datetime', 'options', 'voting_status'].join(',');

const LIST_FIELDS = [
  'created_at',
  'description',
  'follower_count',
  'member_count',
  'owner_id',
  'private',
].join(',');

/** Expansions of a post: its author, the posts it quotes, retweets or answers (with their authors), media, polls. */
const TWEET_EXPANSIONS = [
  'author_id',
  'in_reply_to_user_id',
  'referenced_tweets.id',
  'referenced_tweets.id.author_id',
  'attachments.media_keys',
  'attachments.poll_ids',
].join(',');

/** Parameters of any endpoint answering posts. */
export const tweetParams: XQuery = {
  'tweet.fields': TWEET_FIELDS,
  'user.fields': USER_FIELDS,
  'media.fields': MEDIA_FIELDS,
  'poll.fields': POLL_FIELDS,
  expansions: TWEET_EXPANSIONS,
};

/** Parameters of any endpoint answering users. */
export const userParams: XQuery = { 'user.fields': USER_FIELDS };

/** Parameters of any endpoint answering lists (with the owner expanded). */
export const listParams: XQuery = {
  'list.fields': LIST_FIELDS,
  'user.fields': USER_FIELDS,
  expansions: 'owner_id',
};

/** Accepted `max_results` bounds of an endpoint. */
export interface PageBounds {
  min: number;
  max: number;
}

/**
 * Clamps a page size to what the endpoint accepts: asking for less than its minimum fails with 400, so a
 * smaller page size yields a slightly larger page rather than an error.
 */
export function maxResults(pageSize: number, bounds: PageBounds): number {
  return Math.min(bounds.max, Math.max(bounds.min, Math.trunc(pageSize) || bounds.min));
}

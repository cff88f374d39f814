import type { StreamClient } from '@xdevplatform/xdk';
import type { XQuery } from './client.js';
import { MEDIA_FIELDS, POLL_FIELDS, USER_FIELDS } from './fields.js';

/**
 * The fields and expansions of the filtered stream, typed by xdk's `StreamClient.posts` options. The stream
 * endpoints keep X's older names (2.167): `tweet.fields` (not `post.fields`), `note_tweet`, `referenced_tweets`
 * and the `referenced_tweets.id` expansions; the mappers read both spellings (`types.ts`).
 */

type StreamOptions = NonNullable<Parameters<StreamClient['posts']>[0]>;
type Values<K extends keyof StreamOptions> =
  NonNullable<StreamOptions[K]> extends readonly (infer V)[] ? V : never;

/** The post fields the mappers read, in the stream's spelling. */
export const STREAM_TWEET_FIELDS = [
  'attachments',
  'author_id',
  'community_id',
  'conversation_id',
  'created_at',
  'display_text_range',
  'entities',
  'in_reply_to_user_id',
  'lang',
  'note_tweet',
  'public_metrics',
  'referenced_tweets',
  'reply_settings',
] as const satisfies readonly Values<'tweetFields'>[];

/** The author, the user answered, the posts referenced and their authors, media and polls. */
export const STREAM_EXPANSIONS = [
  'author_id',
  'in_reply_to_user_id',
  'referenced_tweets.id',
  'referenced_tweets.id.author_id',
  'attachments.media_keys',
  'attachments.poll_ids',
] as const satisfies readonly Values<'expansions'>[];

/** The query of `GET /2/tweets/search/stream`. */
export const streamParams: XQuery = {
  'tweet.fields': STREAM_TWEET_FIELDS.join(','),
  expansions: STREAM_EXPANSIONS.join(','),
  'user.fields': (USER_FIELDS satisfies readonly Values<'userFields'>[]).join(','),
  'media.fields': (MEDIA_FIELDS satisfies readonly Values<'mediaFields'>[]).join(','),
  'poll.fields': (POLL_FIELDS satisfies readonly Values<'pollFields'>[]).join(','),
};

import type {
  CommunitiesClient,
  ListsClient,
  PostsClient,
  SpacesClient,
  TrendsClient,
  UsersClient,
} from '@xdevplatform/xdk';
import type { XQuery } from './client.js';

/**
 * The fields and expansions every read asks for, typed by X's official SDK (`@xdevplatform/xdk`, generated
 * from X's description): each list is checked against the option type of the endpoint family it is sent to,
 * so a name X would refuse with 400 (`tweet.fields`, `referenced_tweets.id`, `pinned_tweet_id`, …) does not
 * compile. X returns only `id` and `text` (users: `id`, `name`, `username`) unless asked.
 *
 * In X API v2 as described today (2.167) a post's author, reply target and referenced posts are expansions,
 * not fields: `author_id`, `in_reply_to_user_id` and `referenced_posts` are asked for in `expansions` and
 * come back on the post and in `includes`. A user's pinned post is the `pinned_post_id` expansion.
 */

type OptionOf<F> = F extends (a: never, options?: infer O) => unknown ? NonNullable<O> : never;
type Values<O, K extends keyof O> = NonNullable<O[K]> extends readonly (infer V)[] ? V : never;

type PostLookup = OptionOf<PostsClient['getById']>;
type UserLookup = OptionOf<UsersClient['getById']>;
type ListLookup = OptionOf<ListsClient['getById']>;
type CommunityLookup = OptionOf<CommunitiesClient['getById']>;
type SpaceLookup = OptionOf<SpacesClient['getById']>;
type TrendLookup = OptionOf<TrendsClient['getByWoeid']>;

/** A name of X's `post.fields`. */
export type PostField = Values<PostLookup, 'postFields'>;
/** An expansion of an endpoint answering posts. */
export type PostExpansion = Values<PostLookup, 'expansions'>;
/** A name of X's `user.fields`. */
export type UserField = Values<UserLookup, 'userFields'>;
/** An expansion of an endpoint answering users. */
export type UserExpansion = Values<UserLookup, 'expansions'>;
/** A name of X's `media.fields`. */
export type MediaField = Values<PostLookup, 'mediaFields'>;
/** A name of X's `poll.fields`. */
export type PollField = Values<PostLookup, 'pollFields'>;
/** A name of X's `list.fields`. */
export type ListField = Values<ListLookup, 'listFields'>;
/** A name of X's `community.fields`. */
export type CommunityField = Values<CommunityLookup, 'communityFields'>;
/** A name of X's `space.fields`. */
export type SpaceField = Values<SpaceLookup, 'spaceFields'>;
/** An expansion of a space lookup. */
export type SpaceExpansion = Values<SpaceLookup, 'expansions'>;

/** The post fields the mappers read (`mappers.ts`). */
export const POST_FIELDS = [
  'attachments',
  'community_id',
  'conversation_id',
  'created_at',
  'display_text_range',
  'entities',
  'lang',
  'note_post',
  'public_metrics',
  'reply_settings',
] as const satisfies readonly PostField[];

/** The post fields of an article lookup: the post's own, and its article. */
export const ARTICLE_POST_FIELDS = [
  ...POST_FIELDS,
  'article',
  'article_title',
] as const satisfies readonly PostField[];

/** The user fields the mappers read (`map-user.ts`). */
export const USER_FIELDS = [
  'created_at',
  'description',
  'entities',
  'location',
  'profile_banner_url',
  'profile_image_url',
  'protected',
  'public_metrics',
  'url',
  'verified',
  'verified_type',
  'withheld',
] as const satisfies readonly UserField[];

/** The user expansions: the pinned post, so that `pinnedTweetIds` is known. */
export const USER_EXPANSIONS = ['pinned_post_id'] as const satisfies readonly UserExpansion[];

export const MEDIA_FIELDS = [
  'media_key',
  'type',
  'url',
  'preview_image_url',
  'width',
  'height',
  'duration_ms',
  'alt_text',
  'variants',
] as const satisfies readonly MediaField[];

export const POLL_FIELDS = [
  'duration_minutes',
  'end_datetime',
  'options',
  'voting_status',
] as const satisfies readonly PollField[];

export const LIST_FIELDS = [
  'created_at',
  'description',
  'follower_count',
  'member_count',
  'private',
] as const satisfies readonly ListField[];

export const COMMUNITY_FIELDS = [
  'access',
  'created_at',
  'description',
  'join_policy',
  'member_count',
  'name',
] as const satisfies readonly CommunityField[];

/** Expansions of a post: its author, the posts it quotes, reposts or answers, the user it answers, media, polls. */
export const POST_EXPANSIONS = [
  'author_id',
  'in_reply_to_user_id',
  'referenced_posts',
  'attachments.media_keys',
  'attachments.poll_ids',
] as const satisfies readonly PostExpansion[];

/** Expansions of an article lookup: the post's and the article's cover and media. */
export const ARTICLE_EXPANSIONS = [
  ...POST_EXPANSIONS,
  'article.cover_media',
] as const satisfies readonly PostExpansion[];

/** The people of a space lookup. */
export const SPACE_EXPANSIONS = [
  'creator_id',
  'host_ids',
  'speaker_ids',
] as const satisfies readonly SpaceExpansion[];

const csv = (list: readonly string[]) => list.join(',');

/** Parameters of any endpoint answering posts. */
export const tweetParams: XQuery = {
  'post.fields': csv(POST_FIELDS),
  'user.fields': csv(USER_FIELDS),
  'media.fields': csv(MEDIA_FIELDS),
  'poll.fields': csv(POLL_FIELDS),
  expansions: csv(POST_EXPANSIONS),
};

/** Parameters of a post lookup that reads its article. */
export const articleParams: XQuery = {
  ...tweetParams,
  'post.fields': csv(ARTICLE_POST_FIELDS),
  expansions: csv(ARTICLE_EXPANSIONS),
};

/** Parameters of any endpoint answering users (with the pinned post expanded, for its id). */
export const userParams: XQuery = {
  'user.fields': csv(USER_FIELDS),
  expansions: csv(USER_EXPANSIONS),
};

/** Parameters of any endpoint answering lists (with the owner expanded). */
export const listParams: XQuery = {
  'list.fields': csv(LIST_FIELDS),
  'user.fields': csv(USER_FIELDS),
  expansions: 'owner_id' satisfies Values<ListLookup, 'expansions'>,
};

/** Parameters of a community lookup. */
export const communityParams: XQuery = { 'community.fields': csv(COMMUNITY_FIELDS) };

/** Parameters of a space lookup: its people, with their profiles. */
export const spaceParams: XQuery = {
  'space.fields': csv(['title', 'state'] satisfies SpaceField[]),
  'user.fields': csv(USER_FIELDS),
  expansions: csv(SPACE_EXPANSIONS),
};

/** Parameters of a region's trends: the name and the post volume (X sends only what is asked for). */
export const trendParams: XQuery = {
  'trend.fields': csv(['trend_name', 'tweet_count'] satisfies Values<TrendLookup, 'trendFields'>[]),
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

import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import type {
  AsUser,
  PageRequest,
  Platform,
  PlatformPage,
  Tweet,
  UserProfile,
} from '../../core/platform/platform.js';
import { toTweetFilters } from '../../core/reads/filters.js';
import { articleResult, type Collected, tweetResult, userResult } from './results.js';

/** An accepted extraction request (spec 4.8), usernames without their @. */
export type ExtractionSpec = z.output<typeof schemas.ExtractionRequestSchema>;

/** What a job reads: its request, and the user id its target username resolved to (account tools). */
export interface JobTarget {
  spec: ExtractionSpec;
  targetUserId?: string | undefined;
}

/** Reads one page of what a job collects. */
export type ToolReader = (page: PageRequest) => Promise<PlatformPage<Collected>>;

const users = (p: PlatformPage<UserProfile>): PlatformPage<Collected> => ({
  items: p.items.map(userResult),
  nextCursor: p.nextCursor,
});
const tweets = (p: PlatformPage<Tweet>): PlatformPage<Collected> => ({
  items: p.items.map(tweetResult),
  nextCursor: p.nextCursor,
});
/** A listing of a list, community or space that vanished since the job started reads as empty. */
const gone = <T>(p: PlatformPage<T> | undefined): PlatformPage<T> => p ?? { items: [] };

function required(value: string | undefined, field: string): string {
  if (value === undefined) throw new Error(`extraction job without ${field}`);
  return value;
}

/** The tweet search of `tweet_search_extractor`: the query, `advancedQuery` appended, and the filters. */
function tweetSearch(spec: ExtractionSpec, now: number) {
  const q = [spec.searchQuery, spec.advancedQuery].filter(Boolean).join(' ');
  return { ...toTweetFilters(spec, now), q, queryType: spec.queryType ?? 'Latest' } as const;
}

/**
 * The platform read of each of the 23 tools (spec 4.8), the same calls the matching `/x/*` reads make:
 * users for the follower, member, search and space tools; tweets for the timeline, reply, quote, thread,
 * search and community-post tools; the article for `article_extractor` (one page). `asUser` is the job
 * owner's connected account, for the reads a platform serves only to a user token (xapi: `favoriters`,
 * `user_likes`).
 */
export function toolReader(platform: Platform, job: JobTarget, now: number, asUser?: AsUser): ToolReader {
  const { spec } = job;
  const tweetId = () => required(spec.targetTweetId, 'targetTweetId');
  const userId = () => required(job.targetUserId, 'targetUserId');
  const communityId = () => required(spec.targetCommunityId, 'targetCommunityId');
  const listId = () => required(spec.targetListId, 'targetListId');
  const query = () => required(spec.searchQuery, 'searchQuery');
  switch (spec.toolType) {
    case 'article_extractor':
      return async () => {
        const article = await platform.article(tweetId());
        return { items: article ? [articleResult(article)] : [] };
      };
    case 'reply_extractor':
      return async (p) => tweets(await platform.replies(tweetId(), {}, p));
    case 'quote_extractor':
      return async (p) => tweets(await platform.quotes(tweetId(), {}, p));
    case 'thread_extractor':
      return async (p) => tweets(await platform.thread(tweetId(), p));
    case 'repost_extractor':
      return async (p) => users(await platform.retweeters(tweetId(), {}, p));
    case 'favoriters':
      return async (p) => users(await platform.favoriters(tweetId(), {}, p, asUser));
    case 'follower_explorer':
      return async (p) => users(await platform.followers(userId(), {}, p));
    case 'following_explorer':
      return async (p) => users(await platform.following(userId(), {}, p));
    case 'verified_follower_explorer':
      return async (p) => users(await platform.verifiedFollowers(userId(), p));
    case 'mention_extractor':
      return async (p) => tweets(await platform.userMentions(userId(), p));
    case 'post_extractor':
      return async (p) =>
        tweets(await platform.userTweets(userId(), { includeReplies: spec.includeReplies ?? false }, p));
    case 'user_likes':
      return async (p) => tweets(await platform.userLikes(userId(), p, asUser));
    case 'user_media':
      return async (p) => tweets(await platform.userMedia(userId(), p));
    case 'community_extractor':
      return async (p) => users(gone(await platform.communityMembers(communityId(), 'member', p)));
    case 'community_moderator_explorer':
      return async (p) => users(gone(await platform.communityMembers(communityId(), 'moderator', p)));
    case 'community_post_extractor':
      return async (p) => tweets(gone(await platform.communityTweets(communityId(), p)));
    case 'community_search':
      return async (p) => tweets(await platform.searchCommunityTweets(query(), undefined, p));
    case 'people_search':
      return async (p) => users(await platform.searchUsers(query(), {}, p, asUser));
    case 'tweet_search_extractor':
      return async (p) => tweets(await platform.searchTweets(tweetSearch(spec, now), p));
    case 'list_member_extractor':
      return async (p) => users(gone(await platform.listMembers(listId(), p)));
    case 'list_follower_explorer':
      return async (p) => users(gone(await platform.listFollowers(listId(), p)));
    case 'list_post_extractor':
      return async (p) => tweets(gone(await platform.listTweets(listId(), p)));
    case 'space_explorer':
      return async (p) =>
        users(gone(await platform.spaceParticipants(required(spec.targetSpaceId, 'targetSpaceId'), p)));
  }
}

import {
  type PageRequest,
  type Platform,
  type PlatformPage,
  PlatformUnavailableError,
  type Tweet,
  type UserProfile,
} from '../../core/platform/platform.js';
import { path, type XApiClient } from './client.js';
import type { XUser } from './types.js';

/**
 * The largest following list scanned to answer a follow check: one page of `GET /2/users/:id/following`.
 * v2 has no friendship lookup for app tokens, and paging a larger list would spend the endpoint's small
 * rate limit on a single check.
 */
export const MAX_FOLLOW_SCAN = 1000;

/** Whether `user` follows `otherId`, by reading `user`'s following list when it is small enough. */
export async function followsScan(x: XApiClient, user: UserProfile, otherId: string): Promise<boolean> {
  if (user.following === undefined || user.following > MAX_FOLLOW_SCAN) {
    throw new PlatformUnavailableError(
      'x_api_unavailable',
      `a follow check for an account following more than ${MAX_FOLLOW_SCAN} accounts is not available through the X API v2 with an app token`,
    );
  }
  let cursor: string | undefined;
  let scanned = 0;
  do {
    const res = await x.get<Pick<XUser, 'id'>[]>(path`/2/users/${user.id}/following`, {
      max_results: MAX_FOLLOW_SCAN,
      pagination_token: cursor,
    });
    const ids = (res.data ?? []).map((u) => u.id);
    if (ids.includes(otherId)) return true;
    scanned += ids.length;
    cursor = res.meta?.next_token;
  } while (cursor && scanned < MAX_FOLLOW_SCAN);
  return false;
}

function byId(a: Tweet, b: Tweet): number {
  const d = BigInt(a.id) - BigInt(b.id);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

async function tweetOf(platform: Pick<Platform, 'getTweet'>, id: string): Promise<Tweet | undefined> {
  const found = await platform.getTweet(id);
  return 'tweet' in found ? found.tweet : undefined;
}

/**
 * The thread of a tweet: the posts of its conversation by the conversation's author (a `conversation_id:` +
 * `from:` recent search), oldest first. The first page also carries the conversation's first post, which
 * recent search misses once it is older than 7 days.
 */
export async function threadOf(
  platform: Pick<Platform, 'getTweet'>,
  search: (q: string, page: PageRequest) => Promise<PlatformPage<Tweet>>,
  tweetId: string,
  page: PageRequest,
): Promise<PlatformPage<Tweet>> {
  const found = await platform.getTweet(tweetId);
  if (!('tweet' in found)) return { items: [] };
  const conversationId = found.tweet.conversationId ?? found.tweet.id;
  const head =
    found.tweet.id === conversationId
      ? found.tweet
      : page.cursor
        ? undefined
        : await tweetOf(platform, conversationId);
  const author = head?.author ?? found.tweet.author;
  const query = `conversation_id:${conversationId}${author ? ` from:${author.username}` : ''}`;
  const res = await search(query, page);
  const items = [...res.items];
  const headId = head?.id;
  const headByAuthor = head !== undefined && (!author || head.author?.id === author.id);
  if (head && headByAuthor && !page.cursor && !items.some((t) => t.id === headId)) items.push(head);
  items.sort(byId);
  return res.nextCursor ? { items, nextCursor: res.nextCursor } : { items };
}

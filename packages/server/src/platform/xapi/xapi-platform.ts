import { snowflakeTime } from '../../core/ids/snowflake.js';
import type {
  LoginCredentials,
  LoginOutcome,
  SessionRenewal,
  WriteActor,
  WriteCommand,
  WriteOutcome,
} from '../../core/platform/account-writes.js';
import {
  type AsUser,
  type AuthorTweets,
  type MonitorLoad,
  type MonitorPace,
  type PageRequest,
  type Platform,
  type PlatformArticle,
  type PlatformCommunity,
  type PlatformDm,
  type PlatformList,
  type PlatformNotification,
  type PlatformPage,
  PlatformRefusal,
  type PlatformTrend,
  PlatformUnavailableError,
  type ProfileStamps,
  type ReplyNode,
  type ReplyTreeOptions,
  type Tweet,
  type TweetFilters,
  type TweetLookup,
  type TweetSearch,
  type UserFilters,
  type UserProfile,
  type UserReader,
} from '../../core/platform/platform.js';
import { path, type XApiClient, type XQuery } from './client.js';
import {
  articleParams,
  communityParams,
  listParams,
  maxResults,
  spaceParams,
  trendParams,
  tweetParams,
  userParams,
} from './fields.js';
import { searchOperators, timeParams, tweetMatcher, userMatcher } from './filters.js';
import { expand, mapArticle, mapCommunity, mapList, mapTrends, mapTweet, mapUser } from './mappers.js';
import * as monitorReads from './monitor-reads.js';
import {
  fetchPage,
  isMissing,
  isSuspension,
  lookup,
  missingReason,
  toTweetPage,
  toUserPage,
  tweetPage,
  userPage,
  withAuthors,
} from './pages.js';
import { SEARCH_ENDPOINT, USERS_ENDPOINT, XRateBudget } from './rate-budget.js';
import { followsScan, threadOf } from './relations.js';
import { xReplyTree } from './reply-tree.js';
import type { XStreamSource } from './stream-source.js';
import type { XCommunity, XList, XResponse, XTrend, XTweet, XUser } from './types.js';
import type { XUserAccess } from './user-access.js';
import { isXId, parseUserRef } from './user-ref.js';

/** The error for what the X API v2 does not offer to an app-only token. */
function unavailable(what: string): never {
  throw new PlatformRefusal(`${what} is not available through the X API v2 with an app token`);
}

/** The OAuth 2.0 scopes X needs on the user token for liked posts and liking users. */
export const LIKES_SCOPES: readonly string[] = ['like.read', 'tweet.read', 'users.read'];

/** The OAuth 2.0 scopes X needs on the user token for user search (`GET /2/users/search`). */
export const USER_SEARCH_SCOPES: readonly string[] = ['tweet.read', 'users.read'];

/** What X's user search accepts as its `query` (its description's pattern): 1–50 letters, digits, `_`, `'`, spaces. */
const USER_SEARCH_QUERY = /^[A-Za-z0-9_' ]{1,50}$/;

/**
 * The error for a read X serves only to a user token (OAuth 2.0 user context), never to the app token, when
 * the caller has no connected account to make it as.
 */
function needsUserToken(what: string, scopes: readonly string[]): never {
  throw new PlatformRefusal(
    `${what} is served by the X API v2 only to a user token (OAuth 2.0 with ${scopes.join(', ')}), not to the app token, and the caller has no connected account to read it as: connect one with POST /api/v1/x/accounts`,
  );
}

const TWEET_PAGE = { min: 5, max: 100 };
const SEARCH_PAGE = { min: 10, max: 100 };
const USER_PAGE = { min: 1, max: 100 };
const FOLLOW_PAGE = { min: 1, max: 1000 };

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** What the platform knows of the app beyond its token. */
export interface XApiPlatformOptions {
  /** Whether the app's tier has full-archive search (`GET /2/tweets/search/all`). */
  fullArchive: boolean;
  /** The clock (ms since the epoch) that tells a post older than recent search reaches. */
  now: () => number;
  /** The monitors' filtered stream (`X_API_MONITOR_SOURCE=stream`); without it their reads poll X. */
  stream?: XStreamSource | undefined;
  /** The longest recent-search query (characters); {@link DEFAULT_SEARCH_QUERY_MAX} by default. */
  searchQueryMax?: number | undefined;
  /** The app's request budget; without it, a budget of this process alone with X's default figures. */
  budget?: XRateBudget | undefined;
}

/** A direct-message event of X (`dm_event.fields`, with the `sender_id` expansion). */
interface XDmEvent {
  id: string;
  text?: string;
  created_at?: string;
  sender_id?: string;
  event_type?: string;
}

/** Recent search reaches back 7 days. */
const RECENT_SEARCH_MS = 7 * 24 * 3600 * 1000;

/**
 * The `xapi` platform: every public read the X API v2 serves with an app bearer token, mapped to the API's
 * shapes. X's `next_token` is passed through as the opaque cursor. Filters v2 has no parameter or operator
 * for are applied to each page after mapping. Private reads, liked posts and liking users are made with a
 * connected account's user token. What has no v2 endpoint (community members and timelines, jobs,
 * notifications, user search, …) throws a `PlatformRefusal` (`x_api_unavailable`, nothing sent) with a
 * message naming why. What each operation does here is listed, and tested, in `operations.ts`.
 */
export class XApiPlatform implements Platform {
  readonly kind = 'xapi' as const;

  /** The app's request budget, fed by the headers of every answer to the app token. */
  readonly budget: XRateBudget;

  /**
   * `users` is the user-context side (connected accounts through X's OAuth 2.0, their writes and private
   * reads); without it (no `X_CLIENT_ID`) nothing can be connected.
   */

  constructor(
    private readonly x: XApiClient,
    private readonly opts: XApiPlatformOptions = { fullArchive: false, now: Date.now },
    private readonly users?: XUserAccess,
  ) {
    this.budget = opts.budget ?? new XRateBudget({ now: opts.now });
    const stream = opts.stream;
    if (stream) {
      this.keywordTweetsSince = (query, sinceId, limit) => stream.keywordTweetsSince(query, sinceId, limit);
      this.watchKeyword = (query) => stream.admitQuery(query);
      this.close = () => stream.stop();
    }
  }

  /**
   * Recent search (every `searchTweets`) reaches back 7 days: keyword checks start no earlier, as the
   * account queries do (`tweetsByAuthorsSince`), rather than getting X's 400 on every check.
   */
  readonly searchReachMs = monitorReads.RECENT_SEARCH_REACH_MS;

  /** With the filtered stream: keyword monitors' matches from what it delivered (see `XStreamSource`). */
  readonly keywordTweetsSince?: (query: string, sinceId: string, limit: number) => Promise<AuthorTweets>;
  /** With the filtered stream: adds a keyword monitor's rule before its watermark is taken. */
  readonly watchKeyword?: (query: string) => Promise<void>;
  /** With the filtered stream: closes its connection and frees its lease. */
  readonly close?: () => Promise<void>;

  // Users

  async getUser(userRef: string): Promise<UserProfile | undefined> {
    const ref = parseUserRef(userRef);
    if (!ref) return undefined;
    const where = 'id' in ref ? path`/2/users/${ref.id}` : path`/2/users/by/username/${ref.username}`;
    const res = await lookup(() => this.x.get<XUser>(where, userParams));
    if (res?.data) return mapUser(res.data);
    const suspended = res?.errors?.find(isSuspension);
    if (!suspended) return undefined;
    // X names no profile of a suspended account; the route still needs to tell it from a missing one.
    const id = 'id' in ref ? ref.id : '';
    const username = 'username' in ref ? ref.username : '';
    return { id, username, name: '', unavailable: true, unavailableReason: 'suspended' };
  }

  async getUsers(ids: readonly string[]): Promise<UserProfile[]> {
    const valid = [...new Set(ids.filter(isXId))];
    const out: UserProfile[] = [];
    for (const batch of chunks(valid, 100)) {
      const res = await this.x.get<XUser[]>('/2/users', { ...userParams, ids: batch.join(',') });
      out.push(...(res.data ?? []).map(mapUser));
    }
    return out;
  }

  /**
   * `GET /2/users/search`, which X serves only to a user token (OAuth 2.0 with `tweet.read`, `users.read`):
   * read as the caller's connected account (`asUser`), refused naming that limitation when the caller has
   * none. X takes 1–50 letters, digits, spaces, `_` and `'`; other search text is refused naming that rule
   * (nothing is sent).
   */
  async searchUsers(
    q: string,
    filters: UserFilters,
    page: PageRequest,
    asUser?: AsUser,
  ): Promise<PlatformPage<UserProfile>> {
    const query = q.trim();
    if (!USER_SEARCH_QUERY.test(query)) {
      throw new PlatformRefusal(
        `X's user search (GET /2/users/search) takes 1 to 50 letters, digits, spaces, _ and ' only; "${q.slice(0, 60)}" has others or is longer`,
      );
    }
    const as = await this.#userTokenReader(asUser, 'user search', USER_SEARCH_SCOPES);
    const ep = {
      path: '/2/users/search',
      bounds: FOLLOW_PAGE,
      cursorParam: 'next_token' as const,
      query: { query },
    };
    return as.reader.run(() => userPage(as.x, ep, page, userMatcher(filters)));
  }

  followers(userId: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>> {
    if (!isXId(userId)) return Promise.resolve({ items: [] });
    return userPage(
      this.x,
      { path: path`/2/users/${userId}/followers`, bounds: FOLLOW_PAGE },
      page,
      userMatcher(filters),
    );
  }

  following(userId: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>> {
    if (!isXId(userId)) return Promise.resolve({ items: [] });
    return userPage(
      this.x,
      { path: path`/2/users/${userId}/following`, bounds: FOLLOW_PAGE },
      page,
      userMatcher(filters),
    );
  }

  async verifiedFollowers(_userId: string, _page: PageRequest): Promise<PlatformPage<UserProfile>> {
    return unavailable('the verified-followers listing');
  }

  async followersYouKnow(
    _viewerId: string,
    _userId: string,
    _page: PageRequest,
  ): Promise<PlatformPage<UserProfile>> {
    return unavailable('followers you know');
  }

  async checkFollow(
    sourceId: string,
    targetId: string,
  ): Promise<{ isFollowing: boolean; isFollowedBy: boolean }> {
    const users = await this.getUsers([sourceId, targetId]);
    const source = users.find((u) => u.id === sourceId);
    const target = users.find((u) => u.id === targetId);
    if (!source || !target) return { isFollowing: false, isFollowedBy: false };
    return {
      isFollowing: await followsScan(this.x, source, targetId),
      isFollowedBy: await followsScan(this.x, target, sourceId),
    };
  }

  async listMemberships(userId: string, page: PageRequest): Promise<PlatformPage<PlatformList>> {
    if (!isXId(userId)) return { items: [] };
    const res = await this.x.get<XList[]>(path`/2/users/${userId}/list_memberships`, {
      ...listParams,
      max_results: maxResults(page.pageSize, USER_PAGE),
      pagination_token: page.cursor,
    });
    const users = expand(res.includes).users;
    const next = res.meta?.next_token;
    return { items: (res.data ?? []).map((l) => mapList(l, users)), ...(next ? { nextCursor: next } : {}) };
  }

  // Tweets

  async getTweet(id: string): Promise<TweetLookup> {
    if (!isXId(id)) return { missing: 'not_found' };
    const found = await lookup(() => this.x.get<XTweet>(path`/2/tweets/${id}`, tweetParams));
    const res = found?.data ? await withAuthors(this.x, found) : found;
    if (res?.data) return { tweet: mapTweet(res.data, expand(res.includes)) };
    return { missing: missingReason(res?.errors) };
  }

  async getTweets(ids: readonly string[]): Promise<Tweet[]> {
    const valid = [...new Set(ids.filter(isXId))];
    const out: Tweet[] = [];
    for (const batch of chunks(valid, 100)) {
      const res = await withAuthors(
        this.x,
        await this.x.get<XTweet[]>('/2/tweets', { ...tweetParams, ids: batch.join(',') }),
      );
      const inc = expand(res.includes);
      out.push(...(res.data ?? []).map((t) => mapTweet(t, inc)));
    }
    return out;
  }

  searchTweets(search: TweetSearch, page: PageRequest): Promise<PlatformPage<Tweet>> {
    return this.#search(search.q, search, page, search.queryType);
  }

  /** Recent search (the last 7 days), or full-archive search, with the filters as operators. */
  #search(
    q: string,
    filters: TweetFilters,
    page: PageRequest,
    order: 'Latest' | 'Top' = 'Latest',
    archive = false,
  ) {
    const query = [q.trim(), ...searchOperators(filters)].filter(Boolean).join(' ');
    const params = { query, sort_order: order === 'Top' ? 'relevancy' : 'recency', ...timeParams(filters) };
    const ep = {
      path: archive ? '/2/tweets/search/all' : '/2/tweets/search/recent',
      bounds: SEARCH_PAGE,
      cursorParam: 'next_token' as const,
      query: params,
    };
    return tweetPage(this.x, ep, page, tweetMatcher(filters, true));
  }

  userTweets(
    userId: string,
    opts: TweetFilters & { includeReplies?: boolean },
    page: PageRequest,
  ): Promise<PlatformPage<Tweet>> {
    if (!isXId(userId)) return Promise.resolve({ items: [] });
    const wantsReplies =
      opts.includeReplies === true || opts.replies === 'include' || opts.replies === 'only';
    const exclude = [
      ...(opts.replies === 'exclude' || !wantsReplies ? ['replies'] : []),
      ...(opts.retweets === 'exclude' ? ['retweets'] : []),
    ];
    const query = { ...timeParams(opts), exclude: exclude.join(',') || undefined };
    const ep = { path: path`/2/users/${userId}/tweets`, bounds: TWEET_PAGE, query };
    return tweetPage(this.x, ep, page, tweetMatcher(opts, false));
  }

  userReplies(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    if (!isXId(userId)) return Promise.resolve({ items: [] });
    const ep = { path: path`/2/users/${userId}/tweets`, bounds: TWEET_PAGE, query: { exclude: 'retweets' } };
    return tweetPage(this.x, ep, page, (t) => t.isReply === true);
  }

  /**
   * `GET /2/users/:id/liked_tweets`, which X serves only to a user token (OAuth 2.0 with `like.read`,
   * `tweet.read`, `users.read`): read as the caller's connected account (`asUser`), refused with a message
   * naming that limitation when the caller has none.
   */
  async userLikes(userId: string, page: PageRequest, asUser?: AsUser): Promise<PlatformPage<Tweet>> {
    if (!isXId(userId)) return { items: [] };
    const as = await this.#userTokenReader(asUser, 'the liked posts of an account', LIKES_SCOPES);
    const ep = { path: path`/2/users/${userId}/liked_tweets`, bounds: TWEET_PAGE };
    return as.reader.run(() => tweetPage(as.x, ep, page));
  }

  userMedia(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    if (!isXId(userId)) return Promise.resolve({ items: [] });
    const ep = { path: path`/2/users/${userId}/tweets`, bounds: TWEET_PAGE, query: { exclude: 'retweets' } };
    return tweetPage(this.x, ep, page, (t) => (t.media?.length ?? 0) > 0);
  }

  userMentions(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    if (!isXId(userId)) return Promise.resolve({ items: [] });
    return tweetPage(this.x, { path: path`/2/users/${userId}/mentions`, bounds: TWEET_PAGE }, page);
  }

  /**
   * The search that reaches a conversation: recent search for a post of the last 7 days, full-archive search
   * for an older one where the app's tier has it (`X_API_FULL_ARCHIVE`), else a refusal that says so (recent
   * search would silently miss every reply older than 7 days).
   */
  #conversationSearch(
    tweetId: string,
    what: string,
  ): (q: string, filters: TweetFilters, p: PageRequest) => Promise<PlatformPage<Tweet>> {
    const old = snowflakeTime(tweetId) < this.opts.now() - RECENT_SEARCH_MS;
    if (old && !this.opts.fullArchive) {
      throw new PlatformRefusal(
        `${what} of a post older than 7 days need X's full-archive search (GET /2/tweets/search/all), which this app's tier does not have (X_API_FULL_ARCHIVE is off); recent search covers only the last 7 days`,
      );
    }
    return (q, filters, p) => this.#search(q, filters, p, 'Latest', old);
  }

  /** Replies are the posts of the tweet's conversation (v2's `conversation_id:` operator), the tweet aside. */
  async replies(tweetId: string, filters: TweetFilters, page: PageRequest): Promise<PlatformPage<Tweet>> {
    if (!isXId(tweetId)) return { items: [] };
    const search = this.#conversationSearch(tweetId, 'the replies');
    const res = await search(`conversation_id:${tweetId}`, filters, page);
    return { ...res, items: res.items.filter((t) => t.id !== tweetId) };
  }

  quotes(tweetId: string, filters: TweetFilters, page: PageRequest): Promise<PlatformPage<Tweet>> {
    if (!isXId(tweetId)) return Promise.resolve({ items: [] });
    const ep = { path: path`/2/tweets/${tweetId}/quote_tweets`, bounds: SEARCH_PAGE };
    return tweetPage(this.x, ep, page, tweetMatcher(filters, false));
  }

  async thread(tweetId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    if (!isXId(tweetId)) return { items: [] };
    const search = this.#conversationSearch(tweetId, 'the thread');
    return threadOf(this, (q, p) => search(q, {}, p), tweetId, page);
  }

  /**
   * Rebuilt from the conversation's posts (see `xReplyTree`: at most 500 posts), through recent or
   * full-archive search as for {@link replies}.
   */
  async replyTree(
    tweetId: string,
    opts: ReplyTreeOptions,
    page: PageRequest,
  ): Promise<PlatformPage<ReplyNode>> {
    if (!isXId(tweetId)) return { items: [] };
    const search = this.#conversationSearch(tweetId, 'the reply tree');
    return xReplyTree(this, (q, p) => search(q, {}, p), tweetId, opts, page);
  }

  retweeters(tweetId: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>> {
    if (!isXId(tweetId)) return Promise.resolve({ items: [] });
    return userPage(
      this.x,
      { path: path`/2/tweets/${tweetId}/retweeted_by`, bounds: USER_PAGE },
      page,
      userMatcher(filters),
    );
  }

  /**
   * `GET /2/tweets/:id/liking_users`, served by X only to a user token: read as the caller's connected
   * account, as for {@link userLikes}.
   */
  async favoriters(
    tweetId: string,
    filters: UserFilters,
    page: PageRequest,
    asUser?: AsUser,
  ): Promise<PlatformPage<UserProfile>> {
    if (!isXId(tweetId)) return { items: [] };
    const as = await this.#userTokenReader(asUser, 'the users who liked a post', LIKES_SCOPES);
    const ep = { path: path`/2/tweets/${tweetId}/liking_users`, bounds: USER_PAGE };
    return as.reader.run(() => userPage(as.x, ep, page, userMatcher(filters)));
  }

  /**
   * The connected account a read X serves only to a user token is made as, and a client carrying its token:
   * the first usable account whose approval granted `scopes`. No connected account, or only ones approved
   * without one of `scopes`, is refused naming what X needs (nothing is sent).
   */
  async #userTokenReader(
    asUser: AsUser | undefined,
    what: string,
    scopes: readonly string[],
  ): Promise<{ reader: UserReader; x: XApiClient }> {
    const users = this.users;
    // An approval whose scopes are not known (none recorded) is tried: X's answer then tells.
    const missing = (session: string) => {
      const scope = users?.grant(session)?.scope;
      if (!scope) return [...scopes];
      return scope.length ? scopes.filter((s) => !scope.includes(s)) : [];
    };
    const reader = users ? await asUser?.((session) => missing(session).length === 0) : undefined;
    if (!reader) return needsUserToken(what, scopes);
    const token = users?.grant(reader.session);
    if (!token) return needsUserToken(what, scopes);
    const lacks = missing(reader.session);
    if (lacks.length) {
      throw new PlatformRefusal(
        `${what} is read through a connected account's X authorization with ${scopes.join(', ')}; @${reader.username} was approved without ${lacks.join(', ')}: re-authenticate it (POST /api/v1/x/accounts/{id}/reauth) to grant them`,
      );
    }
    return { reader, x: this.x.withToken(token.accessToken) };
  }

  // Lists, communities, articles, trends, jobs

  async listMembers(listId: string, page: PageRequest): Promise<PlatformPage<UserProfile> | undefined> {
    const res = await this.#listPage<XUser>(listId, 'members', page, userParams);
    return res && toUserPage(res);
  }

  async listFollowers(listId: string, page: PageRequest): Promise<PlatformPage<UserProfile> | undefined> {
    const res = await this.#listPage<XUser>(listId, 'followers', page, userParams);
    return res && toUserPage(res);
  }

  async listTweets(listId: string, page: PageRequest): Promise<PlatformPage<Tweet> | undefined> {
    const res = await this.#listPage<XTweet>(listId, 'tweets', page, tweetParams);
    return res && toTweetPage(await withAuthors(this.x, res));
  }

  /** A raw page of a list's members, followers or posts; `undefined` when X knows no such list. */
  async #listPage<T>(
    listId: string,
    what: string,
    page: PageRequest,
    base: XQuery,
  ): Promise<XResponse<T[]> | undefined> {
    if (!isXId(listId)) return undefined;
    const ep = { path: path`/2/lists/${listId}/${what}`, bounds: USER_PAGE };
    const res = await lookup(() => fetchPage<T>(this.x, ep, page, base));
    return res && !isMissing(res) ? res : undefined;
  }

  /** `GET /2/communities/:id`: X names no creator and no moderator count, so those stay absent. */
  async community(id: string): Promise<PlatformCommunity | undefined> {
    if (!isXId(id)) return undefined;
    const res = await lookup(() => this.x.get<XCommunity>(path`/2/communities/${id}`, communityParams));
    return res?.data ? mapCommunity(res.data) : undefined;
  }

  async communityMembers(
    _id: string,
    _role: 'member' | 'moderator',
    _page: PageRequest,
  ): Promise<PlatformPage<UserProfile> | undefined> {
    return unavailable('the community member listing');
  }

  async communityTweets(_id: string, _page: PageRequest): Promise<PlatformPage<Tweet> | undefined> {
    return unavailable('the community timeline');
  }

  async searchCommunityTweets(
    _q: string,
    _communityId: string | undefined,
    _page: PageRequest,
  ): Promise<PlatformPage<Tweet>> {
    // X's GET /2/communities/search finds communities by name; no endpoint or search operator finds their posts.
    throw new PlatformRefusal(
      'the search of a community’s posts is not available through the X API v2: its community search (GET /2/communities/search) finds communities by name, not their posts, and post search has no community operator',
    );
  }

  /**
   * The people of a space: v2 names its creator, hosts and speakers (listeners are not listed), all on one
   * page; `undefined` when X knows no such space.
   */
  async spaceParticipants(
    spaceId: string,
    _page: PageRequest,
  ): Promise<PlatformPage<UserProfile> | undefined> {
    if (!/^[A-Za-z0-9]{1,32}$/.test(spaceId)) return undefined;
    const res = await lookup(() => this.x.get<{ id: string }>(path`/2/spaces/${spaceId}`, spaceParams));
    if (!res?.data) return undefined;
    const seen = new Set<string>();
    const users = (res.includes?.users ?? []).filter((u) => !seen.has(u.id) && seen.add(u.id));
    return { items: users.map(mapUser) };
  }

  /** The article of a post: `GET /2/tweets/:id` with `post.fields=article,article_title`; `undefined` without one. */
  async article(tweetId: string): Promise<PlatformArticle | undefined> {
    if (!isXId(tweetId)) return undefined;
    const res = await lookup(() => this.x.get<XTweet>(path`/2/tweets/${tweetId}`, articleParams));
    return res?.data ? mapArticle(res.data, expand(res.includes)) : undefined;
  }

  async trends(woeid: number): Promise<PlatformTrend[]> {
    const res = await this.x.get<XTrend[]>(path`/2/trends/by/woeid/${Math.trunc(woeid)}`, trendParams);
    return mapTrends(res.data ?? []);
  }

  async job(_id: string): Promise<{ job: Record<string, unknown>; closed: boolean } | undefined> {
    return unavailable('job lookup');
  }

  // Private reads of a connected account: they need that account's user token, which the app token is not.

  async bookmarks(
    userId: string,
    folderId: string | undefined,
    page: PageRequest,
    session?: string,
  ): Promise<PlatformPage<Tweet>> {
    const x = this.#asUser(session, 'bookmarks');
    if (folderId === undefined) {
      return tweetPage(x, { path: path`/2/users/${userId}/bookmarks`, bounds: USER_PAGE }, page);
    }
    // A folder lists the ids of its posts only: they are looked up with the app token.
    const res = await fetchPage<{ id: string }>(
      x,
      { path: path`/2/users/${userId}/bookmarks/folders/${folderId}`, bounds: USER_PAGE },
      page,
      {},
    );
    const items = await this.getTweets((res.data ?? []).map((t) => t.id));
    const next = res.meta?.next_token;
    return { items, ...(next ? { nextCursor: next } : {}) };
  }

  async bookmarkFolders(userId: string, session?: string): Promise<{ id: string; name: string }[]> {
    const x = this.#asUser(session, 'bookmark folders');
    const out: { id: string; name: string }[] = [];
    let cursor: string | undefined;
    // At most 10 pages of 100: X caps the folders of an account far below that.
    for (let i = 0; i < 10; i++) {
      const res = await x.get<{ id: string; name: string }[]>(path`/2/users/${userId}/bookmarks/folders`, {
        max_results: 100,
        pagination_token: cursor,
      });
      out.push(...(res.data ?? []).map((f) => ({ id: f.id, name: f.name })));
      cursor = res.meta?.next_token;
      if (!cursor) break;
    }
    return out;
  }

  async homeTimeline(userId: string, page: PageRequest, session?: string): Promise<PlatformPage<Tweet>> {
    const x = this.#asUser(session, 'the home timeline');
    const ep = { path: path`/2/users/${userId}/timelines/reverse_chronological`, bounds: USER_PAGE };
    return tweetPage(x, ep, page);
  }

  async notifications(_userId: string, _page: PageRequest): Promise<PlatformPage<PlatformNotification>> {
    return unavailable('notifications (X API v2 has no notifications endpoint)');
  }

  async dmHistory(
    userId: string,
    otherUserId: string,
    page: PageRequest,
    session?: string,
  ): Promise<PlatformPage<PlatformDm>> {
    const x = this.#asUser(session, 'direct messages');
    const res = await x.get<XDmEvent[]>(path`/2/dm_conversations/with/${otherUserId}/dm_events`, {
      event_types: 'MessageCreate',
      // X 2.167 names the sender through the `sender_id` expansion (it is no longer a field).
      'dm_event.fields': 'id,text,created_at,dm_conversation_id,event_type',
      expansions: 'sender_id',
      max_results: maxResults(page.pageSize, USER_PAGE),
      pagination_token: page.cursor,
    });
    const items = (res.data ?? [])
      .filter((e) => e.event_type === undefined || e.event_type === 'MessageCreate')
      .map((e) => ({
        id: e.id,
        senderId: e.sender_id ?? '',
        recipientId: e.sender_id === userId ? otherUserId : userId,
        text: e.text ?? '',
        createdAt: e.created_at ?? '',
      }));
    const next = res.meta?.next_token;
    return { items, ...(next ? { nextCursor: next } : {}) };
  }

  /** A client reading as the connected account (its OAuth 2.0 access token as the bearer). */
  #asUser(session: string | undefined, what: string): XApiClient {
    const token = session ? this.users?.accessToken(session) : undefined;
    if (!token) {
      throw new PlatformUnavailableError(
        'x_api_unauthorized',
        `${what} are read with the connected account’s own X authorization, which this connection does not have`,
      );
    }
    return this.x.withToken(token);
  }

  // Batched reads of the monitors' check engine: recent search packed with `from:` clauses, within the
  // app's request budget.

  async newestTweetId(authorId: string): Promise<string | undefined> {
    // Taken at a monitor's creation or resume: with the stream, its rule is added before the watermark.
    if (this.opts.stream && isXId(authorId)) await this.opts.stream.admitAuthor(authorId);
    return monitorReads.newestTweetId(this.x, authorId);
  }

  tweetsByAuthorsSince(authorIds: readonly string[], sinceId: string, limit: number): Promise<AuthorTweets> {
    if (this.opts.stream) return this.opts.stream.tweetsByAuthorsSince(authorIds, sinceId, limit);
    return monitorReads.tweetsByAuthorsSince(this.x, authorIds, sinceId, limit, {
      queryMax: this.#queryMax,
      now: this.opts.now(),
    });
  }

  get #queryMax(): number {
    return this.opts.searchQueryMax ?? monitorReads.DEFAULT_SEARCH_QUERY_MAX;
  }

  /**
   * The requests one check of every monitor makes, against the app's budget: recent search for the
   * accounts' packed `from:` queries and one per keyword query (none with the filtered stream); the users
   * lookup for the profile stamps (100 accounts a request, per instance) and for the authors of referenced
   * posts (at most one per search request).
   */
  async monitorPace(load: MonitorLoad, nominalMs: number): Promise<MonitorPace> {
    await this.budget.sync();
    const instances = Math.max(1, load.instances);
    // The filtered stream delivers the accounts' and the queries' posts without a request per check.
    const searches = this.opts.stream
      ? 0
      : monitorReads.searchRequestsFor(load.accounts, instances, this.#queryMax) + load.queries;
    const lookups =
      load.accounts > 0
        ? Math.ceil(load.accounts / monitorReads.USERS_PER_LOOKUP) + Math.min(instances, load.accounts) - 1
        : 0;
    const pace = this.budget.pace(
      { [SEARCH_ENDPOINT]: searches, [USERS_ENDPOINT]: lookups + searches },
      nominalMs,
    );
    return this.opts.stream ? { ...pace, postsEveryCheck: true } : pace;
  }

  profileStamps(ids: readonly string[], ifChanged?: string): Promise<ProfileStamps> {
    return monitorReads.profileStamps(this.x, ids, ifChanged);
  }

  // Connected accounts: X's OAuth 2.0 authorization code flow with PKCE (see `XUserAccess`).

  async login(credentials: LoginCredentials): Promise<LoginOutcome> {
    if (!this.users) return { kind: 'unavailable', message: LOGIN_UNAVAILABLE };
    return this.users.login(credentials);
  }

  /** Completes an X authorization: `flow` from the `authorize` outcome, `code` from X's callback. */
  async submitLoginCode(flow: string, code: string): Promise<LoginOutcome> {
    if (!this.users) return { kind: 'unavailable', message: LOGIN_UNAVAILABLE };
    return this.users.completeLogin(flow, code);
  }

  async logout(session: string): Promise<void> {
    await this.users?.logout(session);
  }

  async renewSession(session: string, now: number): Promise<SessionRenewal> {
    if (!this.users) return { kind: 'refused', message: LOGIN_UNAVAILABLE };
    return this.users.renewSession(session, now);
  }

  async write(_token: string, actor: WriteActor, command: WriteCommand): Promise<WriteOutcome> {
    if (!this.users)
      return unavailable(`the ${command.action} write (it needs X_CLIENT_ID and a connected account)`);
    return this.users.write(actor, command);
  }

  /** X keeps no idempotency key: a write whose answer was lost can never be confirmed (see `perform.ts`). */
  async writeReceipt(_token: string): Promise<WriteOutcome | undefined> {
    return undefined;
  }
}

const LOGIN_UNAVAILABLE =
  'connected accounts on the xapi platform log in through X’s OAuth 2.0, which needs the app’s OAuth 2.0 client (set X_CLIENT_ID, and X_CLIENT_SECRET for a confidential client)';

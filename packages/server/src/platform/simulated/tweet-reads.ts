import { type SqlBool, sql } from 'kysely';
import type {
  PageRequest,
  PlatformPage,
  Tweet,
  TweetFilters,
  TweetLookup,
  TweetSearch,
  UserFilters,
  UserProfile,
} from '../../core/platform/platform.js';
import { hydrateTweets } from './hydrate.js';
import {
  loadTweets,
  loadTweetWithAuthor,
  loadUsers,
  type TweetWithAuthor,
  tweetVisibility,
} from './lookup.js';
import type { ReadContext } from './read-context.js';
import { parseTweetRef } from './refs.js';
import { compileSearch, like } from './search-compile.js';
import { filterClauses, mentionsRetweets, parseSearchQuery } from './search-query.js';
import type { TweetRow } from './stored.js';
import { listUsers, type UserQuery } from './user-listing.js';

const ref = sql.ref;

/** The answer of `getTweet` for a cached tweet-and-author pair (see `loadTweetWithAuthor`), deep-frozen. */
const answered = new WeakMap<TweetWithAuthor, TweetLookup>();

/** True when a tweet quotes or reposts another (its answer nests that tweet). */
function nestsTweets(row: TweetRow): boolean {
  return row.quoted_tweet_id !== null || row.retweet_of_id !== null;
}

/** `value` and everything in it, frozen: a shared answer no caller can change. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** Tweet lookups, searches, timelines, replies, quotes, threads, reposters and likers. */
export class TweetReads {
  constructor(private readonly ctx: ReadContext) {}

  async getTweet(id: string): Promise<TweetLookup> {
    const tweetId = parseTweetRef(id);
    if (!tweetId) return { missing: 'not_found' };
    const pair = await loadTweetWithAuthor(this.ctx.db, tweetId);
    const known = answered.get(pair);
    if (known) return known;
    const found = await this.showTweet(pair);
    // A cached pair (frozen, see `loadTweetWithAuthor`) keeps its answer while it is the one read: every write
    // to the tables the answer comes from replaces the pair. Not when the answer depends on the time (a poll's
    // status) or on tweets nested in it (they may hold polls): those are built on every read.
    if (Object.isFrozen(pair) && pair.tweet && pair.tweet.poll === null && !nestsTweets(pair.tweet))
      answered.set(pair, deepFreeze(found));
    return found;
  }

  private async showTweet({ tweet: row, author }: TweetWithAuthor): Promise<TweetLookup> {
    if (!row) return { missing: 'not_found' };
    const missing = tweetVisibility(row, author);
    if (missing || !author) return { missing: missing ?? 'not_found' };
    const [tweet] = await hydrateTweets(
      this.ctx.db,
      [row],
      this.ctx.clock.now(),
      new Map([[author.id, author]]),
    );
    return tweet ? { tweet } : { missing: 'deleted' };
  }

  async getTweets(ids: readonly string[]): Promise<Tweet[]> {
    const wanted = [...new Set(ids.flatMap((id) => parseTweetRef(id) ?? []))];
    const rows = await loadTweets(this.ctx.db, wanted);
    const authors = await loadUsers(
      this.ctx.db,
      [...rows.values()].map((r) => r.author_id),
    );
    const visible = wanted.flatMap((id) => {
      const row = rows.get(id);
      return row && !tweetVisibility(row, authors.get(row.author_id)) ? [row] : [];
    });
    return hydrateTweets(this.ctx.db, visible, this.ctx.clock.now());
  }

  async searchTweets(search: TweetSearch, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const query = [...parseSearchQuery(search.q), ...filterClauses(search)];
    if (!mentionsRetweets(query) && search.retweets !== 'include' && search.retweets !== 'only') {
      query.push([{ atom: { kind: 'filter', value: 'retweets' }, negated: true }]);
    }
    return this.ctx.tweets({
      scope: `tweets:search:${search.queryType === 'Top' ? 'top' : 'latest'}`,
      page,
      where: [],
      visibility: 'public',
      order: search.queryType === 'Top' ? 'top' : 'latest',
      search: compileSearch(query, await this.ctx.resolveUsernames(query)),
    });
  }

  async userTweets(
    userId: string,
    opts: TweetFilters & { includeReplies?: boolean },
    page: PageRequest,
  ): Promise<PlatformPage<Tweet>> {
    const id = await this.ctx.userId(userId);
    const where = [sql<SqlBool>`${ref('t.author_id')} = ${id}`];
    if (!opts.includeReplies) where.push(sql<SqlBool>`${ref('t.kind')} <> 'reply'`);
    return this.ctx.filteredTweets('tweets:user', page, where, 'own', opts);
  }

  async userReplies(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const id = await this.ctx.userId(userId);
    return this.ctx.tweets({
      scope: 'tweets:user_replies',
      page,
      where: [sql<SqlBool>`${ref('t.author_id')} = ${id}`, sql<SqlBool>`${ref('t.kind')} = 'reply'`],
      visibility: 'own',
      order: 'latest',
    });
  }

  async userMedia(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const id = await this.ctx.userId(userId);
    return this.ctx.tweets({
      scope: 'tweets:user_media',
      page,
      where: [
        sql<SqlBool>`${ref('t.author_id')} = ${id}`,
        sql<SqlBool>`${ref('t.media')} is not null`,
        sql<SqlBool>`${ref('t.kind')} <> 'retweet'`,
      ],
      visibility: 'own',
      order: 'latest',
    });
  }

  async userMentions(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const id = await this.ctx.userId(userId);
    return this.ctx.tweets({
      scope: 'tweets:mentions',
      page,
      where: [
        like(ref('t.entities'), `"id":"${id}"`),
        sql<SqlBool>`${ref('t.author_id')} <> ${id}`,
        sql<SqlBool>`${ref('t.kind')} <> 'retweet'`,
      ],
      visibility: 'public',
      order: 'latest',
    });
  }

  async userLikes(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const id = await this.ctx.userId(userId);
    return this.ctx.joinedTweets(
      'tweets:likes',
      page,
      'sim_likes',
      sql<SqlBool>`j.user_id = ${id}`,
      'public',
    );
  }

  replies(tweetId: string, filters: TweetFilters, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const id = parseTweetRef(tweetId) ?? '';
    return this.ctx.filteredTweets(
      'tweets:replies',
      page,
      [sql<SqlBool>`${ref('t.in_reply_to_id')} = ${id}`],
      'public',
      filters,
    );
  }

  quotes(tweetId: string, filters: TweetFilters, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const id = parseTweetRef(tweetId) ?? '';
    return this.ctx.filteredTweets(
      'tweets:quotes',
      page,
      [sql<SqlBool>`${ref('t.quoted_tweet_id')} = ${id}`],
      'public',
      filters,
    );
  }

  /** The conversation of a tweet, oldest first (its first tweet, then the replies in time order). */
  async thread(tweetId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const id = parseTweetRef(tweetId) ?? '';
    const row = (await loadTweets(this.ctx.db, [id])).get(id);
    const conversation = row?.conversation_id ?? '';
    return this.ctx.tweets({
      scope: 'tweets:thread',
      page,
      where: [
        sql<SqlBool>`${ref('t.conversation_id')} = ${conversation}`,
        sql<SqlBool>`${ref('t.kind')} <> 'retweet'`,
      ],
      visibility: 'public',
      order: 'oldest',
    });
  }

  retweeters(tweetId: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>> {
    const id = parseTweetRef(tweetId) ?? '';
    return listUsers(this.ctx.db, {
      scope: 'users:retweeters',
      page,
      filters,
      sortValue: 'r.created_at',
      sortId: 'r.id',
      query: (db) =>
        db
          .selectFrom('sim_tweets as r')
          .innerJoin('sim_users as u', 'u.id', 'r.author_id')
          .selectAll('u')
          .select(['r.created_at as sort_value', 'r.id as sort_id'])
          .where('r.retweet_of_id', '=', id)
          .where('r.deleted', '=', 0) as unknown as UserQuery,
    });
  }

  favoriters(tweetId: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>> {
    const id = parseTweetRef(tweetId) ?? '';
    return listUsers(this.ctx.db, {
      scope: 'users:favoriters',
      page,
      filters,
      sortValue: 'l.created_at',
      sortId: 'l.user_id',
      query: (db) =>
        db
          .selectFrom('sim_likes as l')
          .innerJoin('sim_users as u', 'u.id', 'l.user_id')
          .selectAll('u')
          .select(['l.created_at as sort_value', 'l.user_id as sort_id'])
          .where('l.tweet_id', '=', id) as unknown as UserQuery,
    });
  }
}

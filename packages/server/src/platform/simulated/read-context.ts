import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { PageRequest, PlatformPage, Tweet, TweetFilters } from '../../core/platform/platform.js';
import { hydrateTweets } from './hydrate.js';
import { findUserRow } from './lookup.js';
import { afterKey, keysetPage, type RowPage } from './paging.js';
import { compileSearch, type SearchRow } from './search-compile.js';
import { filterClauses, type SearchQuery } from './search-query.js';
import { listTweetRows, type TweetListing } from './tweet-listing.js';

/** What the reads of the simulated platform share: the database, the clock and the tweet-page helpers. */
export class ReadContext {
  constructor(
    readonly db: Kysely<Database>,
    readonly clock: Clock,
  ) {}

  /** The id of a user reference; ids pass through unchecked, names are resolved (unknown: an id matching nothing). */
  async userId(userRef: string): Promise<string> {
    if (/^\d{1,25}$/.test(userRef)) return userRef;
    return (await findUserRow(this.db, userRef))?.id ?? '0';
  }

  /** The ids of the usernames a search names (from:, to:, @). */
  async resolveUsernames(query: SearchQuery): Promise<Map<string, string>> {
    const names = new Set<string>();
    for (const clause of query) {
      for (const { atom } of clause) {
        if (atom.kind === 'from' || atom.kind === 'to' || atom.kind === 'mention') names.add(atom.value);
      }
    }
    const out = new Map<string, string>();
    if (!names.size) return out;
    const rows = await this.db
      .selectFrom('sim_users')
      .select(['id', 'username_lower'])
      .where('username_lower', 'in', [...names])
      .execute();
    for (const r of rows) out.set(r.username_lower, r.id);
    return out;
  }

  async tweets(listing: TweetListing): Promise<PlatformPage<Tweet>> {
    return this.hydratePage(await listTweetRows(this.db, listing));
  }

  async filteredTweets(
    scope: string,
    page: PageRequest,
    where: RawBuilder<SqlBool>[],
    visibility: TweetListing['visibility'],
    filters: TweetFilters,
  ): Promise<PlatformPage<Tweet>> {
    const query = filterClauses(filters);
    return this.tweets({
      scope,
      page,
      where,
      visibility,
      order: 'latest',
      ...(query.length && { search: compileSearch(query, await this.resolveUsernames(query)) }),
    });
  }

  /** Tweets listed through a relation table (`j`: likes, bookmarks), in the relation's time order. */
  async joinedTweets(
    scope: string,
    page: PageRequest,
    table: 'sim_likes' | 'sim_bookmarks',
    where: RawBuilder<SqlBool>,
    visibility: 'public' | 'followed',
  ): Promise<PlatformPage<Tweet>> {
    const rows = await keysetPage<SearchRow & { sort_value: bigint | number }>({
      scope,
      page,
      key: (r) => [num(r.sort_value), r.id],
      fetch: (after, limit) =>
        sql<SearchRow & { sort_value: bigint | number }>`
          select t.*, a.verified as author_verified, j.created_at as sort_value
          from ${sql.table(table)} j
          join sim_tweets t on t.id = j.tweet_id
          join sim_users a on a.id = t.author_id
          where ${where} and t.deleted = 0 and a.suspended = 0
            ${visibility === 'public' ? sql`and a.protected = 0` : sql``}
            ${after ? sql`and ${afterKey('j.created_at', 'j.tweet_id', after, 'desc')}` : sql``}
          order by j.created_at desc, j.tweet_id desc
          limit ${limit}
        `
          .execute(this.db)
          .then((r) => r.rows),
    });
    return this.hydratePage(rows);
  }

  async hydratePage(page: RowPage<SearchRow>): Promise<PlatformPage<Tweet>> {
    const items = await hydrateTweets(this.db, page.rows, this.clock.now());
    return { items, ...(page.nextCursor && { nextCursor: page.nextCursor }) };
  }
}

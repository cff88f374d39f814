import { sql } from 'kysely';
import { inList } from '../../core/db/lists.js';
import type { AuthorTweets, ProfileStamps } from '../../core/platform/platform.js';
import { hydrateTweets } from './hydrate.js';
import { snowflakeTime } from './ids.js';
import type { ReadContext } from './read-context.js';
import type { TweetRow } from './stored.js';

/** The set of a list of ids, kept while the caller holds on to the list (the engine passes the same one each second). */
const watchedSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * From this many ids on, a stamps read first sums up the whole network's profile versions (one scan,
 * no per-id lookups): unchanged, no watched profile can have changed either.
 */
const WHOLE_NETWORK_MIN = 1_000;

/** Above this many authors, new tweets are read by time and filtered here rather than probed per author. */
const PROBE_MAX = 256;

/**
 * The batched reads of the monitors' check engine over the simulated network: new tweets of many authors
 * at once (by the `sim_tweets (author_id, created_at)` and `(created_at)` indexes), newest tweet ids, and
 * profile change stamps (`sim_users.profile_version`, bumped by every profile change of the control layer).
 */
export class MonitorReads {
  /** Users on the network at the last whole-network read (to tell whether that read is worth it). */
  private networkSize: number | undefined;

  constructor(private readonly ctx: ReadContext) {}

  async newestTweetId(authorId: string): Promise<string | undefined> {
    const row = await this.ctx.db
      .selectFrom('sim_tweets')
      .select('id')
      .where('author_id', '=', authorId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  async tweetsByAuthorsSince(
    authorIds: readonly string[],
    sinceId: string,
    limit: number,
  ): Promise<AuthorTweets> {
    if (authorIds.length === 0 || limit <= 0) return { items: [] };
    const since = /^\d{1,25}$/.test(sinceId) ? sinceId : '0';
    const sinceMs = snowflakeTime(since);
    // Many authors: read the network's new tweets by time (a short range of the created_at index) and keep
    // the watched authors' here; few: probe the (author_id, created_at) index once per author.
    const many = authorIds.length > PROBE_MAX;
    // Ids of one millisecond have the same length, so within a millisecond text order is number order.
    const rows = await sql<TweetRow>`
      select t.* from sim_tweets t join sim_users a on a.id = t.author_id
      where (t.created_at > ${sinceMs} or (t.created_at = ${sinceMs} and t.id > ${since}))
        ${many ? sql`` : sql`and ${inList(this.ctx.db, 't.author_id', authorIds)}`}
        and t.deleted = 0 and a.suspended = 0 and a.protected = 0
      order by t.created_at, t.id
      limit ${Math.trunc(limit)}
    `.execute(this.ctx.db);
    let watched: ReadonlySet<string> | undefined;
    if (many) {
      watched = watchedSets.get(authorIds);
      if (!watched) {
        watched = new Set(authorIds);
        watchedSets.set(authorIds, watched);
      }
    }
    const kept = watched ? rows.rows.filter((r) => watched.has(r.author_id)) : rows.rows;
    // Reposts of tweets no longer visible are dropped by hydration; paging goes on from the last row read.
    const items = await hydrateTweets(this.ctx.db, kept, this.ctx.clock.now());
    const last = rows.rows.length >= limit ? rows.rows[rows.rows.length - 1] : undefined;
    return { items, ...(last && { nextSinceId: last.id }) };
  }

  async profileStamps(ids: readonly string[], ifChanged?: string): Promise<ProfileStamps> {
    if (ids.length === 0) return { digest: '0:0', stamps: new Map() };
    // Versions only grow and accounts only disappear, so an unchanged count and sum of versions over the
    // same ids means no profile changed: one aggregate row instead of a row per account. Many ids (a good
    // share of the network): the whole network's count and sum are read first, a scan that costs less than
    // looking every id up; when they have not moved since `ifChanged`, neither have the ids'. Read before
    // the ids' own figures, so a change in between shows in those (and in the stamps) at once.
    let network: string | undefined;
    if (ids.length >= WHOLE_NETWORK_MIN && ids.length * 4 >= (this.networkSize ?? 0)) {
      const all = await sql<{ n: bigint | number; total: bigint | number | null }>`
        select count(*) as n, sum(profile_version) as total from sim_users
      `.execute(this.ctx.db);
      this.networkSize = Number(all.rows[0]?.n ?? 0);
      network = `@${all.rows[0]?.n ?? 0}:${all.rows[0]?.total ?? 0}`;
      if (ifChanged?.endsWith(network)) return { digest: ifChanged };
    }
    const agg = await sql<{ n: bigint | number; total: bigint | number | null }>`
      select count(*) as n, sum(profile_version) as total from sim_users where ${inList(this.ctx.db, 'id', ids)}
    `.execute(this.ctx.db);
    const own = `${agg.rows[0]?.n ?? 0}:${agg.rows[0]?.total ?? 0}`;
    const digest = `${own}${network ?? ''}`;
    if (ifChanged !== undefined && ifChanged.split('@')[0] === own) return { digest };
    const rows = await sql<{ id: string; profile_version: bigint | number }>`
      select id, profile_version from sim_users where ${inList(this.ctx.db, 'id', ids)}
    `.execute(this.ctx.db);
    return { digest, stamps: new Map(rows.rows.map((r) => [r.id, String(r.profile_version)])) };
  }
}

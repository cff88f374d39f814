import { type SqlBool, sql } from 'kysely';
import { num } from '../../core/db/database.js';
import type {
  PageRequest,
  PlatformArticle,
  PlatformCommunity,
  PlatformPage,
  PlatformTrend,
  Tweet,
  UserProfile,
} from '../../core/platform/platform.js';
import { loadTweets, loadUsers, tweetVisibility } from './lookup.js';
import { iso, toUserProfile } from './mappers.js';
import type { ReadContext } from './read-context.js';
import { parseJobRef, parseTweetRef } from './refs.js';
import { compileSearch } from './search-compile.js';
import { parseSearchQuery } from './search-query.js';
import { listUsers, type UserQuery } from './user-listing.js';

const ref = sql.ref;

/** Lists, communities, articles, trends and job listings. */
export class CollectionReads {
  constructor(private readonly ctx: ReadContext) {}

  async listMembers(listId: string, page: PageRequest): Promise<PlatformPage<UserProfile> | undefined> {
    return (await this.listExists(listId)) ? this.listPeople(listId, 'member', page) : undefined;
  }

  async listFollowers(listId: string, page: PageRequest): Promise<PlatformPage<UserProfile> | undefined> {
    return (await this.listExists(listId)) ? this.listPeople(listId, 'follower', page) : undefined;
  }

  async listTweets(listId: string, page: PageRequest): Promise<PlatformPage<Tweet> | undefined> {
    if (!(await this.listExists(listId))) return undefined;
    return this.ctx.tweets({
      scope: 'tweets:list',
      page,
      where: [
        sql<SqlBool>`${ref('t.author_id')} in (select user_id from sim_list_members where list_id = ${listId} and role = 'member')`,
      ],
      visibility: 'public',
      order: 'latest',
    });
  }

  async community(id: string): Promise<PlatformCommunity | undefined> {
    const row = await this.ctx.db
      .selectFrom('sim_communities')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const counts = await this.ctx.db
      .selectFrom('sim_community_members')
      .select((eb) => [
        eb.fn.countAll<number>().as('members'),
        eb.fn.sum<number>(sql`case when role in ('moderator', 'admin') then 1 else 0 end`).as('moderators'),
      ])
      .where('community_id', '=', id)
      .executeTakeFirst();
    const creator = (await loadUsers(this.ctx.db, [row.creator_id])).get(row.creator_id);
    if (!creator) return undefined;
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      memberCount: num(counts?.members),
      moderatorCount: num(counts?.moderators),
      createdAt: iso(row.created_at),
      creator: toUserProfile(creator),
    };
  }

  async communityMembers(
    id: string,
    role: 'member' | 'moderator',
    page: PageRequest,
  ): Promise<PlatformPage<UserProfile> | undefined> {
    const exists = await this.ctx.db
      .selectFrom('sim_communities')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!exists) return undefined;
    return listUsers(this.ctx.db, {
      scope: `users:community_${role}s`,
      page,
      sortValue: 'c.joined_at',
      sortId: 'c.user_id',
      query: (db) => {
        let q = db
          .selectFrom('sim_community_members as c')
          .innerJoin('sim_users as u', 'u.id', 'c.user_id')
          .selectAll('u')
          .select(['c.joined_at as sort_value', 'c.user_id as sort_id'])
          .select(
            sql<string>`case c.role when 'admin' then 'Admin' when 'moderator' then 'Moderator' else 'Member' end`.as(
              'community_role',
            ),
          )
          .where('c.community_id', '=', id);
        if (role === 'moderator') q = q.where('c.role', 'in', ['moderator', 'admin']);
        return q as unknown as UserQuery;
      },
    });
  }

  async communityTweets(id: string, page: PageRequest): Promise<PlatformPage<Tweet> | undefined> {
    const exists = await this.ctx.db
      .selectFrom('sim_communities')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!exists) return undefined;
    return this.ctx.tweets({
      scope: 'tweets:community',
      page,
      where: [sql<SqlBool>`${ref('t.community_id')} = ${id}`],
      visibility: 'public',
      order: 'latest',
    });
  }

  async searchCommunityTweets(
    q: string,
    communityId: string | undefined,
    page: PageRequest,
  ): Promise<PlatformPage<Tweet>> {
    const query = parseSearchQuery(q);
    return this.ctx.tweets({
      scope: 'tweets:community_search',
      page,
      where: [
        communityId
          ? sql<SqlBool>`${ref('t.community_id')} = ${communityId}`
          : sql<SqlBool>`${ref('t.community_id')} is not null`,
      ],
      visibility: 'public',
      order: 'latest',
      search: compileSearch(query, await this.ctx.resolveUsernames(query)),
    });
  }

  async spaceParticipants(
    spaceId: string,
    page: PageRequest,
  ): Promise<PlatformPage<UserProfile> | undefined> {
    const exists = await this.ctx.db
      .selectFrom('sim_spaces')
      .select('id')
      .where('id', '=', spaceId)
      .executeTakeFirst();
    if (!exists) return undefined;
    // Participation carries no time: participants are listed by account age, which never changes.
    return listUsers(this.ctx.db, {
      scope: 'users:space_participants',
      page,
      direction: 'asc',
      sortValue: 'u.created_at',
      sortId: 'u.id',
      query: (db) =>
        db
          .selectFrom('sim_space_participants as p')
          .innerJoin('sim_users as u', 'u.id', 'p.user_id')
          .selectAll('u')
          .select(['u.created_at as sort_value', 'u.id as sort_id'])
          .where('p.space_id', '=', spaceId) as unknown as UserQuery,
    });
  }

  async article(tweetId: string): Promise<PlatformArticle | undefined> {
    const id = parseTweetRef(tweetId);
    if (!id) return undefined;
    const row = await this.ctx.db
      .selectFrom('sim_articles')
      .selectAll()
      .where('tweet_id', '=', id)
      .executeTakeFirst();
    const tweet = row && (await loadTweets(this.ctx.db, [id])).get(id);
    const author = tweet && (await loadUsers(this.ctx.db, [tweet.author_id])).get(tweet.author_id);
    if (!row || !tweet || !author || tweetVisibility(tweet, author)) return undefined;
    return {
      tweetId: row.tweet_id,
      title: row.title,
      bodyText: row.body_text,
      previewText: row.preview_text,
      ...(row.cover_image_url && { coverImageUrl: row.cover_image_url }),
      author: toUserProfile(author),
      createdAt: iso(tweet.created_at),
    };
  }

  async trends(woeid: number): Promise<PlatformTrend[]> {
    const rows = await this.ctx.db
      .selectFrom('sim_trends')
      .selectAll()
      .where('woeid', '=', woeid)
      .orderBy('rank')
      .execute();
    return rows.map((r) => ({
      name: r.name,
      ...(r.description && { description: r.description }),
      rank: num(r.rank),
      query: r.query,
    }));
  }

  async job(id: string): Promise<{ job: Record<string, unknown>; closed: boolean } | undefined> {
    const jobId = parseJobRef(id);
    if (!jobId) return undefined;
    const row = await this.ctx.db
      .selectFrom('sim_jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (!row) return undefined;
    return { job: JSON.parse(row.data) as Record<string, unknown>, closed: num(row.closed) === 1 };
  }

  async listExists(listId: string): Promise<boolean> {
    return !!(await this.ctx.db
      .selectFrom('sim_lists')
      .select('id')
      .where('id', '=', listId)
      .executeTakeFirst());
  }

  listPeople(
    listId: string,
    role: 'member' | 'follower',
    page: PageRequest,
  ): Promise<PlatformPage<UserProfile>> {
    // List memberships carry no time: members are listed by account age, which never changes.
    return listUsers(this.ctx.db, {
      scope: `users:list_${role}s`,
      page,
      direction: 'asc',
      sortValue: 'u.created_at',
      sortId: 'u.id',
      query: (db) =>
        db
          .selectFrom('sim_list_members as m')
          .innerJoin('sim_users as u', 'u.id', 'm.user_id')
          .selectAll('u')
          .select(['u.created_at as sort_value', 'u.id as sort_id'])
          .where('m.list_id', '=', listId)
          .where('m.role', '=', role) as unknown as UserQuery,
    });
  }
}

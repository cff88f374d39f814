import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { num } from '../../core/db/database.js';
import type {
  PageRequest,
  PlatformList,
  PlatformPage,
  UserFilters,
  UserProfile,
} from '../../core/platform/platform.js';
import { findUserRow, loadUsers } from './lookup.js';
import { iso, toUserProfile } from './mappers.js';
import { afterKey, keysetPage } from './paging.js';
import type { ReadContext } from './read-context.js';
import { like } from './search-compile.js';
import { listUsers, type UserQuery } from './user-listing.js';

const ref = sql.ref;

/** User lookups and user listings: search, followers, following, follow checks, list memberships. */
export class UserReads {
  constructor(private readonly ctx: ReadContext) {}

  async getUser(userRef: string): Promise<UserProfile | undefined> {
    const row = await findUserRow(this.ctx.db, userRef);
    return row && toUserProfile(row);
  }

  async getUsers(ids: readonly string[]): Promise<UserProfile[]> {
    const rows = await loadUsers(this.ctx.db, ids);
    return [...new Set(ids)].flatMap((id) => {
      const row = rows.get(id);
      return row ? [toUserProfile(row)] : [];
    });
  }

  searchUsers(q: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>> {
    const needle = q.trim().replace(/^@/, '').toLowerCase();
    return listUsers(this.ctx.db, {
      scope: 'users:search',
      page,
      filters,
      sortValue: 'u.followers_count',
      sortId: 'u.id',
      query: (db) => {
        let query = db
          .selectFrom('sim_users as u')
          .selectAll('u')
          .select(['u.followers_count as sort_value', 'u.id as sort_id']);
        if (needle) {
          query = query.where(
            sql<SqlBool>`(${like(ref('u.username_lower'), needle)} or ${like(sql`lower(${ref('u.name')})`, needle)}
              or ${like(sql`lower(${ref('u.description')})`, needle)})`,
          );
        }
        return query as unknown as UserQuery;
      },
    });
  }

  async followers(
    userId: string,
    filters: UserFilters,
    page: PageRequest,
  ): Promise<PlatformPage<UserProfile>> {
    return this.follows('followers', await this.ctx.userId(userId), filters, page);
  }

  async following(
    userId: string,
    filters: UserFilters,
    page: PageRequest,
  ): Promise<PlatformPage<UserProfile>> {
    return this.follows('following', await this.ctx.userId(userId), filters, page);
  }

  async verifiedFollowers(userId: string, page: PageRequest): Promise<PlatformPage<UserProfile>> {
    return this.follows('verified_followers', await this.ctx.userId(userId), { verifiedOnly: true }, page);
  }

  async followersYouKnow(
    viewerId: string,
    userId: string,
    page: PageRequest,
  ): Promise<PlatformPage<UserProfile>> {
    const viewer = await this.ctx.userId(viewerId);
    const extra = sql<SqlBool>`exists (select 1 from sim_follows k where k.follower_id = ${viewer} and k.followee_id = ${ref('f.follower_id')})`;
    return this.follows('followers_you_know', await this.ctx.userId(userId), {}, page, extra);
  }

  async checkFollow(
    sourceId: string,
    targetId: string,
  ): Promise<{ isFollowing: boolean; isFollowedBy: boolean }> {
    const [source, target] = [await this.ctx.userId(sourceId), await this.ctx.userId(targetId)];
    const rows = await this.ctx.db
      .selectFrom('sim_follows')
      .select(['follower_id', 'followee_id'])
      .where((eb) =>
        eb.or([
          eb.and([eb('follower_id', '=', source), eb('followee_id', '=', target)]),
          eb.and([eb('follower_id', '=', target), eb('followee_id', '=', source)]),
        ]),
      )
      .execute();
    return {
      isFollowing: rows.some((r) => r.follower_id === source && r.followee_id === target),
      isFollowedBy: rows.some((r) => r.follower_id === target && r.followee_id === source),
    };
  }

  async listMemberships(userId: string, page: PageRequest): Promise<PlatformPage<PlatformList>> {
    const id = await this.ctx.userId(userId);
    const rows = await keysetPage({
      scope: 'lists:memberships',
      page,
      key: (r: { id: string; created_at: bigint | number }) => [num(r.created_at), r.id],
      fetch: (after, limit) => {
        let q = this.ctx.db
          .selectFrom('sim_lists as l')
          .innerJoin('sim_list_members as m', 'm.list_id', 'l.id')
          .selectAll('l')
          .where('m.user_id', '=', id)
          .where('m.role', '=', 'member');
        if (after) q = q.where(afterKey('l.created_at', 'l.id', after, 'desc'));
        return q.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc').limit(limit).execute();
      },
    });
    return { items: await this.toLists(rows.rows), ...(rows.nextCursor && { nextCursor: rows.nextCursor }) };
  }

  async follows(
    kind: string,
    userId: string,
    filters: UserFilters,
    page: PageRequest,
    extra?: RawBuilder<SqlBool>,
  ): Promise<PlatformPage<UserProfile>> {
    const incoming = kind !== 'following';
    return listUsers(this.ctx.db, {
      scope: `users:${kind}`,
      page,
      filters,
      sortValue: 'f.created_at',
      sortId: incoming ? 'f.follower_id' : 'f.followee_id',
      query: (db) => {
        let q = db
          .selectFrom('sim_follows as f')
          .innerJoin('sim_users as u', 'u.id', incoming ? 'f.follower_id' : 'f.followee_id')
          .selectAll('u')
          .select([
            'f.created_at as sort_value',
            incoming ? 'f.follower_id as sort_id' : 'f.followee_id as sort_id',
          ])
          .where(incoming ? 'f.followee_id' : 'f.follower_id', '=', userId);
        if (extra) q = q.where(extra);
        return q as unknown as UserQuery;
      },
    });
  }

  async toLists(
    rows: readonly {
      id: string;
      owner_id: string;
      name: string;
      description: string;
      banner_url: string | null;
      created_at: bigint | number;
    }[],
  ): Promise<PlatformList[]> {
    if (!rows.length) return [];
    const ids = rows.map((r) => r.id);
    const counts = await this.ctx.db
      .selectFrom('sim_list_members')
      .select(['list_id', 'role', (eb) => eb.fn.countAll<number>().as('n')])
      .where('list_id', 'in', ids)
      .groupBy(['list_id', 'role'])
      .execute();
    const count = (id: string, role: string) =>
      num(counts.find((c) => c.list_id === id && c.role === role)?.n);
    const owners = await loadUsers(
      this.ctx.db,
      rows.map((r) => r.owner_id),
    );
    return rows.flatMap((r) => {
      const owner = owners.get(r.owner_id);
      if (!owner) return [];
      return [
        {
          id: r.id,
          name: r.name,
          description: r.description,
          memberCount: count(r.id, 'member'),
          subscriberCount: count(r.id, 'follower'),
          createdAt: iso(r.created_at),
          owner: toUserProfile(owner),
          ...(r.banner_url && { bannerUrl: r.banner_url }),
        },
      ];
    });
  }
}

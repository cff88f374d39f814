import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { PageRequest, PlatformPage, UserFilters, UserProfile } from '../../core/platform/platform.js';
import { toUserProfile } from './mappers.js';
import { afterKey, keysetPage } from './paging.js';
import { like } from './search-compile.js';
import type { UserRow } from './stored.js';

/** A user row with the value its listing sorts by (a follow time, a join time, a follower count). */
export type SortedUserRow = UserRow & {
  sort_value: bigint | number;
  sort_id: string;
  community_role?: string | null;
};

/** One user listing: rows of `sim_users as u` joined as the listing needs, sorted by (value, id) descending. */
export interface UserListing {
  scope: string;
  page: PageRequest;
  /** The base query: selects `u.*`, `sort_value` and `sort_id`, with the listing's joins and conditions. */
  query: (db: Kysely<Database>) => UserQuery;
  /** The sort value and tie-break id as SQL, for the keyset condition. */
  sortValue: string | RawBuilder<unknown>;
  sortId: string;
  filters?: UserFilters;
  direction?: 'asc' | 'desc';
}

// The builder type of a user listing query, whatever its joins: only `where`, `orderBy`, `limit` and
// `execute` are used on it.
export interface UserQuery {
  where(condition: RawBuilder<SqlBool>): UserQuery;
  orderBy(expr: RawBuilder<unknown>, direction: 'asc' | 'desc'): UserQuery;
  limit(n: number): UserQuery;
  execute(): Promise<SortedUserRow[]>;
}

/** Reads a page of users; suspended accounts are left out of every listing, as on the platform. */
export async function listUsers(
  db: Kysely<Database>,
  listing: UserListing,
): Promise<PlatformPage<UserProfile>> {
  const direction = listing.direction ?? 'desc';
  const conditions = [
    sql<SqlBool>`${sql.ref('u.suspended')} = 0`,
    ...userFilterConditions(listing.filters ?? {}),
  ];
  const value = typeof listing.sortValue === 'string' ? sql.ref(listing.sortValue) : listing.sortValue;
  const page = await keysetPage<SortedUserRow>({
    scope: listing.scope,
    page: listing.page,
    key: (row) => [num(row.sort_value), row.sort_id],
    fetch: (after, limit) => {
      let q = listing.query(db);
      for (const c of conditions) q = q.where(c);
      if (after) q = q.where(afterKey(value, listing.sortId, after, direction));
      return q.orderBy(value, direction).orderBy(sql.ref(listing.sortId), direction).limit(limit).execute();
    },
  });
  return {
    items: page.rows.map((r) => {
      const profile = toUserProfile(r);
      return r.community_role ? { ...profile, communityRole: r.community_role } : profile;
    }),
    ...(page.nextCursor && { nextCursor: page.nextCursor }),
  };
}

/** The reference's user filters as SQL on `u`. */
export function userFilterConditions(f: UserFilters): RawBuilder<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  if (f.minFollowers !== undefined)
    out.push(sql<SqlBool>`${sql.ref('u.followers_count')} >= ${f.minFollowers}`);
  if (f.maxFollowers !== undefined)
    out.push(sql<SqlBool>`${sql.ref('u.followers_count')} <= ${f.maxFollowers}`);
  if (f.verifiedOnly) out.push(sql<SqlBool>`${sql.ref('u.verified')} = 1`);
  if (f.bioContains?.trim())
    out.push(like(sql`lower(${sql.ref('u.description')})`, f.bioContains.trim().toLowerCase()));
  return out;
}

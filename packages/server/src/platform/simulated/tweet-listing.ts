import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { PageRequest } from '../../core/platform/platform.js';
import type { Keyset } from './cursor.js';
import { afterKey, keysetPage, type RowPage } from './paging.js';
import type { CompiledSearch, SearchRow } from './search-compile.js';

/**
 * Whose tweets a listing may show. `public`: not deleted, author neither suspended nor protected (searches,
 * replies, lists); `followed`: protected authors too (a home timeline, likes, bookmarks); `own`: every
 * undeleted tweet of the listed author (the route decides about protected or suspended owners).
 */
export type Visibility = 'public' | 'followed' | 'own';

/** The orders of tweet listings: newest first, oldest first (threads), engagement first (Top search). */
export type TweetOrder = 'latest' | 'oldest' | 'top';

const SCORE = sql<number>`(${sql.ref('t.like_count')} + 2 * ${sql.ref('t.retweet_count')} + ${sql.ref('t.reply_count')} + 2 * ${sql.ref('t.quote_count')})`;

/** The engagement score Top searches sort by, computed from a row as the SQL does. */
export function score(row: SearchRow): number {
  return num(row.like_count) + 2 * num(row.retweet_count) + num(row.reply_count) + 2 * num(row.quote_count);
}

/** One tweet listing: its cursor scope, conditions, visibility, order and optional search. */
export interface TweetListing {
  scope: string;
  page: PageRequest;
  where: RawBuilder<SqlBool>[];
  visibility: Visibility;
  order: TweetOrder;
  search?: CompiledSearch;
}

/**
 * Reads a page of tweet rows from `sim_tweets as t` joined with its author `a`: deleted tweets and reposts
 * of tweets that are no longer visible are always left out.
 */
export function listTweetRows(db: Kysely<Database>, listing: TweetListing): Promise<RowPage<SearchRow>> {
  const conditions = [...listing.where, ...visibilityConditions(listing.visibility)];
  if (listing.search?.where) conditions.push(listing.search.where);
  const direction = listing.order === 'oldest' ? 'asc' : 'desc';
  const value = listing.order === 'top' ? SCORE : 't.created_at';
  const key = (row: SearchRow): Keyset => [
    listing.order === 'top' ? score(row) : num(row.created_at),
    row.id,
  ];
  const exact = listing.search?.exact;
  return keysetPage<SearchRow>({
    scope: listing.scope,
    page: listing.page,
    key,
    ...(exact && { keep: exact }),
    fetch: (after, limit) => {
      let q = db
        .selectFrom('sim_tweets as t')
        .innerJoin('sim_users as a', 'a.id', 't.author_id')
        .selectAll('t')
        .select('a.verified as author_verified');
      for (const c of conditions) q = q.where(c);
      if (after) q = q.where(afterKey(value, 't.id', after, direction));
      return q.orderBy(value, direction).orderBy('t.id', direction).limit(limit).execute();
    },
  });
}

function visibilityConditions(visibility: Visibility): RawBuilder<SqlBool>[] {
  const out = [
    sql<SqlBool>`${sql.ref('t.deleted')} = 0`,
    sql<SqlBool>`(${sql.ref('t.retweet_of_id')} is null or exists (
      select 1 from sim_tweets o join sim_users oa on oa.id = o.author_id
      where o.id = ${sql.ref('t.retweet_of_id')} and o.deleted = 0 and oa.suspended = 0 and oa.protected = 0))`,
  ];
  if (visibility !== 'own') out.push(sql<SqlBool>`${sql.ref('a.suspended')} = 0`);
  if (visibility === 'public') out.push(sql<SqlBool>`${sql.ref('a.protected')} = 0`);
  return out;
}

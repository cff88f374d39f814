import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { num, prepared, syncSqlite, writeStamp } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import { parseUserRef } from './refs.js';
import type { TweetRow, UserRow } from './stored.js';

const CHUNK = 500;

/** Why a tweet is not shown, or `undefined` when it is. */
export function tweetVisibility(
  row: TweetRow,
  author: UserRow | undefined,
): 'deleted' | 'author_suspended' | 'protected' | 'not_found' | undefined {
  if (num(row.deleted)) return 'deleted';
  if (!author) return 'not_found';
  if (num(author.suspended)) return 'author_suspended';
  if (num(author.protected)) return 'protected';
  return undefined;
}

/** The user row a reference names (id, username with or without @, profile URL), or `undefined`. */
export async function findUserRow(db: Kysely<Database>, userRef: string): Promise<UserRow | undefined> {
  const parsed = parseUserRef(userRef);
  if (!parsed) return undefined;
  if (parsed.id !== undefined) {
    const byId = await db.selectFrom('sim_users').selectAll().where('id', '=', parsed.id).executeTakeFirst();
    if (byId || parsed.username === undefined) return byId;
  }
  if (parsed.username === undefined) return undefined;
  return db
    .selectFrom('sim_users')
    .selectAll()
    .where('username_lower', '=', parsed.username)
    .executeTakeFirst();
}

/** Users by id, in chunks. */
export async function loadUsers(db: Kysely<Database>, ids: Iterable<string>): Promise<Map<string, UserRow>> {
  const unique = [...new Set(ids)];
  const sync = syncRows<UserRow>(db, 'sim_users', unique);
  if (sync) return sync;
  const out = new Map<string, UserRow>();
  for (const chunk of chunks(unique)) {
    const rows = await db.selectFrom('sim_users').selectAll().where('id', 'in', chunk).execute();
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/** Tweets by id, in chunks (deleted ones included: callers decide). */
export async function loadTweets(
  db: Kysely<Database>,
  ids: Iterable<string>,
): Promise<Map<string, TweetRow>> {
  const unique = [...new Set(ids)];
  const sync = syncRows<TweetRow>(db, 'sim_tweets', unique);
  if (sync) return sync;
  const out = new Map<string, TweetRow>();
  for (const chunk of chunks(unique)) {
    const rows = await db.selectFrom('sim_tweets').selectAll().where('id', 'in', chunk).execute();
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/** A tweet row and the row of its author (either may be missing). */
export interface TweetWithAuthor {
  tweet: TweetRow | undefined;
  author: UserRow | undefined;
}

const TWEET_WITH_AUTHOR =
  'select t.*, u.* from sim_tweets t left join sim_users u on u.id = t.author_id where t.id = ?';

/** Splits a raw row of the joined statement into the tweet's row and its author's. */
type SplitRow = (values: readonly unknown[]) => { tweet: TweetRow; author: UserRow };

/** The joined statement of one SQLite handle (prepared for this module alone, in raw mode) and its splitter. */
interface Joined {
  stmt: SQLite.Statement;
  split: SplitRow;
  /** How many columns the splitter was built for. */
  width: number;
}

const joined = new WeakMap<SQLite.Database, Joined>();

/**
 * The joined statement and its splitter, built once from the statement's columns (each knows its table):
 * a function with one object literal per row, so building the two rows costs what a hand-written mapping
 * would, whatever columns the tables have. The column names come from the schema, quoted as JSON. Built
 * again when the statement is (a schema change makes SQLite prepare it again, with other columns).
 */
function joinedOf(sqlite: SQLite.Database, rebuild = false): Joined {
  let found = joined.get(sqlite);
  if (!found || rebuild) {
    const stmt = sqlite.prepare(TWEET_WITH_AUTHOR).raw(true);
    const columns = stmt.columns();
    const fields = (table: string) =>
      columns.flatMap((c, i) => (c.table === table ? [`${JSON.stringify(c.name)}: v[${i}]`] : [])).join(', ');
    const split = new Function(
      'v',
      `return { tweet: { ${fields('sim_tweets')} }, author: { ${fields('sim_users')} } };`,
    ) as SplitRow;
    found = { stmt, split, width: columns.length };
    joined.set(sqlite, found);
  }
  return found;
}

/** Most tweets a cache holds; the oldest-read entry goes first. */
const TWEET_CACHE_MAX = 10_000;
/**
 * How long a cached tweet is trusted without reading it again (ms, wall clock). In-process writes invalidate
 * it at once (`writeStamp`); this bounds how long a write by another process on the same SQLite file can go
 * unseen, as for the key cache.
 */
export const TWEET_CACHE_TTL_MS = 1_000;

interface TweetCache {
  /** The write stamp of `sim_tweets`, `sim_users` and `sim_communities` (see `writeStamp`). */
  readonly stamp: () => number;
  readonly entries: Map<string, { found: TweetWithAuthor; stamp: number; readAt: number }>;
}

/** The tweet cache of each SQLite database; null where there is none (Postgres, a transaction's handle). */
const tweetCaches = new WeakMap<Kysely<Database>, TweetCache | null>();

function tweetCacheOf(db: Kysely<Database>): TweetCache | undefined {
  let cache = tweetCaches.get(db);
  if (cache === undefined) {
    const stamp = writeStamp(db, ['sim_tweets', 'sim_users', 'sim_communities']);
    cache = stamp ? { stamp, entries: new Map() } : null;
    tweetCaches.set(db, cache);
  }
  return cache ?? undefined;
}

/**
 * A tweet and its author by tweet id. On SQLite outside a transaction this is one statement (a join, read as
 * arrays and split by each column's table, so the two rows are the same objects `selectAll()` reads);
 * elsewhere the tweet, then its author.
 *
 * On SQLite (one process owns the file) the pairs found are kept in a bounded in-process cache, valid while
 * no statement has written `sim_tweets`, `sim_users` or `sim_communities` since they were read (`writeStamp`:
 * any write, a deletion, a suspension, a count, a schema change, empties it before it runs) and for at most
 * {@link TWEET_CACHE_TTL_MS}. Missing tweets are not cached. A cached pair and its rows are shared and frozen;
 * the same pair object is answered until it is read again, so what is derived from it alone (the tweet as the
 * API shows it, see `TweetReads.getTweet`) may be kept with it.
 */
export async function loadTweetWithAuthor(db: Kysely<Database>, id: string): Promise<TweetWithAuthor> {
  const sqlite = syncSqlite(db);
  if (!sqlite) {
    const tweet = (await loadTweets(db, [id])).get(id);
    const author = tweet && (await loadUsers(db, [tweet.author_id])).get(tweet.author_id);
    return { tweet, author };
  }
  const cache = tweetCacheOf(db);
  const now = Date.now();
  const stamp = cache?.stamp() ?? 0;
  const hit = cache?.entries.get(id);
  if (hit && hit.stamp === stamp && now >= hit.readAt && now - hit.readAt < TWEET_CACHE_TTL_MS)
    return hit.found;
  let found = joinedOf(sqlite);
  let values = found.stmt.get(id) as unknown[] | undefined;
  if (!values) return { tweet: undefined, author: undefined };
  if (values.length !== found.width) {
    found = joinedOf(sqlite, true);
    values = found.stmt.get(id) as unknown[] | undefined;
    if (!values) return { tweet: undefined, author: undefined };
  }
  const { tweet, author } = found.split(values);
  const pair: TweetWithAuthor = { tweet, author: author.id === null ? undefined : author };
  if (cache) {
    // Shared from now on: frozen, so that no caller can change what the next request reads.
    Object.freeze(tweet);
    if (pair.author) Object.freeze(pair.author);
    Object.freeze(pair);
    cache.entries.delete(id);
    if (cache.entries.size >= TWEET_CACHE_MAX)
      cache.entries.delete(cache.entries.keys().next().value as string);
    cache.entries.set(id, { found: pair, stamp, readAt: now });
  }
  return pair;
}

/** Community names by id. */
export async function loadCommunityNames(
  db: Kysely<Database>,
  ids: Iterable<string>,
): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const sync = syncRows<{ id: string; name: string }>(db, 'sim_communities', unique, 'id, name');
  const out = new Map<string, string>();
  if (sync) {
    for (const [id, c] of sync) out.set(id, c.name);
    return out;
  }
  for (const chunk of chunks(unique)) {
    const found = await db
      .selectFrom('sim_communities')
      .select(['id', 'name'])
      .where('id', 'in', chunk)
      .execute();
    for (const c of found) out.set(c.id, c.name);
  }
  return out;
}

/**
 * Rows (`columns`, by default whole) by id with one cached prepared statement, when `db` is SQLite outside a transaction (see
 * `syncSqlite`): `id = ?` for one id, else the ids as one JSON array parameter. The rows are the same objects
 * Kysely's `selectAll()` reads through the same driver. `undefined` means: take the Kysely path.
 */
function syncRows<T extends { id: string }>(
  db: Kysely<Database>,
  table: 'sim_users' | 'sim_tweets' | 'sim_communities',
  ids: readonly string[],
  columns = '*',
): Map<string, T> | undefined {
  const sqlite = syncSqlite(db);
  if (!sqlite) return undefined;
  const out = new Map<string, T>();
  if (ids.length === 0) return out;
  const rows = (
    ids.length === 1
      ? prepared(sqlite, `select ${columns} from ${table} where id = ?`).all(ids[0])
      : prepared(sqlite, `select ${columns} from ${table} where id in (select value from json_each(?))`).all(
          JSON.stringify(ids),
        )
  ) as T[];
  for (const r of rows) out.set(r.id, r);
  return out;
}

/** `items` in slices of at most 500 (bound parameters per statement stay small on both engines). */
export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

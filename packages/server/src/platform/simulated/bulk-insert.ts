import { CompiledQuery, type Kysely } from 'kysely';
import { isPostgres, valuesInsert } from '../../core/db/lists.js';
import type { Database } from '../../core/db/schema.js';
import './tables.js';

type ColumnType = 'text' | 'int8';

type Columns<T> = { readonly [K in keyof T]-?: ColumnType };

// The column types of every sim_* table, checked against the table types: a column added to schema.ts
// without being listed here fails type checking.
const SIM_COLUMNS = {
  sim_users: {
    id: 'text',
    username: 'text',
    username_lower: 'text',
    name: 'text',
    description: 'text',
    location: 'text',
    url: 'text',
    profile_picture: 'text',
    cover_picture: 'text',
    verified: 'int8',
    verified_type: 'text',
    protected: 'int8',
    suspended: 'int8',
    pinned_tweet_id: 'text',
    followers_count: 'int8',
    following_count: 'int8',
    statuses_count: 'int8',
    media_count: 'int8',
    favourites_count: 'int8',
    created_at: 'int8',
    profile_version: 'int8',
  },
  sim_tweets: {
    id: 'text',
    author_id: 'text',
    text: 'text',
    created_at: 'int8',
    lang: 'text',
    source: 'text',
    kind: 'text',
    conversation_id: 'text',
    in_reply_to_id: 'text',
    in_reply_to_user_id: 'text',
    quoted_tweet_id: 'text',
    retweet_of_id: 'text',
    is_note: 'int8',
    media: 'text',
    poll: 'text',
    entities: 'text',
    like_count: 'int8',
    retweet_count: 'int8',
    reply_count: 'int8',
    quote_count: 'int8',
    view_count: 'int8',
    bookmark_count: 'int8',
    community_id: 'text',
    deleted: 'int8',
  },
  sim_follows: { follower_id: 'text', followee_id: 'text', created_at: 'int8' },
  sim_likes: { user_id: 'text', tweet_id: 'text', created_at: 'int8' },
  sim_bookmarks: { user_id: 'text', tweet_id: 'text', folder_id: 'text', created_at: 'int8' },
  sim_lists: {
    id: 'text',
    owner_id: 'text',
    name: 'text',
    description: 'text',
    banner_url: 'text',
    created_at: 'int8',
  },
  sim_list_members: { list_id: 'text', user_id: 'text', role: 'text' },
  sim_communities: { id: 'text', name: 'text', description: 'text', creator_id: 'text', created_at: 'int8' },
  sim_community_members: { community_id: 'text', user_id: 'text', role: 'text', joined_at: 'int8' },
  sim_articles: {
    tweet_id: 'text',
    title: 'text',
    body_text: 'text',
    preview_text: 'text',
    cover_image_url: 'text',
  },
  sim_spaces: { id: 'text', host_id: 'text', title: 'text', state: 'text', created_at: 'int8' },
  sim_space_participants: { space_id: 'text', user_id: 'text', role: 'text' },
  sim_trends: { woeid: 'int8', rank: 'int8', name: 'text', description: 'text', query: 'text' },
  sim_jobs: { id: 'text', data: 'text', closed: 'int8' },
  sim_dms: { id: 'text', sender_id: 'text', recipient_id: 'text', text: 'text', created_at: 'int8' },
  sim_notifications: {
    id: 'text',
    user_id: 'text',
    kind: 'text',
    actor_id: 'text',
    tweet_id: 'text',
    created_at: 'int8',
  },
  sim_meta: { key: 'text', value: 'text' },
} as const satisfies { [T in SimTable]: Columns<Database[T]> };

/** The tables of the simulated network. */
export type SimTable = Extract<keyof Database, `sim_${string}`>;

/** Every sim_* table, children before parents (the order to empty them in). */
export const SIM_TABLES = Object.keys(SIM_COLUMNS) as SimTable[];

/** A row to insert into `T`: every column, integers as numbers. */
export type SimRow<T extends SimTable> = {
  [K in keyof Database[T]]-?: Database[T][K] extends infer V
    ? V extends bigint | number
      ? number
      : V
    : never;
};

/** The same rows column by column: one array per column, all of the same length (compact for big tables). */
export type SimColumns<T extends SimTable> = { [K in keyof SimRow<T>]: SimRow<T>[K][] };

/** Rows to insert, as row objects or as columns. */
export type SimData<T extends SimTable> = readonly SimRow<T>[] | SimColumns<T>;

/** How many columns `table` has. */
export function columnCount(table: SimTable): number {
  return Object.keys(SIM_COLUMNS[table]).length;
}

/** How many rows `data` holds. */
export function rowCount<T extends SimTable>(data: SimData<T>): number {
  if (Array.isArray(data)) return data.length;
  const first = Object.values(data as Record<string, unknown[]>)[0];
  return first ? first.length : 0;
}

/**
 * Rows turned into columns as they come: each row object dies young (cheap to collect) instead of living
 * until the insert, which matters at hundreds of thousands of rows.
 */
export function toColumns<T extends SimTable>(table: T, rows: Iterable<SimRow<T>>): SimColumns<T> {
  const names = Object.keys(SIM_COLUMNS[table]);
  const columns: Record<string, unknown[]> = {};
  for (const name of names) columns[name] = [];
  for (const row of rows) {
    for (const name of names) (columns[name] as unknown[]).push((row as Record<string, unknown>)[name]);
  }
  return columns as SimColumns<T>;
}

/** Columns back into row objects (for tests and small tables). */
export function toRows<T extends SimTable>(data: SimData<T>): SimRow<T>[] {
  if (Array.isArray(data)) return data as SimRow<T>[];
  const columns = data as Record<string, unknown[]>;
  const names = Object.keys(columns);
  return Array.from({ length: rowCount(data) }, (_, i) => {
    const row: Record<string, unknown> = {};
    for (const name of names) row[name] = (columns[name] as unknown[])[i];
    return row as SimRow<T>;
  });
}

// SQLite accepts 32,766 parameters per statement; Postgres takes whole columns as arrays.
const SQLITE_MAX_PARAMS = 32_000;
const PG_ROWS_PER_STATEMENT = 10_000;

/**
 * Inserts many rows fast: multi-row `VALUES` statements on SQLite, one `unnest` of column arrays per
 * statement on Postgres. Call it inside a transaction. `onRows` hears how many rows each statement wrote.
 */
export async function bulkInsert<T extends SimTable>(
  db: Kysely<Database>,
  table: T,
  data: SimData<T>,
  onRows: (count: number) => void = () => {},
): Promise<void> {
  const total = rowCount(data);
  if (total === 0) return;
  const spec = SIM_COLUMNS[table] as Record<string, ColumnType>;
  const columns = Object.keys(spec);
  const columnList = columns.map((c) => `"${c}"`).join(', ');
  // One accessor per column, whichever layout the data has.
  const values: ((i: number) => unknown)[] = Array.isArray(data)
    ? columns.map((c) => (i: number) => (data[i] as Record<string, unknown>)[c] ?? null)
    : columns.map((c) => {
        const column = (data as Record<string, unknown[]>)[c] as unknown[];
        return (i: number) => column[i] ?? null;
      });
  if (isPostgres(db)) {
    const casts = columns.map((c, i) => `$${i + 1}::${spec[c] === 'int8' ? 'int8' : 'text'}[]`).join(', ');
    const text = `insert into "${table}" (${columnList}) select * from unnest(${casts})`;
    for (let start = 0; start < total; start += PG_ROWS_PER_STATEMENT) {
      const end = Math.min(total, start + PG_ROWS_PER_STATEMENT);
      const params = values.map((value) => {
        const column: unknown[] = [];
        for (let i = start; i < end; i++) column.push(value(i));
        return column;
      });
      await db.executeQuery(CompiledQuery.raw(text, params));
      onRows(end - start);
    }
    return;
  }
  const perStatement = Math.max(1, Math.floor(SQLITE_MAX_PARAMS / columns.length));
  let cachedSize = -1;
  let cachedText = '';
  for (let start = 0; start < total; start += perStatement) {
    const end = Math.min(total, start + perStatement);
    if (end - start !== cachedSize) {
      cachedSize = end - start;
      cachedText = valuesInsert(false, table, columns, cachedSize);
    }
    const params: unknown[] = [];
    for (let i = start; i < end; i++) for (const value of values) params.push(value(i));
    await db.executeQuery(CompiledQuery.raw(cachedText, params));
    onRows(end - start);
  }
}

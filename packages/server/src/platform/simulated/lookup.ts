import type { Kysely } from 'kysely';
import { num } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
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
  const out = new Map<string, UserRow>();
  for (const chunk of chunks([...new Set(ids)])) {
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
  const out = new Map<string, TweetRow>();
  for (const chunk of chunks([...new Set(ids)])) {
    const rows = await db.selectFrom('sim_tweets').selectAll().where('id', 'in', chunk).execute();
    for (const r of rows) out.set(r.id, r);
  }
  return out;
}

/** `items` in slices of at most 500 (bound parameters per statement stay small on both engines). */
export function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

import type { schemas } from '@xsvc/sdk/contract';
import type { Kysely, Selectable } from 'kysely';
import { num } from '../../../core/db/database.js';
import type { Database } from '../../../core/db/schema.js';
import type { StylesTable } from '../tables.js';

/** A stored style row. */
export type StyleRow = Selectable<StylesTable>;

/** A sample tweet as stored (and answered): the contract's `StyleTweet`. */
export type StyleTweet = schemas.StyleTweet;

/** The key of a style name: no @, lowercase (spec 2.9 `xUsername`). */
export function styleKey(username: string): string {
  return username.replace(/^@/, '').toLowerCase();
}

/** The styles of an account, most recently fetched first. */
export function listStyleRows(db: Kysely<Database>, accountId: string): Promise<StyleRow[]> {
  return db
    .selectFrom('styles')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('fetched_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * One style of an account by its id or its username (with or without @, any case); undefined when the
 * account has none (another account's styles are never found).
 */
export async function findStyleRow(
  db: Kysely<Database>,
  accountId: string,
  ref: string,
): Promise<StyleRow | undefined> {
  const byId = await db
    .selectFrom('styles')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', ref)
    .executeTakeFirst();
  if (byId) return byId;
  return db
    .selectFrom('styles')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('username_lower', '=', styleKey(ref))
    .executeTakeFirst();
}

/** What a new or replacing style holds. */
export interface StyleWrite {
  id: string;
  accountId: string;
  username: string;
  label: string | null;
  origin: 'analyzed' | 'custom';
  tweets: readonly StyleTweet[];
  now: number;
}

/**
 * Stores a style, replacing the account's style of the same username (one cache per username, spec 4.9).
 * A replaced style keeps its id, so links to it stay valid.
 */
export async function putStyleRow(db: Kysely<Database>, w: StyleWrite): Promise<StyleRow> {
  const values = {
    label: w.label,
    origin: w.origin,
    tweets: JSON.stringify(w.tweets),
    tweet_count: w.tweets.length,
    fetched_at: w.now,
  };
  return db
    .insertInto('styles')
    .values({
      id: w.id,
      account_id: w.accountId,
      username_lower: styleKey(w.username),
      created_at: w.now,
      ...values,
    })
    .onConflict((oc) => oc.columns(['account_id', 'username_lower']).doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes one style of an account; false when there was none. */
export async function deleteStyleRow(db: Kysely<Database>, accountId: string, id: string): Promise<boolean> {
  const r = await db
    .deleteFrom('styles')
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return num(r.numDeletedRows) > 0;
}

/** The sample tweets of a style row. */
export function styleTweets(row: StyleRow): StyleTweet[] {
  return JSON.parse(row.tweets) as StyleTweet[];
}

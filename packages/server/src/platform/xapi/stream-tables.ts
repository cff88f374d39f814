/**
 * The tables owned by `platform/xapi` (the filtered stream's buffer and lease, migration 0023): their row
 * types, and their names. Only code under `platform/xapi` writes them; any code may read them through
 * `Database`. They join `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    x_stream_posts: XStreamPostsTable;
    x_stream_matches: XStreamMatchesTable;
    x_stream_state: XStreamStateTable;
  }
}

/** The tables `platform/xapi` owns. */
export const XAPI_PLATFORM_TABLES = [
  'x_stream_posts',
  'x_stream_matches',
  'x_stream_state',
] as const satisfies readonly (keyof Database)[];

/** A post the filtered stream delivered: the mapped `Tweet` as JSON. */
export interface XStreamPostsTable {
  tweet_id: string;
  /** The id left-padded with zeros to 20 digits: text order is id order. */
  sort_key: string;
  author_id: string;
  tweet: string;
  received_at: Int;
}

/** A post that matched a keyword rule: `rule_key` is the key of the rule's query (`stream-rules.ts`). */
export interface XStreamMatchesTable {
  rule_key: string;
  sort_key: string;
  tweet_id: string;
  received_at: Int;
}

/** The stream's one row (`id` = `stream`): which instance holds the connection, until when, and its health. */
export interface XStreamStateTable {
  id: string;
  owner: string | null;
  lease_until: Int;
  /** When the holder last received anything from X (a post or a heartbeat); null before the first. */
  alive_at: Int | null;
  /** Why the last connection attempt failed, for the status; null while connected. */
  last_error: string | null;
}

/**
 * The tables owned by `features/draws` (draws and their entries): their row types, and their names. Only code
 * under `features/draws` writes them; any code may read them through `Database`. They join `Database` by
 * declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    draws: DrawsTable;
    draw_entries: DrawEntriesTable;
    draw_commitments: DrawCommitmentsTable;
  }
}

/** The tables `features/draws` owns. */
export const DRAWS_TABLES = [
  'draws',
  'draw_entries',
  'draw_commitments',
] as const satisfies readonly (keyof Database)[];

/** A giveaway draw (spec 2.7); `settings` is the JSON of its request. */
export interface DrawsTable {
  id: string;
  account_id: string;
  tweet_id: string;
  tweet_url: string;
  tweet_text: string | null;
  tweet_author_username: string | null;
  tweet_created_at: string | null;
  status: string;
  total_entries: Int;
  valid_entries: Int;
  settings: string;
  credits_charged: Int;
  created_at: Int;
  drawn_at: Int;
  /** Verifiable draws (null on draws made before them): the procedure the winners follow (`xsvc-draw-v1`). */
  procedure: string | null;
  /** The seed, 64 hex digits, shown once the winners are drawn. */
  seed: string | null;
  /** SHA-256 (hex) of the seed's bytes, fixed before any entry was read. */
  seed_hash: string | null;
  seed_committed_at: Int | null;
  /** SHA-256 (hex) of the entry list, and of the request as canonical JSON. */
  entries_hash: string | null;
  filters_hash: string | null;
  /** The giveaway tweet's counts when the draw ran (null on draws made before they were kept). */
  tweet_like_count: Int | null;
  tweet_retweet_count: Int | null;
  tweet_reply_count: Int | null;
  tweet_quote_count: Int | null;
  /** A committed draw (`xsvc-draw-v2`): its commitment, the organiser's entropy and its committed hash. */
  commitment_id: string | null;
  organiser_entropy: string | null;
  organiser_entropy_hash: string | null;
}

/**
 * A server seed fixed before a giveaway (migration 0022): its hash is shown to the organiser at once, the
 * seed only with the draw that uses it (`draw_id`, set once). `entropy_hash` commits to the organiser's
 * entropy too, when they gave it.
 */
export interface DrawCommitmentsTable {
  id: string;
  account_id: string;
  seed: string;
  seed_hash: string;
  entropy_hash: string | null;
  created_at: Int;
  draw_id: string | null;
}

/** A reply a draw inspected: whether it was eligible (or why not) and whether it won. */
export interface DrawEntriesTable {
  draw_id: string;
  /** Order in which the entry was read, from 1. */
  position: Int;
  tweet_id: string;
  author_id: string;
  author_username: string;
  text: string;
  tweet_created_at: string;
  valid: Int;
  reason: string | null;
  winner_position: Int | null;
  is_backup: Int;
}

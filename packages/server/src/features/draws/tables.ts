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
  }
}

/** The tables `features/draws` owns. */
export const DRAWS_TABLES = ['draws', 'draw_entries'] as const satisfies readonly (keyof Database)[];

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

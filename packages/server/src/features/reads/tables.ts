/**
 * The tables owned by `features/reads` (coverage walks, media galleries): their row types, and their names.
 * Only code under `features/reads` writes them; any code may read them through `Database`. They join
 * `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    coverage_walks: CoverageWalksTable;
    coverage_seen: CoverageSeenTable;
    media_galleries: MediaGalleriesTable;
  }
}

/** The tables `features/reads` owns. */
export const READS_TABLES = [
  'coverage_walks',
  'coverage_seen',
  'media_galleries',
] as const satisfies readonly (keyof Database)[];

/** A coverage walk: the server-side checkpoint behind a `mode=coverage` cursor (see migration 0006). */
export interface CoverageWalksTable {
  id: string;
  account_id: string;
  /** The operation id the walk belongs to; a cursor is refused on any other operation. */
  operation: string;
  /** Hash of the request's parameters (cursor and page size aside); a cursor is refused for another query. */
  fingerprint: string;
  /** `coverage` (asked for) or `automatic` (chosen by the service). */
  mode: string;
  /** The step of the latest checkpoint; its cursor and the one before it can be resumed. */
  step: Int;
  /** JSON state of the walk at `step`, and at `step - 1` (to serve a lost answer again). */
  state: string;
  prev_state: string;
  created_at: Int;
  expires_at: Int;
}

/** An id a coverage walk returned, and the step whose answer returned it. */
export interface CoverageSeenTable {
  walk_id: string;
  item_id: string;
  step: Int;
}

/** A media gallery page (`/media/gallery/{id}`): the media of the tweets as last downloaded. */
export interface MediaGalleriesTable {
  id: string;
  /** JSON array of the tweet ids, in request order. */
  tweet_ids: string;
  /** JSON array of `{ tweetId, url, authorUsername?, text, media[] }`. */
  items: string;
  total_media: Int;
  created_at: Int;
  updated_at: Int;
}

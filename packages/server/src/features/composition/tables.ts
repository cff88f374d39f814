/**
 * The tables owned by `features/composition` (styles, drafts, radar): their row types, and their names. Only
 * code under `features/composition` writes them; any code may read them through `Database`. They join
 * `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    styles: StylesTable;
    drafts: DraftsTable;
    radar_items: RadarItemsTable;
  }
}

/** The tables `features/composition` owns. */
export const COMPOSITION_TABLES = [
  'styles',
  'drafts',
  'radar_items',
] as const satisfies readonly (keyof Database)[];

/** A cached writing style (spec 2.9): analyzed from the platform or saved from custom tweets. */
export interface StylesTable {
  id: string;
  account_id: string;
  username_lower: string;
  /** Name shown for a custom style. */
  label: string | null;
  /** `analyzed` (fetched from the platform) or `custom` (saved by the account). */
  origin: string;
  /** JSON array of the sample tweets (API shape). */
  tweets: string;
  tweet_count: Int;
  fetched_at: Int;
  created_at: Int;
}

/** A saved post draft. */
export interface DraftsTable {
  id: string;
  account_id: string;
  text: string;
  topic: string | null;
  goal: string | null;
  created_at: Int;
  updated_at: Int;
}

/** An item of the radar feed (spec 2.15), seeded deterministically. */
export interface RadarItemsTable {
  id: string;
  source: string;
  category: string;
  region: string;
  title: string;
  url: string;
  description: string;
  /** Trend strength times 100. */
  score_centi: Int;
  published_at: Int;
  /** JSON object of the source's metadata fields. */
  metadata: string;
}

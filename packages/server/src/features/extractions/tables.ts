/**
 * The tables owned by `features/extractions` (extraction jobs and results): their row types, and their names.
 * Only code under `features/extractions` writes them; any code may read them through `Database`. They join
 * `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    extraction_jobs: ExtractionJobsTable;
    extraction_results: ExtractionResultsTable;
  }
}

/** The tables `features/extractions` owns. */
export const EXTRACTIONS_TABLES = [
  'extraction_jobs',
  'extraction_results',
] as const satisfies readonly (keyof Database)[];

/** An extraction job (spec 2.8, 3.2) and its resume cursor; its lease is its job's (`extraction.job`). */
export interface ExtractionJobsTable {
  id: string;
  account_id: string;
  tool_type: string;
  status: string;
  /** JSON of the accepted request. */
  params: string;
  target_tweet_id: string | null;
  target_username: string | null;
  target_user_id: string | null;
  target_community_id: string | null;
  target_list_id: string | null;
  target_space_id: string | null;
  search_query: string | null;
  results_limit: Int | null;
  total_results: Int;
  /** Where the platform read continues; null before the first page. */
  cursor: string | null;
  /** Consecutive pages that brought nothing new (a stall at 3, spec 3.2). */
  stalled_pages: Int;
  error_message: string | null;
  created_at: Int;
  updated_at: Int;
  completed_at: Int | null;
}

/** One result of an extraction job; `data` is the JSON of the result record without its id. */
export interface ExtractionResultsTable {
  job_id: string;
  /** The result's id, from 1 in collection order. */
  seq: Int;
  /** The platform id the result is about (a user or a tweet): one result per item and job. */
  item_key: string;
  data: string;
  has_media: Int;
  created_at: Int;
}

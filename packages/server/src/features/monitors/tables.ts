/**
 * The tables owned by `features/monitors` (account and keyword monitors, shard leases): their row types, and
 * their names. Only code under `features/monitors` writes them; any code may read them through `Database`.
 * They join `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    monitors: MonitorsTable;
    keyword_monitors: KeywordMonitorsTable;
    monitor_shards: MonitorShardsTable;
    monitor_engines: MonitorEnginesTable;
  }
}

/** The tables `features/monitors` owns. */
export const MONITORS_TABLES = [
  'monitors',
  'keyword_monitors',
  'monitor_shards',
  'monitor_engines',
] as const satisfies readonly (keyof Database)[];

/**
 * The columns both kinds of monitor share (spec 2.4, migration 0004): owner, event types (a JSON array),
 * activity and billing, the watermark of creation or resume (`baseline_tweet_id`), shard and revision.
 */
export interface MonitorLifecycleColumns {
  id: string;
  account_id: string;
  event_types: string;
  is_active: Int;
  created_at: Int;
  next_billing_at: Int;
  paused_reason: string | null;
  paused_at: Int | null;
  baseline_tweet_id: string;
  baseline_at: Int;
  shard: Int;
  /** Bumped on every change an engine must reload. */
  rev: Int;
}

/**
 * An account monitor (spec 2.4, migration 0004): `profile_snapshot` is the JSON of the watched profile
 * fields at the last check.
 */
export interface MonitorsTable extends MonitorLifecycleColumns {
  username: string;
  x_user_id: string;
  profile_snapshot: string;
  /** The platform's change stamp of the profile when `profile_snapshot` was taken. */
  profile_stamp: string;
  /** 1 once an engine has checked the monitor since its baseline (the shard's cursor then covers it). */
  joined: Int;
}

/** A keyword monitor (spec 2.4, migration 0004): `cursor_tweet_id` is how far its search was processed. */
export interface KeywordMonitorsTable extends MonitorLifecycleColumns {
  query: string;
  /** The query normalized for the duplicate check (case and spacing). */
  query_key: string;
  cursor_tweet_id: string;
}

/** A shard of the monitors (migration 0004; its lease is its job's, `monitor.shard`). */
export interface MonitorShardsTable {
  shard: Int;
  /** How far the shard's account-monitor tweet stream was processed (a tweet id), or null. */
  tweet_cursor: string | null;
  /** Bumped after every change of the shard's monitors, so engines reload only changed shards. */
  version: Int;
}

/** A heartbeat per running check engine, so instances split the shards (migration 0004). */
export interface MonitorEnginesTable {
  id: string;
  seen_at: Int;
}

/**
 * The table owned by `core/jobs` (the one jobs table): its row type and its name. Only code under `core/jobs`
 * writes it; features enqueue and lease through its functions.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/jobs` owns. */
export const JOBS_TABLES = ['jobs'] as const;

/**
 * One unit of background work (migration 0017, `core/jobs`): `kind` names what runs it, `key` (unique per
 * kind when set) makes singleton and recurring jobs (a monitor shard, a coverage walk), `payload` is JSON.
 * `state` is `queued` (due at `run_at`; running while a lease is held), `parked` or `failed` (terminal);
 * done jobs are deleted. A claimed job holds a lease until `lease_until`; an expired lease is free to take.
 */
export interface JobsTable {
  id: string;
  kind: string;
  key: string | null;
  payload: string;
  state: string;
  run_at: Int;
  attempts: Int;
  lease_owner: string | null;
  lease_until: Int | null;
  last_error: string | null;
  created_at: Int;
  updated_at: Int;
}

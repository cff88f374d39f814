/**
 * The tables owned by `features/writes` (write actions): their row types, and their names. Only code under
 * `features/writes` writes them; any code may read them through `Database`. They join `Database` by
 * declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    write_actions: WriteActionsTable;
  }
}

/** The tables `features/writes` owns. */
export const WRITES_TABLES = ['write_actions'] as const satisfies readonly (keyof Database)[];

/** A durable write action (spec 2.16, 3.6), unique per account and `Idempotency-Key`. */
export interface WriteActionsTable {
  id: string;
  account_id: string;
  idempotency_key: string;
  request_hash: string;
  /** The sanitized payload sent to the platform (JSON); null on actions stored before it was kept. */
  request_payload: string | null;
  request_id: string;
  method: string;
  path: string;
  action: string;
  status: string;
  x_account_id: string;
  x_user_id: string;
  x_username: string;
  target_type: string | null;
  target_id: string | null;
  target_username: string | null;
  /** The platform's result (`WriteResult`) as JSON. */
  result: string | null;
  error: string | null;
  message: string | null;
  retryable: Int;
  safe_to_retry: Int;
  send_dispatched_at: Int | null;
  billing_status: string;
  credits: Int;
  charged_at: Int | null;
  billing_reason: string | null;
  confirmation_attempts: Int;
  confirmation_checked_at: Int | null;
  confirmed_at: Int | null;
  expires_at: Int | null;
  completed_at: Int | null;
  created_at: Int;
  updated_at: Int;
}

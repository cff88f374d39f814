/**
 * The tables owned by `features/x-accounts` (connect and re-authentication flows): their row types, and their
 * names. Only code under `features/x-accounts` writes them; any code may read them through `Database`. They
 * join `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    x_connection_attempts: XConnectionAttemptsTable;
    x_connection_challenges: XConnectionChallengesTable;
  }
}

/** The tables `features/x-accounts` owns. */
export const X_CONNECTION_TABLES = [
  'x_connection_attempts',
  'x_connection_challenges',
] as const satisfies readonly (keyof Database)[];

/** A connect or re-authentication (`xatt_` ids, migration 0008): `pending`, `challenge`, `connected`, `failed`. */
export interface XConnectionAttemptsTable {
  id: string;
  account_id: string;
  /** `connect` or `reauth`. */
  purpose: string;
  username: string;
  status: string;
  challenge_id: string | null;
  x_account_id: string | null;
  error: string | null;
  reason: string | null;
  retryable: Int;
  created_at: Int;
  updated_at: Int;
}

/**
 * An e-mail code challenge (`xch_` ids, spec 3.5): `requires_email_code`, then `completed`, `failed`,
 * `expired` or `replaced`. `flow_enc` is the platform's login state, encrypted.
 */
export interface XConnectionChallengesTable {
  id: string;
  account_id: string;
  attempt_id: string;
  username: string;
  username_lower: string;
  /** The connection being re-authenticated; null for a new connection. */
  x_account_id: string | null;
  flow_enc: string;
  status: string;
  expires_at: Int;
  created_at: Int;
  updated_at: Int;
}

/**
 * The tables owned by `core/accounts` (connected platform accounts): their row types, and their names. Only
 * code under `core/accounts` writes them; any code may read them through `Database`. `core/db/schema.ts` lists
 * them in `Database`.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/accounts` owns. */
export const X_ACCOUNT_TABLES = ['x_accounts'] as const;

export interface XAccountsTable {
  id: string;
  account_id: string;
  x_user_id: string;
  x_username: string;
  status: string;
  health: string;
  created_at: Int;
  /** The platform session of the connection, AES-256-GCM encrypted (migration 0008); never a password. */
  session_enc?: string | null;
  /** When the current session was obtained (epoch ms). */
  cookies_obtained_at?: Int | null;
  updated_at?: Int | null;
}

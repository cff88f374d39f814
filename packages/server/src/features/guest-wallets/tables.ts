/**
 * The tables owned by `features/guest-wallets` (wallets and their purchases): their row types, and their
 * names. Only code under `features/guest-wallets` writes them; any code may read them through `Database`. They
 * join `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    guest_wallets: GuestWalletsTable;
    guest_purchases: GuestPurchasesTable;
  }
}

/** The tables `features/guest-wallets` owns. */
export const GUEST_WALLETS_TABLES = [
  'guest_wallets',
  'guest_purchases',
] as const satisfies readonly (keyof Database)[];

/** An accountless prepaid wallet (spec 5.5); its credits live on its own account row. */
export interface GuestWalletsTable {
  /** `gw_…` */
  id: string;
  account_id: string;
  /** SHA-256 hex of the guest key. */
  key_hash: string;
  /** `closed` for a closed wallet; otherwise `pending` (active or pending is derived from its paid purchases). */
  status: string;
  created_at: Int;
}

/** One checkout of a guest wallet. */
export interface GuestPurchasesTable {
  /** `gp_…` */
  id: string;
  wallet_id: string;
  checkout_id: string;
  amount_minor: Int;
  currency: string;
  credits: Int;
  idempotency_key: string;
  /** SHA-256 hex of the request body: the same key with another body is a conflict. */
  request_hash: string;
  /** The answer given for this key (a retry gets it again), kept while the checkout can be paid. */
  response: string | null;
  created_at: Int;
}

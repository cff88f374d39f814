/**
 * The tables owned by `core/billing` (credit ledger, checkouts, machine payments): their row types, and their
 * names. Only code under `core/billing` writes them; any code may read them through `Database`.
 * `core/db/schema.ts` lists them in `Database`.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/billing` owns. */
export const BILLING_TABLES = ['credit_ledger', 'checkouts', 'mpp_payments'] as const;

/** One row per charge or grant: balances always reconcile with the sum of the ledger. */
export interface CreditLedgerTable {
  id: string;
  account_id: string;
  /** Negative for charges, positive for grants and refunds. */
  delta: Int;
  balance_after: Int;
  operation: string;
  units: Int;
  request_id: string | null;
  created_at: Int;
}

export interface CheckoutsTable {
  id: string;
  account_id: string;
  kind: string;
  dollars: Int;
  credits: Int;
  status: string;
  created_at: Int;
  /** When an open checkout stops accepting approval (epoch ms; null on rows from before migration 0006). */
  expires_at: Int | null;
}

/** A machine payment made on the local payment network (spec 5.4); settled once by the request it pays. */
export interface MppPaymentsTable {
  reference: string;
  challenge_id: string;
  amount: string;
  currency: string;
  paid_at: Int;
  settled_at: Int | null;
  settled_operation: string | null;
}

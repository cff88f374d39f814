/**
 * The table owned by `core/idempotency` (the one idempotency store): its row type and its name.
 */
import type { Int } from '../db/columns.js';

/** The tables `core/idempotency` owns. */
export const IDEMPOTENCY_TABLES = ['idempotency_keys'] as const;

/** The answers of the one idempotency store (`core/idempotency`), one per scope and `Idempotency-Key`. */
export interface IdempotencyKeysTable {
  /** Who the key belongs to, e.g. `support:<account id>`. */
  scope: string;
  key: string;
  /** SHA-256 hex of the request: the same key with another request is a conflict. */
  request_hash: string;
  /** The answer given (a retry gets it again): text, as the feature encoded it. */
  answer: string;
  created_at: Int;
}

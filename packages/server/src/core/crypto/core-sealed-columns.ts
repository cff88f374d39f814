import type { SealedColumn } from './reseal.js';

/**
 * The sealed columns of core's own tables (features declare theirs in their `sealedColumns`): connected
 * accounts' platform sessions (`core/accounts`).
 */
export const CORE_SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'x_accounts', column: 'session_enc', key: 'id', purpose: 'x-account-sessions', format: 'sealed' },
];

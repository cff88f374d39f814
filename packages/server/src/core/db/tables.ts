/**
 * The tables owned by `core/db` (the server's own secrets): their row types, and their names. Only code under
 * `core/db` writes them; any code may read them through `Database`. `core/db/schema.ts` lists them in
 * `Database`.
 */
import type { Int } from './columns.js';

/** The tables `core/db` owns. */
export const DB_TABLES = ['server_secrets'] as const;

/** The check value of the server's secret key (`secret-key-check`); older servers kept generated secrets here. */
export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: Int;
}

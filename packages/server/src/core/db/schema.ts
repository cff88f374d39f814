import { X_ACCOUNT_TABLES, type XAccountsTable } from '../accounts/tables.js';
import type { AccountsTable, ApiKeysTable, MagicLinksTable, SessionsTable } from '../auth/tables.js';
import {
  AUTH_TABLES,
  type OAuthClientsTable,
  type OAuthCodesTable,
  type OAuthRequestsTable,
  type OAuthTokensTable,
} from '../auth/tables.js';
import {
  BILLING_TABLES,
  type CheckoutsTable,
  type CreditLedgerTable,
  type MppPaymentsTable,
} from '../billing/tables.js';
import { EVENTS_TABLES, type EventOutboxTable, type EventsTable } from '../events/tables.js';
import { IDEMPOTENCY_TABLES, type IdempotencyKeysTable } from '../idempotency/tables.js';
import { JOBS_TABLES, type JobsTable } from '../jobs/tables.js';
import {
  LIMITS_TABLES,
  type RateLimitCountersTable,
  type UpstreamRateLimitsTable,
} from '../limits/tables.js';
import { DB_TABLES, type ServerSecretsTable } from './tables.js';

/**
 * The server's database type, for `Kysely<Database>`. Each table's row type lives next to the code that
 * owns (writes) it, in a `tables.ts`: the core mechanisms' tables are listed here; a feature's
 * (`features/<area>/tables.ts`) and the simulated platform's (`platform/simulated/tables.ts`) join this
 * interface by declaration merging:
 *
 * ```ts
 * declare module '../../core/db/schema.js' {
 *   interface Database { webhooks: WebhooksTable }
 * }
 * ```
 *
 * so core never imports a feature. Each feature's `feature.ts` imports its `tables.ts` (its `tables` list
 * comes from there), which keeps the augmentation in every program that mounts the feature. Code may read
 * any table through `Database`; only the owner writes it (`test/features/table-ownership.test.ts`).
 * Migrations under `migrations/` create exactly these tables for SQLite and Postgres alike.
 */
export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  sessions: SessionsTable;
  magic_links: MagicLinksTable;
  oauth_clients: OAuthClientsTable;
  oauth_requests: OAuthRequestsTable;
  oauth_codes: OAuthCodesTable;
  oauth_tokens: OAuthTokensTable;
  credit_ledger: CreditLedgerTable;
  checkouts: CheckoutsTable;
  mpp_payments: MppPaymentsTable;
  rate_limit_counters: RateLimitCountersTable;
  upstream_rate_limits: UpstreamRateLimitsTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  events: EventsTable;
  event_outbox: EventOutboxTable;
  x_accounts: XAccountsTable;
  server_secrets: ServerSecretsTable;
}

/** The tables of the core mechanisms, by the folder under `core/` that owns (writes) them. */
export const CORE_TABLES = {
  auth: AUTH_TABLES,
  billing: BILLING_TABLES,
  limits: LIMITS_TABLES,
  idempotency: IDEMPOTENCY_TABLES,
  jobs: JOBS_TABLES,
  events: EVENTS_TABLES,
  accounts: X_ACCOUNT_TABLES,
  db: DB_TABLES,
} as const satisfies Record<string, readonly (keyof Database)[]>;

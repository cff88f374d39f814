import { type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Db } from './database.js';
import * as m0001 from './migrations/0001-core.js';
import * as m0002 from './migrations/0002-simulated-platform.js';
import * as m0003 from './migrations/0003-events.js';
import * as m0004 from './migrations/0004-monitors.js';
import * as m0005 from './migrations/0005-webhooks.js';
import * as m0006 from './migrations/0006-walks-galleries-expiry.js';
import * as m0007 from './migrations/0007-draws-extractions.js';
import * as m0008 from './migrations/0008-x-accounts-writes.js';
import * as m0009 from './migrations/0009-composition-support.js';
import * as m0010 from './migrations/0010-oauth.js';
import * as m0011 from './migrations/0011-guest-wallets.js';
import * as m0012 from './migrations/0012-write-action-payload.js';
import * as m0013 from './migrations/0013-machine-payments.js';
import * as m0014 from './migrations/0014-draw-commitments.js';
import * as m0015 from './migrations/0015-webhook-delivery-attempts.js';
import * as m0016 from './migrations/0016-plans.js';
import * as m0017 from './migrations/0017-jobs.js';
import * as m0018 from './migrations/0018-one-rate-limiter.js';
import * as m0019 from './migrations/0019-one-idempotency-store.js';
import * as m0020 from './migrations/0020-unused-indexes.js';
import * as m0021 from './migrations/0021-old-lease-columns.js';
import * as m0022 from './migrations/0022-draw-organiser-commitments.js';
import * as m0023 from './migrations/0023-x-stream.js';
import * as m0024 from './migrations/0024-upstream-rate-limits.js';
import * as m0025 from './migrations/0025-delivered-attempt-on-delivery.js';

/** The one set of migrations, for SQLite and Postgres alike, in order. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-core': m0001,
  '0002-simulated-platform': m0002,
  '0003-events': m0003,
  '0004-monitors': m0004,
  '0005-webhooks': m0005,
  '0006-walks-galleries-expiry': m0006,
  '0007-draws-extractions': m0007,
  '0008-x-accounts-writes': m0008,
  '0009-composition-support': m0009,
  '0010-oauth': m0010,
  '0011-guest-wallets': m0011,
  '0012-write-action-payload': m0012,
  '0013-machine-payments': m0013,
  '0014-draw-commitments': m0014,
  '0015-webhook-delivery-attempts': m0015,
  '0016-plans': m0016,
  '0017-jobs': m0017,
  '0018-one-rate-limiter': m0018,
  '0019-one-idempotency-store': m0019,
  '0020-unused-indexes': m0020,
  '0021-old-lease-columns': m0021,
  '0022-draw-organiser-commitments': m0022,
  '0023-x-stream': m0023,
  '0024-upstream-rate-limits': m0024,
  '0025-delivered-attempt-on-delivery': m0025,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the database to the latest schema; throws with the failing migration's name. */
export async function migrateToLatest(db: Db): Promise<void> {
  // On Postgres, name the schema of the migration tables: without it Kysely takes a `kysely_migration` table
  // of any schema (another test run's, another instance's) for this one's and skips creating its own.
  const schema =
    db.dialect === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db.db)).rows[0]?.s
      : undefined;
  // Unordered: a database migrated by an earlier build that already ran a later-numbered migration still
  // takes the lower-numbered ones added since (each migration creates its own tables only).
  const migrator = new Migrator({
    db: db.db,
    provider,
    allowUnorderedMigrations: true,
    ...(schema && { migrationTableSchema: schema }),
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return;
    if (attempt < CATALOG_RACE_ATTEMPTS && schema && isCatalogRace(error, schema)) {
      await new Promise((r) => setTimeout(r, 20 * attempt));
      continue;
    }
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** How often a migration run that lost a catalog race is tried (see {@link isCatalogRace}). */
const CATALOG_RACE_ATTEMPTS = 5;

/**
 * True for the error Kysely's table check gets when ANOTHER schema of the same Postgres database is dropped
 * while it lists the tables of every schema (`has_schema_privilege`, `pg_get_serial_sequence` on a schema that
 * vanished mid-query): nothing of ours went wrong, and the check succeeds when run again. Seen with parallel
 * test files, each in a schema of its own that it drops when done; a shared server can see it too.
 */
export function isCatalogRace(error: unknown, ours: string): boolean {
  // The listing's `pg_get_serial_sequence` reads each column of each schema: a table of another schema dropped
  // under it reports one of its columns missing. Our migrations never call that function, so its name in the
  // error places the failure in the listing, not in a migration of ours.
  const { code, routine } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    routine?: unknown;
  };
  if (code === '42703' && routine === 'pg_get_serial_sequence') return true;
  const message = error instanceof Error ? error.message : String(error);
  const missing = /^(?:schema|relation) "([^"]+)" does not exist$/.exec(message)?.[1];
  return missing !== undefined && missing !== ours && !missing.startsWith(`${ours}.`);
}

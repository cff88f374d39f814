import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * One jobs table for every kind of background work (`core/jobs`): webhook deliveries, extraction jobs,
 * monitor shards and their hourly billing, coverage walks. A job with a key (unique per kind) has the id
 * `kind:key`. `run_at` is when it is due; a claimed job holds a lease (`lease_owner`, `lease_until`) that
 * keeps it off every other instance's claim until it is settled or the lease expires. The claim query reads
 * one index range (`kind, state, run_at`).
 *
 * The work in progress moves over: open webhook deliveries (parked ones parked), `running` extraction jobs,
 * the 64 monitor shards (checks and billing, due at once: `run_at` 0) and the coverage walks. The old lease columns
 * (`webhook_deliveries.lease_*`, `extraction_jobs.lease_*`, `monitor_shards.owner`/`lease_expires_at`,
 * `coverage_walks.lease_*`) stay, unused.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text')
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'bigint', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jobs_kind_key').on('jobs').columns(['kind', 'key']).unique().execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['kind', 'state', 'run_at']).execute();

  const now = Date.now();
  await sql`
    insert into jobs (id, kind, key, payload, state, run_at, attempts, lease_owner, lease_until, last_error, created_at, updated_at)
    select 'webhook.delivery:' || id, 'webhook.delivery', id, '{}',
      case when next_attempt_at is null then 'parked' else 'queued' end,
      coalesce(next_attempt_at, created_at), attempts, null, null, last_error, created_at, ${now}
    from webhook_deliveries where status in ('pending', 'failed')
  `.execute(db);
  await sql`
    insert into jobs (id, kind, key, payload, state, run_at, attempts, lease_owner, lease_until, last_error, created_at, updated_at)
    select 'extraction.job:' || id, 'extraction.job', id, '{}', 'queued', created_at, 0, null, null, null, created_at, ${now}
    from extraction_jobs where status = 'running'
  `.execute(db);
  for (const kind of ['monitor.shard', 'monitor.billing']) {
    await sql`
      insert into jobs (id, kind, key, payload, state, run_at, attempts, lease_owner, lease_until, last_error, created_at, updated_at)
      select ${`${kind}:`} || cast(shard as text), ${kind}, cast(shard as text), '{}', 'queued', 0, 0, null, null, null, ${now}, ${now}
      from monitor_shards
    `.execute(db);
  }
  await sql`
    insert into jobs (id, kind, key, payload, state, run_at, attempts, lease_owner, lease_until, last_error, created_at, updated_at)
    select 'coverage.walk:' || id, 'coverage.walk', id, '{}', 'parked', expires_at, 0, null, null, null, created_at, ${now}
    from coverage_walks
  `.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('jobs').execute();
}

import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

const MINUTE = 60_000;

/**
 * One fixed-window limiter (issue #13): `rate_limit_counters` holds one row per key (`bucket`) with its
 * current window (`window_start`, `expires_at`) and `count`, so a window can start at the key's first unit
 * (cooldowns) as well as at a multiple of its length. The latest window of each bucket is kept (its end
 * from the bucket's prefix; the API-tier buckets' windows are at most a minute); the failed logins of
 * `x_login_failures` become two keys each (`x-login:failures:` anchored at the first failure, 15 minutes;
 * `x-login:cooldown:` while a cooldown runs, 5 minutes), and that table is dropped.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('rate_limit_counters_0017')
    .addColumn('bucket', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .execute();
  await sql`
    insert into rate_limit_counters_0017 (bucket, window_start, expires_at, count)
    select r.bucket, r.window_start,
      r.window_start + case
        when r.bucket like 'signin:%' then ${sql.lit(15 * MINUTE)}
        when r.bucket like 'guest-wallets:%' then ${sql.lit(60 * MINUTE)}
        else ${sql.lit(MINUTE)}
      end,
      r.count
    from rate_limit_counters r
    where r.window_start = (select max(m.window_start) from rate_limit_counters m where m.bucket = r.bucket)`.execute(
    db,
  );
  await db.schema.dropTable('rate_limit_counters').execute();
  await db.schema.alterTable('rate_limit_counters_0017').renameTo('rate_limit_counters').execute();
  await db.schema
    .createIndex('rate_limit_counters_expires')
    .on('rate_limit_counters')
    .column('expires_at')
    .execute();

  await sql`
    insert into rate_limit_counters (bucket, window_start, expires_at, count)
    select 'x-login:failures:' || f.key, f.first_failed_at, f.first_failed_at + ${sql.lit(15 * MINUTE)}, f.failures
    from x_login_failures f`.execute(db);
  await sql`
    insert into rate_limit_counters (bucket, window_start, expires_at, count)
    select 'x-login:cooldown:' || f.key, f.cooldown_until - ${sql.lit(5 * MINUTE)}, f.cooldown_until, 1
    from x_login_failures f where f.cooldown_until is not null`.execute(db);
  await db.schema.dropTable('x_login_failures').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('x_login_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failed_at', 'bigint', (c) => c.notNull())
    .addColumn('cooldown_until', 'bigint')
    .execute();
  await db.schema.dropIndex('rate_limit_counters_expires').execute();
  await db.schema.alterTable('rate_limit_counters').renameTo('rate_limit_counters_0017').execute();
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('bucket', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['bucket', 'window_start'])
    .execute();
  await sql`
    insert into rate_limit_counters (bucket, window_start, count)
    select bucket, window_start, count from rate_limit_counters_0017
    where bucket not like 'x-login:%'`.execute(db);
  await db.schema.dropTable('rate_limit_counters_0017').execute();
}

import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/**
 * A delivery's last attempt is kept on the delivery itself (`last_started_at`, `last_duration_ms`, beside
 * `last_status_code` and `last_error`), and the attempt that delivers it gets no `webhook_delivery_attempts`
 * row any more: its history row was one more b-tree row in every delivery's write (issue #30). The
 * attempts that failed (retried or exhausted) keep their rows; a delivered delivery's history is those rows
 * and, last, its delivering attempt as the delivery row records it. Rows written before keep their place:
 * a delivery delivered before this migration has its delivering attempt's row, and null in the new columns.
 * One column per statement: SQLite adds one column per ALTER TABLE.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('last_started_at', 'bigint').execute();
  await db.schema.alterTable('webhook_deliveries').addColumn('last_duration_ms', 'integer').execute();
}

export async function down(db: AnyDb): Promise<void> {
  // The delivering attempts recorded on their deliveries only get their history rows back first.
  await db
    .insertInto('webhook_delivery_attempts')
    .columns([
      'id',
      'delivery_id',
      'webhook_id',
      'account_id',
      'attempt',
      'started_at',
      'duration_ms',
      'status_code',
      'error',
      'outcome',
    ])
    .expression((eb) =>
      eb
        .selectFrom('webhook_deliveries as d')
        .select(() => [
          sql<string>`d.id || '_' || cast(d.attempts as text)`.as('id'),
          'd.id as delivery_id',
          'd.webhook_id',
          'd.account_id',
          'd.attempts as attempt',
          'd.last_started_at as started_at',
          'd.last_duration_ms as duration_ms',
          'd.last_status_code as status_code',
          sql<null>`cast(null as text)`.as('error'),
          sql<string>`'delivered'`.as('outcome'),
        ])
        .where('d.status', '=', sql.lit('delivered'))
        .where('d.last_started_at', 'is not', null)
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('webhook_delivery_attempts as a')
                .select('a.id')
                .whereRef('a.delivery_id', '=', 'd.id')
                .whereRef('a.attempt', '=', 'd.attempts'),
            ),
          ),
        ),
    )
    .execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('last_duration_ms').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('last_started_at').execute();
}

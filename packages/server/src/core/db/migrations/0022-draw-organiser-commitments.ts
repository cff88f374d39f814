import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: frozen migration
type AnyDb = Kysely<any>;

/** The draw columns added, each with its type (for `down`, in reverse). */
const DRAW_COLUMNS = [
  ['tweet_like_count', 'integer'],
  ['tweet_retweet_count', 'integer'],
  ['tweet_reply_count', 'integer'],
  ['tweet_quote_count', 'integer'],
  ['commitment_id', 'text'],
  ['organiser_entropy', 'text'],
  ['organiser_entropy_hash', 'text'],
] as const;

/**
 * Draws the organiser can hold to account, and their tweet's counts kept:
 * - `draw_commitments`: a server seed fixed (its hash shown to the organiser) before the giveaway, with the
 *   hash of the organiser's entropy when they commit to it too; `draw_id` is set, once, by the draw that
 *   uses it;
 * - on `draws`: the giveaway tweet's like, repost, reply and quote counts when the draw ran (null on draws
 *   made before), and the commitment, entropy and entropy hash of a committed draw.
 * One column per statement: SQLite adds one column per ALTER TABLE.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('draw_commitments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('seed', 'text', (c) => c.notNull())
    .addColumn('seed_hash', 'text', (c) => c.notNull())
    .addColumn('entropy_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('draw_id', 'text')
    .execute();
  await db.schema
    .createIndex('draw_commitments_account')
    .on('draw_commitments')
    .column('account_id')
    .execute();
  for (const [name, type] of DRAW_COLUMNS)
    await db.schema.alterTable('draws').addColumn(name, type).execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const [name] of [...DRAW_COLUMNS].reverse())
    await db.schema.alterTable('draws').dropColumn(name).execute();
  await db.schema.dropTable('draw_commitments').execute();
}

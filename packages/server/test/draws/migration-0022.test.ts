/**
 * Migration 0022 on both engines: the `draw_commitments` table and the draw columns for the tweet's counts
 * and the organiser's commitment exist; a draw stored before it (its new columns null) still reads, with
 * counts 0; down removes them and up adds them again.
 */
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../src/core/auth/accounts.js';
import * as m0022 from '../../src/core/db/migrations/0022-draw-organiser-commitments.js';
import { toDrawDetail } from '../../src/features/draws/mappers.js';
import { ENGINES, tableColumns, useMigratedDatabase } from '../helpers/server.js';

const DRAW_COLUMNS = [
  'tweet_like_count',
  'tweet_retweet_count',
  'tweet_reply_count',
  'tweet_quote_count',
  'commitment_id',
  'organiser_entropy',
  'organiser_entropy_hash',
];

describe.each(ENGINES)('migration 0022: draw commitments and stored counts (%s)', (engine) => {
  const database = useMigratedDatabase(engine);

  it('adds the commitments table and the draw columns', async () => {
    expect(await tableColumns(database(), 'draw_commitments')).toEqual(
      expect.arrayContaining([
        'id',
        'account_id',
        'seed',
        'seed_hash',
        'entropy_hash',
        'created_at',
        'draw_id',
      ]),
    );
    expect(await tableColumns(database(), 'draws')).toEqual(expect.arrayContaining(DRAW_COLUMNS));
  });

  it('reads a draw stored before it with counts 0 and no commitment', async () => {
    const db = database().db;
    const account = await createAccount(db, { email: 'm0022@x.test', isOwner: false, credits: 0n, now: 0 });
    await db
      .insertInto('draws')
      .values({
        id: '0192f3c4-0000-7000-8000-000000000022',
        account_id: account.id,
        tweet_id: '20',
        tweet_url: 'https://x.com/jack/status/20',
        tweet_text: 'giveaway',
        tweet_author_username: 'jack',
        tweet_created_at: null,
        status: 'completed',
        total_entries: 0,
        valid_entries: 0,
        settings: '{"tweetUrl":"https://x.com/jack/status/20","winnerCount":1}',
        credits_charged: 1,
        created_at: 1,
        drawn_at: 2,
        procedure: null,
        seed: null,
        seed_hash: null,
        seed_committed_at: null,
        entries_hash: null,
        filters_hash: null,
        tweet_like_count: null,
        tweet_retweet_count: null,
        tweet_reply_count: null,
        tweet_quote_count: null,
        commitment_id: null,
        organiser_entropy: null,
        organiser_entropy_hash: null,
      })
      .execute();
    const row = await db
      .selectFrom('draws')
      .selectAll()
      .where('tweet_id', '=', '20')
      .executeTakeFirstOrThrow();
    expect(toDrawDetail(row)).toMatchObject({
      tweetLikeCount: 0,
      tweetRetweetCount: 0,
      tweetReplyCount: 0,
      tweetQuoteCount: 0,
    });
    expect(toDrawDetail(row)).not.toHaveProperty('verification');
  });

  it('goes down (table and columns gone) and up again', async () => {
    await m0022.down(database().db);
    expect(await tableColumns(database(), 'draw_commitments')).toEqual([]);
    const cols = await tableColumns(database(), 'draws');
    for (const c of DRAW_COLUMNS) expect(cols).not.toContain(c);
    await m0022.up(database().db);
    expect(await tableColumns(database(), 'draws')).toEqual(expect.arrayContaining(DRAW_COLUMNS));
    expect(await tableColumns(database(), 'draw_commitments')).toContain('draw_id');
  });
});

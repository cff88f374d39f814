import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  loadCommunityNames,
  loadTweets,
  loadTweetWithAuthor,
  loadUsers,
} from '../../src/platform/simulated/lookup.js';
import { ENGINES, strictTweet, useNetwork } from '../platform/network.js';

/**
 * The lookups behind `GET /x/tweets/{id}`: on SQLite they run cached prepared statements synchronously (one
 * join for a tweet and its author); they must read exactly the rows the Kysely queries read, on both engines.
 */
describe.each(ENGINES)('tweet lookups (%s)', (engine) => {
  const net = useNetwork(engine);

  it('reads the same rows as selectAll(), one id or many, missing ids left out', async () => {
    const db = net.db.db;
    const sample = await db.selectFrom('sim_tweets').selectAll().orderBy('id').limit(40).execute();
    const ids = [...sample.map((t) => t.id), '999', sample[0]?.id ?? ''];
    const tweets = await loadTweets(db, ids);
    expect([...tweets.keys()].sort()).toEqual(sample.map((t) => t.id).sort());
    for (const t of sample) expect(tweets.get(t.id)).toEqual(t);
    const single = await loadTweets(db, [sample[3]?.id ?? '']);
    expect([...single.values()]).toEqual([sample[3]]);
    expect((await loadTweets(db, [])).size).toBe(0);

    const authorIds = [...new Set(sample.map((t) => t.author_id))];
    const users = await loadUsers(db, [...authorIds, 'nobody']);
    const expected = await db.selectFrom('sim_users').selectAll().where('id', 'in', authorIds).execute();
    expect(users.size).toBe(expected.length);
    for (const u of expected) expect(users.get(u.id)).toEqual(u);

    const communities = await db.selectFrom('sim_communities').select(['id', 'name']).limit(3).execute();
    const names = await loadCommunityNames(db, [...communities.map((c) => c.id), 'none']);
    expect(Object.fromEntries(names)).toEqual(Object.fromEntries(communities.map((c) => [c.id, c.name])));
  });

  it('reads a tweet with its author in one go, the rows equal to the separate reads', async () => {
    const db = net.db.db;
    const rows = await db.selectFrom('sim_tweets').selectAll().orderBy('id').limit(25).execute();
    for (const row of rows) {
      const { tweet, author } = await loadTweetWithAuthor(db, row.id);
      expect(tweet).toEqual(row);
      expect(author).toEqual((await loadUsers(db, [row.author_id])).get(row.author_id));
    }
    expect(await loadTweetWithAuthor(db, '12345')).toEqual({ tweet: undefined, author: undefined });
  });

  it('reads the same inside a transaction, where the synchronous path stands aside', async () => {
    const db = net.db.db;
    const row = await db.selectFrom('sim_tweets').selectAll().orderBy('id').executeTakeFirstOrThrow();
    const outside = await loadTweetWithAuthor(db, row.id);
    await db.transaction().execute(async (trx) => {
      expect(await loadTweetWithAuthor(trx, row.id)).toEqual(outside);
      expect((await loadTweets(trx, [row.id])).get(row.id)).toEqual(row);
    });
  });

  it('answers each tweet as the platform shows it, or why not', async () => {
    const db = net.db.db;
    const rows = await db
      .selectFrom('sim_tweets')
      .select(['id', 'deleted'])
      .orderBy('id')
      .limit(200)
      .execute();
    const shown = await net.platform.getTweets(rows.map((r) => r.id));
    const byId = new Map(shown.map((t) => [t.id, t]));
    for (const { id } of rows) {
      const found = await net.platform.getTweet(id);
      const listed = byId.get(id);
      if ('tweet' in found) {
        expect(strictTweet.safeParse(found.tweet).success).toBe(true);
        expect(found.tweet).toEqual(listed);
      } else {
        expect(listed).toBeUndefined();
      }
    }
    const deleted = rows.find((r) => Number(r.deleted) === 1);
    if (deleted) expect(await net.platform.getTweet(deleted.id)).toEqual({ missing: 'deleted' });
    expect(await net.platform.getTweet('77')).toEqual({ missing: 'not_found' });
  });

  it('sees every write to a tweet or its author on the next read (the in-process cache stands aside)', async () => {
    const db = net.db.db;
    const row = await db
      .selectFrom('sim_tweets')
      .selectAll()
      .where('deleted', '=', 0)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const first = await loadTweetWithAuthor(db, row.id);
    expect(await loadTweetWithAuthor(db, row.id)).toEqual(first);
    await db.updateTable('sim_tweets').set({ like_count: 4242 }).where('id', '=', row.id).execute();
    expect(Number((await loadTweetWithAuthor(db, row.id)).tweet?.like_count)).toBe(4242);
    const found = await net.platform.getTweet(row.id);
    expect('tweet' in found && found.tweet.likeCount).toBe(4242);
    if (
      engine === 'sqlite' &&
      row.poll === null &&
      row.quoted_tweet_id === null &&
      row.retweet_of_id === null
    ) {
      // The answer kept with the cached pair: the same frozen object until a write replaces the pair.
      expect(await net.platform.getTweet(row.id)).toBe(found);
      expect(Object.isFrozen('tweet' in found && found.tweet.author)).toBe(true);
    }
    await db.updateTable('sim_users').set({ suspended: 1 }).where('id', '=', row.author_id).execute();
    expect(await net.platform.getTweet(row.id)).toEqual({ missing: 'author_suspended' });
    await db.updateTable('sim_users').set({ suspended: 0 }).where('id', '=', row.author_id).execute();
    await db.updateTable('sim_tweets').set({ deleted: 1 }).where('id', '=', row.id).execute();
    expect(await net.platform.getTweet(row.id)).toEqual({ missing: 'deleted' });
    await db
      .updateTable('sim_tweets')
      .set({ deleted: 0, like_count: row.like_count })
      .where('id', '=', row.id)
      .execute();
    expect((await loadTweetWithAuthor(db, row.id)).tweet).toEqual(row);
  });

  it('follows a change of the tables: the joined read splits the new columns too', async () => {
    const db = net.db.db;
    const row = await db.selectFrom('sim_tweets').selectAll().orderBy('id').executeTakeFirstOrThrow();
    await loadTweetWithAuthor(db, row.id);
    await sql`alter table sim_users add column note_for_test text not null default 'n'`.execute(db);
    const { tweet, author } = await loadTweetWithAuthor(db, row.id);
    expect(tweet).toEqual(row);
    expect(author).toMatchObject({ id: row.author_id, note_for_test: 'n' });
    expect(author).toEqual((await loadUsers(db, [row.author_id])).get(row.author_id));
  });
});

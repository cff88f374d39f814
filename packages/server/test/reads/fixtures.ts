import { randomUUID } from 'node:crypto';
import type { TestServer } from '../helpers/server.js';

/** Ids of the tiny simulated network that the read tests address. */
export interface Network {
  ownerId: string;
  jackId: string;
  /** A visible tweet of xsvc_demo with photos, one with replies (the giveaway), one quoted by others. */
  photosTweet: string;
  giveawayTweet: string;
  quotedTweet: string;
  retweetedTweet: string;
  likedTweet: string;
  textOnlyTweet: string;
  listId: string;
  /** A user that is a member of at least one list. */
  listMemberId: string;
  communityId: string;
  openJob: string;
  closedJob: string;
  articleTweet: string;
  /** A user jack has direct messages with. */
  dmPartner: string;
  /** A community tweet's word, to search with. */
  communityWord: string;
}

/** Reads the network's ids once per server. */
export async function network(t: TestServer): Promise<Network> {
  const db = t.server.services.database.db;
  const owner = await db
    .selectFrom('accounts')
    .select('id')
    .where('is_owner', '=', 1)
    .executeTakeFirstOrThrow();
  const demo = await db
    .selectFrom('sim_users')
    .select('id')
    .where('username_lower', '=', 'xsvc_demo')
    .executeTakeFirstOrThrow();
  const visible = () =>
    db
      .selectFrom('sim_tweets as t')
      .innerJoin('sim_users as a', 'a.id', 't.author_id')
      .select('t.id')
      .where('t.deleted', '=', 0)
      .where('a.protected', '=', 0)
      .where('a.suspended', '=', 0);
  const demoTweets = await db
    .selectFrom('sim_tweets')
    .select(['id', 'text', 'media'])
    .where('author_id', '=', demo.id)
    .where('deleted', '=', 0)
    .where('kind', '=', 'tweet')
    .execute();
  const photos = demoTweets.find((r) => r.text.startsWith('First look'));
  const giveaway = demoTweets.find((r) => r.text.includes('Giveaway'));
  // A tweet with a visible quote, repost and like (the counters alone may count hidden ones).
  const referenced = (column: 'quoted_tweet_id' | 'retweet_of_id') =>
    visible()
      .where('t.kind', '<>', 'retweet')
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('sim_tweets as r')
            .innerJoin('sim_users as ra', 'ra.id', 'r.author_id')
            .select('r.id')
            .whereRef(`r.${column}`, '=', 't.id')
            .where('r.deleted', '=', 0)
            .where('ra.protected', '=', 0)
            .where('ra.suspended', '=', 0),
        ),
      )
      .orderBy('t.id')
      .executeTakeFirstOrThrow();
  const quoted = await referenced('quoted_tweet_id');
  const retweeted = await referenced('retweet_of_id');
  const liked = await visible()
    .where('t.kind', '<>', 'retweet')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('sim_likes as l')
          .innerJoin('sim_users as lu', 'lu.id', 'l.user_id')
          .select('l.user_id')
          .whereRef('l.tweet_id', '=', 't.id')
          .where('lu.suspended', '=', 0),
      ),
    )
    .orderBy('t.id')
    .executeTakeFirstOrThrow();
  const textOnly = await visible()
    .where('t.media', 'is', null)
    .where('t.kind', '=', 'tweet')
    .orderBy('t.id')
    .executeTakeFirstOrThrow();
  const member = await db
    .selectFrom('sim_list_members as m')
    .innerJoin('sim_users as u', 'u.id', 'm.user_id')
    .select(['m.list_id', 'm.user_id'])
    .where('m.role', '=', 'member')
    .where('u.protected', '=', 0)
    .where('u.suspended', '=', 0)
    .orderBy('m.list_id')
    .executeTakeFirstOrThrow();
  const community = await db
    .selectFrom('sim_communities')
    .select('id')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const communityTweet = await visible()
    .select('t.text')
    .where('t.community_id', '=', community.id)
    .executeTakeFirstOrThrow();
  const openJob = await db
    .selectFrom('sim_jobs')
    .select('id')
    .where('closed', '=', 0)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const closedJob = await db
    .selectFrom('sim_jobs')
    .select('id')
    .where('closed', '=', 1)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const article = await db
    .selectFrom('sim_articles')
    .select('tweet_id')
    .orderBy('tweet_id')
    .executeTakeFirstOrThrow();
  const dm = await db
    .selectFrom('sim_dms')
    .select(['sender_id', 'recipient_id'])
    .where('sender_id', '=', '12')
    .executeTakeFirstOrThrow();
  const word = (communityTweet.text.match(/[A-Za-z]{5,}/) ?? ['the'])[0];
  if (!photos || !giveaway) throw new Error('the fixed tweets of xsvc_demo are missing');
  return {
    ownerId: owner.id,
    jackId: '12',
    photosTweet: photos.id,
    giveawayTweet: giveaway.id,
    quotedTweet: quoted.id,
    retweetedTweet: retweeted.id,
    likedTweet: liked.id,
    textOnlyTweet: textOnly.id,
    listId: member.list_id,
    listMemberId: member.user_id,
    communityId: community.id,
    openJob: openJob.id,
    closedJob: closedJob.id,
    articleTweet: article.tweet_id,
    dmPartner: dm.recipient_id,
    communityWord: word.toLowerCase(),
  };
}

/** Sets the owner's credit balance directly. */
export async function setBalance(t: TestServer, ownerId: string, credits: number | bigint): Promise<void> {
  await t.server.services.database.db
    .updateTable('accounts')
    .set({ credits_balance: BigInt(credits) })
    .where('id', '=', ownerId)
    .execute();
}

/** The owner's credit balance. */
export async function balance(t: TestServer, ownerId: string): Promise<bigint> {
  return t.server.services.credits.balance(ownerId);
}

/** Ledger rows of an operation for the owner. */
export async function ledgerRows(t: TestServer, ownerId: string, operation: string) {
  return t.server.services.database.db
    .selectFrom('credit_ledger')
    .select(['delta', 'units', 'operation'])
    .where('account_id', '=', ownerId)
    .where('operation', '=', operation)
    .execute();
}

/** Connects a simulated account to the owner (as the connect flow would), or removes every connection. */
export async function connect(
  t: TestServer,
  ownerId: string,
  username: string | null,
  health = 'healthy',
): Promise<void> {
  const db = t.server.services.database.db;
  await db.deleteFrom('x_accounts').where('account_id', '=', ownerId).execute();
  if (username === null) return;
  const user = await db
    .selectFrom('sim_users')
    .select(['id', 'username'])
    .where('username_lower', '=', username.toLowerCase())
    .executeTakeFirstOrThrow();
  await db
    .insertInto('x_accounts')
    .values({
      id: randomUUID(),
      account_id: ownerId,
      x_user_id: user.id,
      x_username: user.username,
      status: 'active',
      health,
      created_at: t.clock.now(),
    })
    .execute();
}

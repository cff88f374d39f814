import { type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { Clock } from '../../core/clock.js';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { Tweet, UserProfile } from '../../core/platform/platform.js';
import { setLocked } from './account-lock.js';
import type { CreateTweetInput, CreateUserInput, UpdateUserPatch } from './control-types.js';
import { USERNAME, VERIFIED_TYPES, validateProfile, validateTweetInput } from './control-validation.js';
import { parseEntities } from './entities.js';
import { SimulatedPlatformError } from './errors.js';
import { hydrateTweets } from './hydrate.js';
import { SnowflakeIds, snowflake } from './ids.js';
import { findUserRow, loadTweets, loadUsers, tweetVisibility } from './lookup.js';
import { toUserProfile } from './mappers.js';
import { buildMedia } from './media.js';
import { Prng } from './prng.js';
import type { SeedSize } from './seed/model.js';
import { clearNetwork, type SeedReport, seedNetwork } from './seed.js';
import {
  blankSimUserRow,
  encodeEntities,
  parseJson,
  type StoredEntities,
  type StoredPoll,
  type TweetRow,
  type UserRow,
} from './stored.js';
import type { SimUsersTable } from './tables.js';

export type { CreateTweetInput, CreateUserInput, UpdateUserPatch, VerifiedType } from './control-types.js';

const invalid = (message: string) => new SimulatedPlatformError('invalid_input', message);
const userNotFound = (ref: string) => new SimulatedPlatformError('user_not_found', `no user ${ref}`);
const tweetNotFound = (id: string) => new SimulatedPlatformError('tweet_not_found', `no tweet ${id}`);
/**
 * The mutations behind the `/sim/*` control endpoints: create and change accounts, post, reply, quote,
 * repost, delete, follow, like, and reset the whole network. Every change keeps the counters the reads show
 * (replies, quotes, reposts, likes, followers, statuses) and bumps `profile_version` on profile changes, so
 * monitors detect them the way they would on the real platform.
 */
export class SimulatedControl {
  private readonly ids = new SnowflakeIds();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async createUser(input: CreateUserInput): Promise<UserProfile> {
    const username = input.username?.replace(/^@/, '') ?? '';
    if (!USERNAME.test(username)) throw invalid('username must be 1-15 letters, digits or underscores');
    validateProfile(input);
    if (input.verifiedType && !VERIFIED_TYPES.includes(input.verifiedType))
      throw invalid('unknown verifiedType');
    const now = this.clock.now();
    const createdAt = input.createdAt ?? now;
    if (!Number.isSafeInteger(createdAt) || createdAt > now)
      throw invalid('createdAt must be a past time in epoch ms');
    if (await this.holderOf(username)) throw invalid(`username ${username} is taken`);
    let id = snowflake(createdAt, new Prng(username).int(0, 4095));
    while (await this.db.selectFrom('sim_users').select('id').where('id', '=', id).executeTakeFirst()) {
      id = (BigInt(id) + 1n).toString();
    }
    const row = {
      ...blankSimUserRow({ id, username, name: input.name ?? username, createdAt }),
      description: input.description ?? '',
      location: input.location ?? '',
      url: input.url ?? '',
      profile_picture:
        input.profilePicture ??
        'https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png',
      cover_picture: input.coverPicture ?? '',
      verified: input.verifiedType ? 1 : 0,
      verified_type: input.verifiedType ?? null,
      protected: input.protected ? 1 : 0,
    };
    await this.db.insertInto('sim_users').values(row).execute();
    return toUserProfile(await this.user(id));
  }

  async updateUser(userRef: string, patch: UpdateUserPatch): Promise<UserProfile> {
    const current = await this.user(userRef);
    validateProfile(patch);
    const set: Updateable<SimUsersTable> = {};
    if (patch.username !== undefined) {
      const username = patch.username.replace(/^@/, '');
      if (!USERNAME.test(username)) throw invalid('username must be 1-15 letters, digits or underscores');
      const holder = await this.holderOf(username);
      if (holder && holder !== current.id) throw invalid(`username ${username} is taken`);
      set.username = username;
      set.username_lower = username.toLowerCase();
    }
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.location !== undefined) set.location = patch.location;
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.profilePicture !== undefined) set.profile_picture = patch.profilePicture;
    if (patch.coverPicture !== undefined) set.cover_picture = patch.coverPicture;
    if (
      patch.verifiedType !== undefined &&
      patch.verifiedType !== null &&
      !VERIFIED_TYPES.includes(patch.verifiedType)
    ) {
      throw invalid('unknown verifiedType');
    }
    if (patch.verified === false || patch.verifiedType === null) {
      set.verified = 0;
      set.verified_type = null;
    } else if (patch.verifiedType || patch.verified) {
      set.verified = 1;
      set.verified_type = patch.verifiedType ?? current.verified_type ?? 'blue';
    }
    if (patch.protected !== undefined) set.protected = patch.protected ? 1 : 0;
    if (patch.suspended !== undefined) set.suspended = patch.suspended ? 1 : 0;
    if (patch.pinnedTweetId !== undefined) {
      if (patch.pinnedTweetId !== null) {
        const tweet = (await loadTweets(this.db, [patch.pinnedTweetId])).get(patch.pinnedTweetId);
        if (!tweet || num(tweet.deleted) || tweet.kind === 'retweet')
          throw tweetNotFound(patch.pinnedTweetId);
        if (tweet.author_id !== current.id) throw invalid('only an own tweet can be pinned');
      }
      set.pinned_tweet_id = patch.pinnedTweetId;
    }
    const changed = Object.entries(set).some(
      ([k, v]) => String(current[k as keyof UserRow] ?? '') !== String(v ?? ''),
    );
    if (changed) {
      await this.db
        .updateTable('sim_users')
        .set({ ...set, profile_version: sql`profile_version + 1` })
        .where('id', '=', current.id)
        .execute();
    }
    if (patch.locked !== undefined) await setLocked(this.db, current.id, patch.locked);
    return toUserProfile(await this.user(current.id));
  }

  async createTweet(input: CreateTweetInput): Promise<Tweet> {
    const author = await this.user(input.author);
    if (num(author.suspended)) throw invalid(`@${author.username} is suspended`);
    const { text, length, media } = validateTweetInput(input);
    if (input.retweetOfId !== undefined) {
      if (text || media.length || input.poll || input.inReplyToId || input.quotedTweetId) {
        throw invalid('a repost carries nothing but the reposted tweet');
      }
      return this.repost(author, input.retweetOfId);
    }
    if (!text.trim() && !media.length) throw invalid('a tweet needs text or media');

    const parent = input.inReplyToId === undefined ? undefined : await this.visibleTweet(input.inReplyToId);
    const quoted =
      input.quotedTweetId === undefined ? undefined : await this.visibleTweet(input.quotedTweetId);
    if (input.communityId !== undefined) {
      const c = await this.db
        .selectFrom('sim_communities')
        .select('id')
        .where('id', '=', input.communityId)
        .executeTakeFirst();
      if (!c) throw invalid(`no community ${input.communityId}`);
    }
    const now = this.clock.now();
    const id = await this.nextTweetId(now);
    const prng = new Prng(id);
    const entities = await this.entities(text);
    const poll: StoredPoll | undefined = input.poll && {
      options: input.poll.options.map((label) => ({ label: label.trim(), votes: 0 })),
      endsAt: now + (input.poll.durationMinutes ?? 1_440) * 60_000,
    };
    const row: TweetRow = {
      id,
      author_id: author.id,
      text,
      created_at: now,
      lang: input.lang ?? 'en',
      source: input.source ?? 'xsvc simulator',
      kind: parent ? 'reply' : quoted ? 'quote' : 'tweet',
      conversation_id: parent?.conversation_id ?? id,
      in_reply_to_id: parent?.id ?? null,
      in_reply_to_user_id: parent?.author_id ?? null,
      quoted_tweet_id: quoted?.id ?? null,
      retweet_of_id: null,
      is_note: length > 280 ? 1 : 0,
      media: media.length ? JSON.stringify(media.map((m) => buildMedia(prng, m.type, id, m.url))) : null,
      poll: poll ? JSON.stringify(poll) : null,
      entities: encodeEntities(entities),
      like_count: 0,
      retweet_count: 0,
      reply_count: 0,
      quote_count: 0,
      view_count: 0,
      bookmark_count: 0,
      community_id: input.communityId ?? null,
      deleted: 0,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('sim_tweets').values(row).execute();
      await bump(trx, 'sim_users', author.id, { statuses_count: 1, ...(media.length && { media_count: 1 }) });
      if (parent) {
        await bump(trx, 'sim_tweets', parent.id, { reply_count: 1 });
        await this.notify(trx, parent.author_id, 'reply', author.id, id, now);
      }
      if (quoted) {
        await bump(trx, 'sim_tweets', quoted.id, { quote_count: 1 });
        await this.notify(trx, quoted.author_id, 'quote', author.id, id, now);
      }
      for (const m of entities.mentions ?? []) {
        if (m.id && m.id !== parent?.author_id) await this.notify(trx, m.id, 'mention', author.id, id, now);
      }
    });
    return this.hydrate(row);
  }

  async deleteTweet(tweetId: string): Promise<void> {
    const row = (await loadTweets(this.db, [tweetId])).get(tweetId);
    if (!row || num(row.deleted)) throw tweetNotFound(tweetId);
    const reposts = await this.db
      .selectFrom('sim_tweets')
      .select(['id', 'author_id'])
      .where('retweet_of_id', '=', tweetId)
      .where('deleted', '=', 0)
      .execute();
    await this.db.transaction().execute(async (trx) => {
      for (const t of [row, ...reposts]) {
        await trx.updateTable('sim_tweets').set({ deleted: 1 }).where('id', '=', t.id).execute();
        const withMedia = t === row && row.media !== null && row.kind !== 'retweet';
        await bump(trx, 'sim_users', t.author_id, {
          statuses_count: -1,
          ...(withMedia && { media_count: -1 }),
        });
      }
      if (row.in_reply_to_id) await bump(trx, 'sim_tweets', row.in_reply_to_id, { reply_count: -1 });
      if (row.quoted_tweet_id) await bump(trx, 'sim_tweets', row.quoted_tweet_id, { quote_count: -1 });
      if (row.retweet_of_id) await bump(trx, 'sim_tweets', row.retweet_of_id, { retweet_count: -1 });
      await trx
        .updateTable('sim_users')
        .set({ pinned_tweet_id: null, profile_version: sql`profile_version + 1` })
        .where('pinned_tweet_id', '=', tweetId)
        .execute();
    });
  }

  /** Makes `sourceRef` follow `targetRef` (nothing when it already does). */
  async follow(sourceRef: string, targetRef: string): Promise<void> {
    const [source, target] = [await this.user(sourceRef), await this.user(targetRef)];
    if (source.id === target.id) throw invalid('an account cannot follow itself');
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('sim_follows')
        .values({ follower_id: source.id, followee_id: target.id, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
      await bump(trx, 'sim_users', source.id, { following_count: 1 });
      await bump(trx, 'sim_users', target.id, { followers_count: 1 });
      await this.notify(trx, target.id, 'follow', source.id, null, now);
    });
  }

  /** Makes `sourceRef` stop following `targetRef` (nothing when it does not). */
  async unfollow(sourceRef: string, targetRef: string): Promise<void> {
    const [source, target] = [await this.user(sourceRef), await this.user(targetRef)];
    await this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('sim_follows')
        .where('follower_id', '=', source.id)
        .where('followee_id', '=', target.id)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return;
      await bump(trx, 'sim_users', source.id, { following_count: -1 });
      await bump(trx, 'sim_users', target.id, { followers_count: -1 });
    });
  }

  /** Makes `userRef` like a tweet (nothing when it already does); true when the like is new. */
  async like(userRef: string, tweetId: string): Promise<boolean> {
    const user = await this.user(userRef);
    const tweet = await this.visibleTweet(tweetId);
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('sim_likes')
        .values({ user_id: user.id, tweet_id: tweet.id, created_at: now })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await bump(trx, 'sim_tweets', tweet.id, { like_count: 1 });
      await bump(trx, 'sim_users', user.id, { favourites_count: 1 });
      await this.notify(trx, tweet.author_id, 'like', user.id, tweet.id, now);
      return true;
    });
  }

  /** Empties the network and seeds it again with `seed` and `size`, its present being the clock's now. */
  async resetNetwork(options: { seed: string | number; size: SeedSize }): Promise<SeedReport> {
    if (!['tiny', 'small', 'default'].includes(options.size)) throw invalid('size is tiny, small or default');
    await clearNetwork(this.db);
    return seedNetwork(this.db, { size: options.size, seed: options.seed, now: this.clock.now() });
  }

  private async repost(author: UserRow, targetId: string): Promise<Tweet> {
    let target = await this.visibleTweet(targetId);
    if (target.retweet_of_id) target = await this.visibleTweet(target.retweet_of_id);
    const existing = await this.db
      .selectFrom('sim_tweets')
      .select('id')
      .where('retweet_of_id', '=', target.id)
      .where('author_id', '=', author.id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (existing) throw invalid(`@${author.username} already reposted ${target.id}`);
    const original = (await loadUsers(this.db, [target.author_id])).get(target.author_id) as UserRow;
    const now = this.clock.now();
    const id = await this.nextTweetId(now);
    const stored = parseJson<StoredEntities>(target.entities) ?? {};
    const { contentDisclosure: _, ...targetEntities } = stored;
    const row: TweetRow = {
      ...target,
      id,
      author_id: author.id,
      text: `RT @${original.username}: ${target.text}`,
      created_at: now,
      source: 'xsvc simulator',
      kind: 'retweet',
      conversation_id: id,
      in_reply_to_id: null,
      in_reply_to_user_id: null,
      quoted_tweet_id: null,
      retweet_of_id: target.id,
      media: null,
      poll: null,
      entities: encodeEntities({
        ...targetEntities,
        mentions: [{ id: original.id, username: original.username }, ...(stored.mentions ?? [])],
      }),
      like_count: 0,
      retweet_count: 0,
      reply_count: 0,
      quote_count: 0,
      view_count: 0,
      bookmark_count: 0,
      community_id: null,
      deleted: 0,
    };
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('sim_tweets').values(row).execute();
      await bump(trx, 'sim_users', author.id, { statuses_count: 1 });
      await bump(trx, 'sim_tweets', target.id, { retweet_count: 1 });
      await this.notify(trx, target.author_id, 'retweet', author.id, target.id, now);
    });
    return this.hydrate(row);
  }

  private async hydrate(row: TweetRow): Promise<Tweet> {
    const [tweet] = await hydrateTweets(this.db, [row], this.clock.now());
    if (!tweet) throw tweetNotFound(row.id);
    return tweet;
  }

  /** The id of the account holding `username` (case-insensitive), if any. */
  private async holderOf(username: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('sim_users')
      .select('id')
      .where('username_lower', '=', username.toLowerCase())
      .executeTakeFirst();
    return row?.id;
  }

  private async user(userRef: string): Promise<UserRow> {
    const row = await findUserRow(this.db, userRef);
    if (!row) throw userNotFound(userRef);
    return row;
  }

  /** A tweet that can be replied to, quoted or reposted: present, not deleted, author not suspended. */
  private async visibleTweet(tweetId: string): Promise<TweetRow> {
    const row = (await loadTweets(this.db, [tweetId])).get(tweetId);
    const author = row && (await loadUsers(this.db, [row.author_id])).get(row.author_id);
    const reason = row && tweetVisibility(row, author);
    if (!row || (reason && reason !== 'protected')) throw tweetNotFound(tweetId);
    return row;
  }

  /** A new tweet id: the time's snowflake, above every id issued so far (also by other processes). */
  private async nextTweetId(now: number): Promise<string> {
    const latest = await this.db
      .selectFrom('sim_tweets')
      .select('id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (latest && /^\d{19}$/.test(latest.id)) this.ids.observe(latest.id);
    return this.ids.next(now);
  }

  private async entities(text: string): Promise<StoredEntities> {
    const names = [...text.matchAll(/@([A-Za-z0-9_]{1,15})/g)].map((m) => (m[1] as string).toLowerCase());
    const users = names.length
      ? await this.db
          .selectFrom('sim_users')
          .select(['id', 'username_lower'])
          .where('username_lower', 'in', names)
          .execute()
      : [];
    const ids = new Map(users.map((u) => [u.username_lower, u.id]));
    return parseEntities(text, { userId: (name) => ids.get(name) });
  }

  private async notify(
    trx: Transaction<Database>,
    userId: string,
    kind: string,
    actorId: string,
    tweetId: string | null,
    at: number,
  ): Promise<void> {
    if (userId === actorId) return;
    // A seeded notification may hold the same snowflake (same millisecond): take the next one then.
    for (;;) {
      const result = await trx
        .insertInto('sim_notifications')
        .values({
          id: this.ids.next(at),
          user_id: userId,
          kind,
          actor_id: actorId,
          tweet_id: tweetId,
          created_at: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) return;
    }
  }
}

/** Adds to counters of one row, never below zero. */
export async function bump(
  trx: Transaction<Database>,
  table: 'sim_users' | 'sim_tweets',
  id: string,
  deltas: Record<string, number>,
): Promise<void> {
  const set: Record<string, ReturnType<typeof sql>> = {};
  for (const [column, delta] of Object.entries(deltas)) {
    set[column] =
      sql`case when ${sql.ref(column)} + ${delta} < 0 then 0 else ${sql.ref(column)} + ${delta} end`;
  }
  await sql`update ${sql.table(table)} set ${sql.join(
    Object.entries(set).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
  )} where id = ${id}`.execute(trx);
}

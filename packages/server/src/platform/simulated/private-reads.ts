import { type SqlBool, sql } from 'kysely';
import { num } from '../../core/db/database.js';
import {
  type PageRequest,
  PlatformAccountError,
  type PlatformDm,
  type PlatformNotification,
  type PlatformPage,
  type Tweet,
} from '../../core/platform/platform.js';
import { isLocked } from './account-lock.js';
import { findUserRow, loadUsers } from './lookup.js';
import { iso, toUserProfile } from './mappers.js';
import { afterKey, keysetPage } from './paging.js';
import type { ReadContext } from './read-context.js';
import { TweetReads } from './tweet-reads.js';

const ref = sql.ref;

/**
 * The private reads of a connected account: bookmarks, home timeline, notifications, DMs. The platform
 * refuses them to a suspended or locked reader ({@link PlatformAccountError}).
 */
export class PrivateReads {
  private readonly tweets: TweetReads;

  constructor(private readonly ctx: ReadContext) {
    this.tweets = new TweetReads(ctx);
  }

  /** The id of the account a private read acts as, once the platform let it read. */
  private async reader(userRef: string): Promise<string> {
    const user = await findUserRow(this.ctx.db, userRef);
    if (!user) return this.ctx.userId(userRef);
    if (num(user.suspended)) throw new PlatformAccountError('suspended', `@${user.username} is suspended`);
    if (await isLocked(this.ctx.db, user.id))
      throw new PlatformAccountError('locked', `@${user.username} is locked; unlock it on the platform`);
    return user.id;
  }

  async bookmarks(
    userId: string,
    folderId: string | undefined,
    page: PageRequest,
  ): Promise<PlatformPage<Tweet>> {
    const id = await this.reader(userId);
    const where = folderId
      ? sql<SqlBool>`j.user_id = ${id} and j.folder_id = ${folderId}`
      : sql<SqlBool>`j.user_id = ${id}`;
    return this.ctx.joinedTweets(
      folderId ? 'tweets:bookmark_folder' : 'tweets:bookmarks',
      page,
      'sim_bookmarks',
      where,
      'followed',
    );
  }

  async bookmarkFolders(userId: string): Promise<{ id: string; name: string }[]> {
    const id = await this.reader(userId);
    const row = await this.ctx.db
      .selectFrom('sim_meta')
      .select('value')
      .where('key', '=', `bookmark_folders:${id}`)
      .executeTakeFirst();
    if (!row) return [];
    const folders = JSON.parse(row.value) as { id: string; name: string }[];
    return folders.map((f) => ({ id: f.id, name: f.name }));
  }

  async homeTimeline(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>> {
    const id = await this.reader(userId);
    return this.ctx.tweets({
      scope: 'tweets:home',
      page,
      where: [
        sql<SqlBool>`(${ref('t.author_id')} = ${id} or ${ref('t.author_id')} in (select followee_id from sim_follows where follower_id = ${id}))`,
      ],
      visibility: 'followed',
      order: 'latest',
    });
  }

  async notifications(userId: string, page: PageRequest): Promise<PlatformPage<PlatformNotification>> {
    const id = await this.reader(userId);
    const rows = await keysetPage({
      scope: 'notifications',
      page,
      key: (r: { id: string; created_at: bigint | number }) => [num(r.created_at), r.id],
      fetch: (after, limit) => {
        let q = this.ctx.db.selectFrom('sim_notifications as n').selectAll('n').where('n.user_id', '=', id);
        if (after) q = q.where(afterKey('n.created_at', 'n.id', after, 'desc'));
        return q.orderBy('n.created_at', 'desc').orderBy('n.id', 'desc').limit(limit).execute();
      },
    });
    const actors = await loadUsers(
      this.ctx.db,
      rows.rows.map((r) => r.actor_id),
    );
    const tweets = await this.tweets.getTweets(rows.rows.flatMap((r) => (r.tweet_id ? [r.tweet_id] : [])));
    const byId = new Map(tweets.map((t) => [t.id, t]));
    const items = rows.rows.flatMap((r) => {
      const actor = actors.get(r.actor_id);
      if (!actor) return [];
      const tweet = r.tweet_id ? byId.get(r.tweet_id) : undefined;
      return [
        {
          id: r.id,
          kind: r.kind,
          actor: toUserProfile(actor),
          ...(tweet && { tweet }),
          createdAt: iso(r.created_at),
        },
      ];
    });
    return { items, ...(rows.nextCursor && { nextCursor: rows.nextCursor }) };
  }

  async dmHistory(userId: string, otherUserId: string, page: PageRequest): Promise<PlatformPage<PlatformDm>> {
    const [a, b] = [await this.reader(userId), await this.ctx.userId(otherUserId)];
    const rows = await keysetPage({
      scope: 'dms',
      page,
      key: (r: { id: string; created_at: bigint | number }) => [num(r.created_at), r.id],
      fetch: (after, limit) => {
        let q = this.ctx.db
          .selectFrom('sim_dms as d')
          .selectAll('d')
          .where((eb) =>
            eb.or([
              eb.and([eb('d.sender_id', '=', a), eb('d.recipient_id', '=', b)]),
              eb.and([eb('d.sender_id', '=', b), eb('d.recipient_id', '=', a)]),
            ]),
          );
        if (after) q = q.where(afterKey('d.created_at', 'd.id', after, 'desc'));
        return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
      },
    });
    return {
      items: rows.rows.map((r) => ({
        id: r.id,
        senderId: r.sender_id,
        recipientId: r.recipient_id,
        text: r.text,
        createdAt: iso(r.created_at),
      })),
      ...(rows.nextCursor && { nextCursor: rows.nextCursor }),
    };
  }
}

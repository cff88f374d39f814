import type { Kysely } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { Database } from '../../core/db/schema.js';
import type { Platform } from '../../core/platform/platform.js';
import { CollectionReads } from './collection-reads.js';
import { SimulatedControl } from './control.js';
import { SnowflakeIds } from './ids.js';
import { SimulatedLogins } from './logins.js';
import { MonitorReads } from './monitor-reads.js';
import { PrivateReads } from './private-reads.js';
import { ReadContext } from './read-context.js';
import { replyTreePage } from './reply-tree.js';
import { TweetReads } from './tweet-reads.js';
import { UserReads } from './user-reads.js';
import { SimulatedWrites } from './writes.js';

/** Options of {@link SimulatedPlatform}. */
export interface SimulatedPlatformOptions {
  /** The origin uploaded media is served from (`{origin}/sim/media/{id}`); default the default listen address. */
  mediaBaseUrl?: () => string;
}

/**
 * The `simulated` platform: every read of the {@link Platform} interface over the seeded network kept in
 * the server's own database (the sim_* tables). Listings are keyset-paged (stable under concurrent writes);
 * tweet listings are newest first, searches support the platform's operators, and deleted tweets,
 * suspended authors and (in public listings) protected authors are left out. A cursor this platform did not
 * issue for the listing throws `InvalidCursorError` (400 `invalid_input`).
 */
export class SimulatedPlatform implements Platform {
  readonly kind = 'simulated' as const;
  private readonly users: UserReads;
  private readonly tweets: TweetReads;
  private readonly collections: CollectionReads;
  private readonly own: PrivateReads;
  private readonly monitors: MonitorReads;

  private readonly ctx: ReadContext;
  private readonly logins: SimulatedLogins;
  private readonly writes: SimulatedWrites;

  constructor(db: Kysely<Database>, clock: Clock, options: SimulatedPlatformOptions = {}) {
    const ctx = new ReadContext(db, clock);
    this.ctx = ctx;
    this.users = new UserReads(ctx);
    this.tweets = new TweetReads(ctx);
    this.collections = new CollectionReads(ctx);
    this.own = new PrivateReads(ctx);
    this.monitors = new MonitorReads(ctx);
    this.logins = new SimulatedLogins(db, clock);
    this.writes = new SimulatedWrites(
      {
        db,
        clock,
        control: new SimulatedControl(db, clock),
        ids: new SnowflakeIds(),
        mediaBaseUrl: options.mediaBaseUrl ?? (() => 'http://127.0.0.1:8787'),
      },
      this.logins,
    );
  }

  // Users
  getUser: Platform['getUser'] = (...a) => this.users.getUser(...a);
  getUsers: Platform['getUsers'] = (...a) => this.users.getUsers(...a);
  searchUsers: Platform['searchUsers'] = (q, filters, page) => this.users.searchUsers(q, filters, page);
  followers: Platform['followers'] = (...a) => this.users.followers(...a);
  following: Platform['following'] = (...a) => this.users.following(...a);
  verifiedFollowers: Platform['verifiedFollowers'] = (...a) => this.users.verifiedFollowers(...a);
  followersYouKnow: Platform['followersYouKnow'] = (...a) => this.users.followersYouKnow(...a);
  checkFollow: Platform['checkFollow'] = (...a) => this.users.checkFollow(...a);
  listMemberships: Platform['listMemberships'] = (...a) => this.users.listMemberships(...a);

  // Tweets
  getTweet: Platform['getTweet'] = (...a) => this.tweets.getTweet(...a);
  getTweets: Platform['getTweets'] = (...a) => this.tweets.getTweets(...a);
  searchTweets: Platform['searchTweets'] = (...a) => this.tweets.searchTweets(...a);
  userTweets: Platform['userTweets'] = (...a) => this.tweets.userTweets(...a);
  userReplies: Platform['userReplies'] = (...a) => this.tweets.userReplies(...a);
  userLikes: Platform['userLikes'] = (userId, page) => this.tweets.userLikes(userId, page);
  userMedia: Platform['userMedia'] = (...a) => this.tweets.userMedia(...a);
  userMentions: Platform['userMentions'] = (...a) => this.tweets.userMentions(...a);
  replies: Platform['replies'] = (...a) => this.tweets.replies(...a);
  quotes: Platform['quotes'] = (...a) => this.tweets.quotes(...a);
  thread: Platform['thread'] = (...a) => this.tweets.thread(...a);
  replyTree: Platform['replyTree'] = (...a) => replyTreePage(this.ctx, ...a);
  retweeters: Platform['retweeters'] = (...a) => this.tweets.retweeters(...a);
  favoriters: Platform['favoriters'] = (id, filters, page) => this.tweets.favoriters(id, filters, page);

  // Lists, communities, articles, trends, jobs
  listMembers: Platform['listMembers'] = (...a) => this.collections.listMembers(...a);
  listFollowers: Platform['listFollowers'] = (...a) => this.collections.listFollowers(...a);
  listTweets: Platform['listTweets'] = (...a) => this.collections.listTweets(...a);
  community: Platform['community'] = (...a) => this.collections.community(...a);
  communityMembers: Platform['communityMembers'] = (...a) => this.collections.communityMembers(...a);
  communityTweets: Platform['communityTweets'] = (...a) => this.collections.communityTweets(...a);
  searchCommunityTweets: Platform['searchCommunityTweets'] = (...a) =>
    this.collections.searchCommunityTweets(...a);
  spaceParticipants: Platform['spaceParticipants'] = (...a) => this.collections.spaceParticipants(...a);
  article: Platform['article'] = (...a) => this.collections.article(...a);
  trends: Platform['trends'] = (...a) => this.collections.trends(...a);
  job: Platform['job'] = (...a) => this.collections.job(...a);

  // Private reads of a connected account
  // The simulated network reads as the account's user id; the session is not needed.
  bookmarks: Platform['bookmarks'] = (userId, folderId, page) => this.own.bookmarks(userId, folderId, page);
  bookmarkFolders: Platform['bookmarkFolders'] = (userId) => this.own.bookmarkFolders(userId);
  homeTimeline: Platform['homeTimeline'] = (userId, page) => this.own.homeTimeline(userId, page);
  notifications: Platform['notifications'] = (userId, page) => this.own.notifications(userId, page);
  dmHistory: Platform['dmHistory'] = (userId, other, page) => this.own.dmHistory(userId, other, page);

  // Batched reads of the monitors' check engine
  newestTweetId: Platform['newestTweetId'] = (...a) => this.monitors.newestTweetId(...a);
  tweetsByAuthorsSince: Platform['tweetsByAuthorsSince'] = (...a) => this.monitors.tweetsByAuthorsSince(...a);
  profileStamps: Platform['profileStamps'] = (...a) => this.monitors.profileStamps(...a);

  // Connected accounts: logins and writes
  login: Platform['login'] = (...a) => this.logins.login(...a);
  submitLoginCode: Platform['submitLoginCode'] = (...a) => this.logins.submitLoginCode(...a);
  logout: Platform['logout'] = (...a) => this.logins.logout(...a);
  /** Simulated sessions do not expire: a dead one is found out when a write or read uses it. */
  renewSession: Platform['renewSession'] = async () => ({ kind: 'current' });
  write: Platform['write'] = (...a) => this.writes.write(...a);
  writeReceipt: Platform['writeReceipt'] = (...a) => this.writes.writeReceipt(...a);
}

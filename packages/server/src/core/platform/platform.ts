import type { schemas } from '@xsvc/sdk/contract';
import type {
  LoginCredentials,
  LoginOutcome,
  SessionRenewal,
  WriteActor,
  WriteCommand,
  WriteOutcome,
} from './account-writes.js';

/** A tweet in the API's shape (spec 2.10). */
export type Tweet = schemas.Tweet;
/** A user profile in the API's shape (reference `UserProfile`). */
export type UserProfile = schemas.UserProfile;

/** A page request: an opaque cursor from a previous page and a page size. */
export interface PageRequest {
  cursor?: string | undefined;
  pageSize: number;
}

/** A page of results: `nextCursor` is absent on the last page. */
export interface PlatformPage<T> {
  items: T[];
  nextCursor?: string | undefined;
}

/** Why a tweet cannot be returned (spec 7: a single-tweet 404 may carry `reason`). */
export type TweetMissingReason = 'deleted' | 'author_suspended' | 'protected' | 'not_found';

/** The result of a single-tweet lookup. */
export type TweetLookup = { tweet: Tweet } | { missing: TweetMissingReason };

/** A reply reached by a reply-tree walk, and its level under the walked tweet (1 = a direct reply). */
export interface ReplyNode {
  tweet: Tweet;
  depth: number;
}

/** Bounds and order of a reply-tree walk. */
export interface ReplyTreeOptions {
  /** Shallowest level returned: 1 returns direct replies, 2 leaves them out (their replies are still walked). */
  minDepth: number;
  /** Deepest level walked. */
  maxDepth: number;
  /** Order of the replies to one tweet: `oldest` first (conversation order) or `latest` first. */
  order: 'oldest' | 'latest';
}

/** Filters shared by the tweet searches and timelines (the reference's tweet filter parameters). */
export interface TweetFilters {
  fromUser?: string;
  toUser?: string;
  mentioning?: string;
  language?: string;
  sinceTime?: number;
  untilTime?: number;
  mediaType?: string;
  minFaves?: number;
  minRetweets?: number;
  minReplies?: number;
  replies?: 'include' | 'exclude' | 'only';
  retweets?: 'include' | 'exclude' | 'only';
  quotes?: 'include' | 'exclude' | 'only';
  verifiedOnly?: boolean;
  exactPhrase?: string;
  excludeWords?: string[];
  anyWords?: string[];
  hashtags?: string[];
}

/** A tweet search: the free text of `q` (platform operators allowed), filters and ordering. */
export interface TweetSearch extends TweetFilters {
  q: string;
  queryType: 'Latest' | 'Top';
}

/** Filters of user listings (the reference's user filter parameters). */
export interface UserFilters {
  minFollowers?: number;
  maxFollowers?: number;
  verifiedOnly?: boolean;
  bioContains?: string;
}

/** A list (spec 2.12 list-memberships fields). */
export interface PlatformList {
  id: string;
  name: string;
  description: string;
  memberCount: number;
  subscriberCount: number;
  createdAt: string;
  owner: UserProfile;
  bannerUrl?: string;
}

/** A community. */
export interface PlatformCommunity {
  id: string;
  name: string;
  description: string;
  memberCount: number;
  /** Absent where the platform does not say (X API v2 names no moderators). */
  moderatorCount?: number | undefined;
  createdAt: string;
  /** Absent where the platform does not say (X API v2 names no creator). */
  creator?: UserProfile | undefined;
  /** Who may join, as the platform words it (X: `Open`, `RestrictedJoinRequestsRequireModeratorApproval`...). */
  joinPolicy?: string | undefined;
}

/** A long-form article attached to a tweet. */
export interface PlatformArticle {
  tweetId: string;
  title: string;
  bodyText: string;
  previewText: string;
  coverImageUrl?: string;
  author: UserProfile;
  createdAt: string;
}

/** A trend of a region. */
export interface PlatformTrend {
  name: string;
  description?: string;
  rank: number;
  query: string;
}

/** A direct message. */
export interface PlatformDm {
  id: string;
  senderId: string;
  recipientId: string;
  text: string;
  createdAt: string;
}

/** A notification of the connected account. */
export interface PlatformNotification {
  id: string;
  kind: string;
  actor: UserProfile;
  tweet?: Tweet;
  createdAt: string;
}

/** New tweets of a set of authors (`Platform.tweetsByAuthorsSince`), oldest first. */
export interface AuthorTweets {
  items: Tweet[];
  /** The last id read when the read stopped at its limit; absent when nothing more follows. */
  nextSinceId?: string | undefined;
}

/** Change stamps of accounts (`Platform.profileStamps`). */
export interface ProfileStamps {
  /** Sums up every stamp of the ids asked for; equal digests for the same ids mean nothing changed. */
  digest: string;
  /** Stamp by account id; absent when the caller's `ifChanged` digest still holds. */
  stamps?: Map<string, string> | undefined;
}

/**
 * What the monitors ask of the platform at one check of all of them, across every server instance on the
 * database (`Platform.monitorPace`).
 */
export interface MonitorLoad {
  /** Distinct accounts watched by active account monitors. */
  accounts: number;
  /** Distinct queries of active keyword monitors. */
  queries: number;
  /** Live check engines sharing the monitors (each reads the accounts of its own shards). */
  instances: number;
}

/** What one check of every monitor needs of one rate-limited endpoint of the platform, and its budget. */
export interface MonitorNeed {
  /** The endpoint (`GET /2/tweets/search/recent`). */
  endpoint: string;
  /** Requests one check of every monitor makes to it. */
  perCheck: number;
  /** Requests the monitors may make to it per window (their share of the endpoint's limit). */
  budget: number;
  /** The endpoint's limit per window, as last reported by the platform (or the configured default). */
  limit: number;
  /** The rate-limit window (ms). */
  windowMs: number;
}

/** How often the platform's budget lets the monitors be checked (`Platform.monitorPace`). */
export interface MonitorPace {
  /** The effective interval between two checks of the monitors (ms): the nominal one or longer. */
  intervalMs: number;
  /** The longest interval the server accepts before it refuses a new monitor (ms). */
  maxIntervalMs: number;
  /** What a check needs of each endpoint. */
  needs: MonitorNeed[];
  /** When set, checks wait until then (epoch ms): a window is spent (a 429, or the budget reached). */
  holdUntil?: number | undefined;
  /**
   * New posts come without a request per check (the filtered stream): they are read at every check, and
   * only the reads that cost requests (the profiles) follow `intervalMs` and `holdUntil`.
   */
  postsEveryCheck?: boolean | undefined;
}

/** Thrown by a platform for an operation it cannot serve (the xapi platform without an endpoint for it). */
export class PlatformUnavailableError extends Error {
  override readonly name = 'PlatformUnavailableError';
  constructor(
    readonly code: 'x_api_unavailable' | 'x_api_rate_limited' | 'x_api_unauthorized',
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/**
 * A read the platform refuses before sending anything (it has no endpoint for it, or no token it would take):
 * it says nothing of the platform's or the connection's health, so a read made as an account does not mark
 * the account `temporaryIssue` for it (see `readAs`). Answered as `x_api_unavailable`.
 */
export class PlatformRefusal extends PlatformUnavailableError {
  /** Nothing was sent: the refusal is the platform's own. */
  readonly refused = true as const;
  constructor(message: string) {
    super('x_api_unavailable', message);
  }
}

/**
 * A connected account of the caller that a public read may be made as, when the platform serves that read
 * only to a user token (xapi: liked posts, liking users, user search). `session` is its session, renewed and ready;
 * `run` makes a read as it and records on the connection what the answer taught (as private reads do).
 */
export interface UserReader {
  readonly username: string;
  readonly session: string;
  run<T>(read: () => Promise<T>): Promise<T>;
}

/**
 * Finds the caller's connected account for a read that needs a user token: called only by a platform that
 * needs one (so the simulated platform costs no lookup); undefined when the caller has none usable.
 * `fits` tells a session that can make the read (xapi: its approval granted the scopes X asks for): the
 * first usable account whose session fits is chosen, else the first usable one (so the platform can name
 * what it lacks).
 */
export type AsUser = (fits?: (session: string) => boolean) => Promise<UserReader | undefined>;

/**
 * Thrown by a write whose outcome cannot be known: it was sent, and no answer came (a timeout, a dropped
 * connection, a 5xx from X). A platform without idempotency keys (X) may have performed it, so it must
 * never be sent again on its own: the action ends `x_write_ambiguous`, not safe to retry.
 */
export class PlatformWriteAmbiguousError extends Error {
  override readonly name = 'PlatformWriteAmbiguousError';
}

/**
 * Thrown by a private read (bookmarks, home timeline, notifications, direct messages) when the platform
 * refuses the account it reads as: suspended or locked. The route tells the caller and the connection's
 * health learns it, as from a write.
 */
export class PlatformAccountError extends Error {
  override readonly name = 'PlatformAccountError';
  constructor(
    readonly reason: 'suspended' | 'locked',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Every read and write of the social platform the features need. `simulated` keeps a seeded network in the
 * server's own database; `xapi` calls the X API v2. Features depend on this interface only.
 *
 * Identifiers: `userRef` is a user id, a username with or without @, or a profile URL; implementations
 * resolve it. Reads of protected or suspended accounts' timelines throw nothing: the route decides (spec 7:
 * protected timelines are a free 403), using `getUser`.
 */
export interface Platform {
  readonly kind: 'simulated' | 'xapi';

  // Users
  getUser(userRef: string): Promise<UserProfile | undefined>;
  getUsers(ids: readonly string[]): Promise<UserProfile[]>;
  /** `asUser`: as for {@link Platform.userLikes} (xapi serves user search only to a user token). */
  searchUsers(
    q: string,
    filters: UserFilters,
    page: PageRequest,
    asUser?: AsUser,
  ): Promise<PlatformPage<UserProfile>>;
  followers(userId: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>>;
  following(userId: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>>;
  verifiedFollowers(userId: string, page: PageRequest): Promise<PlatformPage<UserProfile>>;
  /** Followers of `userId` that `viewerId` follows. */
  followersYouKnow(viewerId: string, userId: string, page: PageRequest): Promise<PlatformPage<UserProfile>>;
  /** Whether `sourceId` follows `targetId`, and the reverse. */
  checkFollow(sourceId: string, targetId: string): Promise<{ isFollowing: boolean; isFollowedBy: boolean }>;
  listMemberships(userId: string, page: PageRequest): Promise<PlatformPage<PlatformList>>;

  // Tweets
  getTweet(id: string): Promise<TweetLookup>;
  getTweets(ids: readonly string[]): Promise<Tweet[]>;
  searchTweets(search: TweetSearch, page: PageRequest): Promise<PlatformPage<Tweet>>;
  userTweets(
    userId: string,
    opts: TweetFilters & { includeReplies?: boolean },
    page: PageRequest,
  ): Promise<PlatformPage<Tweet>>;
  userReplies(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>>;
  /** `asUser`: the caller's connected account, for a platform that serves likes only to a user token (xapi). */
  userLikes(userId: string, page: PageRequest, asUser?: AsUser): Promise<PlatformPage<Tweet>>;
  userMedia(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>>;
  userMentions(userId: string, page: PageRequest): Promise<PlatformPage<Tweet>>;
  replies(tweetId: string, filters: TweetFilters, page: PageRequest): Promise<PlatformPage<Tweet>>;
  quotes(tweetId: string, filters: TweetFilters, page: PageRequest): Promise<PlatformPage<Tweet>>;
  thread(tweetId: string, page: PageRequest): Promise<PlatformPage<Tweet>>;
  /**
   * The replies under a tweet walked as a tree, `minDepth` to `maxDepth` levels deep, in thread order
   * (pre-order: each reply followed by the replies to it; siblings by `order`). Hidden replies (deleted,
   * protected or suspended authors) are not returned, but the replies to them are still walked.
   */
  replyTree(tweetId: string, opts: ReplyTreeOptions, page: PageRequest): Promise<PlatformPage<ReplyNode>>;
  retweeters(tweetId: string, filters: UserFilters, page: PageRequest): Promise<PlatformPage<UserProfile>>;
  /** `asUser`: as for {@link Platform.userLikes}. */
  favoriters(
    tweetId: string,
    filters: UserFilters,
    page: PageRequest,
    asUser?: AsUser,
  ): Promise<PlatformPage<UserProfile>>;

  // Lists, communities, articles, trends, jobs
  listMembers(listId: string, page: PageRequest): Promise<PlatformPage<UserProfile> | undefined>;
  listFollowers(listId: string, page: PageRequest): Promise<PlatformPage<UserProfile> | undefined>;
  listTweets(listId: string, page: PageRequest): Promise<PlatformPage<Tweet> | undefined>;
  community(id: string): Promise<PlatformCommunity | undefined>;
  communityMembers(
    id: string,
    role: 'member' | 'moderator',
    page: PageRequest,
  ): Promise<PlatformPage<UserProfile> | undefined>;
  communityTweets(id: string, page: PageRequest): Promise<PlatformPage<Tweet> | undefined>;
  searchCommunityTweets(
    q: string,
    communityId: string | undefined,
    page: PageRequest,
  ): Promise<PlatformPage<Tweet>>;
  /** The people of an audio space (host, speakers, listeners); `undefined` when there is no such space. */
  spaceParticipants(spaceId: string, page: PageRequest): Promise<PlatformPage<UserProfile> | undefined>;
  article(tweetId: string): Promise<PlatformArticle | undefined>;
  trends(woeid: number): Promise<PlatformTrend[]>;
  /** A job listing (spec 2.12) by id; `closed` when it no longer accepts applications. */
  job(id: string): Promise<{ job: Record<string, unknown>; closed: boolean } | undefined>;

  // Private reads of a connected account (its platform user id)
  // `session` is the connected account's session (xapi reads with its OAuth 2.0 token; simulated needs none).
  bookmarks(
    userId: string,
    folderId: string | undefined,
    page: PageRequest,
    session?: string,
  ): Promise<PlatformPage<Tweet>>;
  bookmarkFolders(userId: string, session?: string): Promise<{ id: string; name: string }[]>;
  homeTimeline(userId: string, page: PageRequest, session?: string): Promise<PlatformPage<Tweet>>;
  notifications(
    userId: string,
    page: PageRequest,
    session?: string,
  ): Promise<PlatformPage<PlatformNotification>>;
  dmHistory(
    userId: string,
    otherUserId: string,
    page: PageRequest,
    session?: string,
  ): Promise<PlatformPage<PlatformDm>>;

  // Batched reads of the monitors' check engine: one call covers every watched account of a check.
  /**
   * The id of the newest tweet `authorId` ever posted (hidden, deleted and reposts included), or undefined
   * when there is none: the watermark a monitor takes at creation, so nothing older is ever reported.
   */
  newestTweetId(authorId: string): Promise<string | undefined>;
  /**
   * Tweets any reader may see (originals, replies, quotes, reposts) by any of `authorIds` with an id above
   * `sinceId`, oldest first, reading at most `limit`. `nextSinceId` is present when more may follow: call
   * again with it as `sinceId`.
   */
  tweetsByAuthorsSince(authorIds: readonly string[], sinceId: string, limit: number): Promise<AuthorTweets>;
  /**
   * A change stamp per account: an opaque string that differs whenever a profile field may have changed
   * (suspension included); an account that no longer exists is absent from `stamps`. `digest` sums the
   * stamps up: passed back as `ifChanged` with the same ids, `stamps` is left out when nothing changed
   * (a conditional read, like an HTTP `If-None-Match`).
   */
  profileStamps(ids: readonly string[], ifChanged?: string): Promise<ProfileStamps>;
  /**
   * Optional, for a platform that delivers keyword matches itself (the xapi platform on X's filtered stream):
   * the posts matching a keyword monitor's `query` with an id above `sinceId`, oldest first, at most `limit`
   * (`nextSinceId` as for {@link tweetsByAuthorsSince}). Without it keyword checks run `searchTweets`.
   */
  keywordTweetsSince?(query: string, sinceId: string, limit: number): Promise<AuthorTweets>;
  /**
   * Optional: how far back {@link searchTweets} reaches (ms before now), where it refuses an older
   * `sinceTime` (xapi: recent search's 7 days, less a margin for clock skew). Keyword checks start their
   * search no earlier; absent, a search reaches back without limit.
   */
  readonly searchReachMs?: number;
  /**
   * Optional: called before a keyword monitor of `query` is created or resumed, so the platform can start
   * watching it (a filtered stream rule); throws when it cannot (an invalid query is a 400).
   */
  watchKeyword?(query: string): Promise<void>;
  /** Optional: stops the platform's background work (the filtered stream connection) when the server closes. */
  close?(): Promise<void>;

  /**
   * How often the monitors can be checked within the platform's request budget for `load`; absent on a
   * platform whose monitor reads cost no rate-limited requests (the simulated one: every check runs at the
   * nominal interval).
   */
  monitorPace?(load: MonitorLoad, nominalMs: number): Promise<MonitorPace>;

  // Connected accounts: logging in as an account, and the writes it performs (see `account-writes.ts`)
  /** Logs in as an account: a session, a request for an e-mailed code, or a rejection. */
  login(credentials: LoginCredentials): Promise<LoginOutcome>;
  /** Continues a login that asked for an e-mailed code (`flow` from the `email_code` outcome). */
  submitLoginCode(flow: string, code: string): Promise<LoginOutcome>;
  /** Ends a session (a disconnected account); nothing when it is already gone. */
  logout(session: string): Promise<void>;
  /**
   * Whether `session` must be renewed before it is used at `now` (an access token about to expire), and the
   * renewed session when it must.
   */
  renewSession(session: string, now: number): Promise<SessionRenewal>;
  /**
   * Performs a write as `actor`. `token` identifies the write: the platform performs a token at most once
   * and answers a repeat with the first outcome. Throws `PlatformUnavailableError` when the write was not
   * sent; any other throw leaves the outcome unknown (see {@link writeReceipt}).
   */
  write(token: string, actor: WriteActor, command: WriteCommand): Promise<WriteOutcome>;
  /** The outcome of the write `token`, once the platform performed it; undefined when it did not (yet). */
  writeReceipt(token: string): Promise<WriteOutcome | undefined>;
}

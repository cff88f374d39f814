/**
 * What every operation of the contract does on the `xapi` platform, and every request the platform makes to
 * X, with how it is made. The source of truth of the operations table of `docs/guides/xapi.md` and of the
 * call-by-call table of `docs/dev/xapi.md` (both written by `docs/scripts/generate-reference.ts`), kept here,
 * beside the code it describes. `test/xapi/operations.test.ts` holds it to the contract (one record per
 * operation, no more, no fewer), to X's facts table (every request listed is one of X's, and takes the
 * token it is sent with) and to the code (each refusal is answered, each request is made where it says).
 * Data only: nothing here changes what the platform does.
 */
import type { operationsById } from '@xsvc/sdk/contract';

/**
 * Every operation id of the contract, as `core/http/handler.ts` names it, from the contract alone: the docs'
 * generator imports this file, and must not pull the server's types in with it.
 */
type OperationId = keyof typeof operationsById;

/**
 * How an operation is served on xapi:
 * - `x-read`: read from X with the app's bearer token;
 * - `user-token`: sent with a connected account's OAuth 2.0 token (writes, private reads, likes);
 * - `x-oauth`: X's OAuth 2.0 of a connected account (the owner approves on X; tokens traded and revoked);
 * - `own-data`: answered from the server's own data, X is not called;
 * - `refused`: refused on xapi, nothing is sent to X.
 */
export type XapiHandling = 'x-read' | 'user-token' | 'x-oauth' | 'own-data' | 'refused';

/** An X request as X's description names it: method and path template (`GET /2/users/{id}`). */
export type XRequest = `${'GET' | 'POST' | 'PUT' | 'DELETE'} /2/${string}`;

/** One operation on xapi. */
export interface XapiOperation {
  readonly xapi: XapiHandling;
  /** The X requests it may make, as X's description names them (see {@link X_CALLS}); none for `own-data`. */
  readonly x?: readonly XRequest[];
  /** What it does on xapi, in a sentence. */
  readonly note: string;
  /** The error code a `refused` operation answers with. */
  readonly refusal?: 'x_api_unavailable' | 'x_rejected' | 'connection_challenge_inactive';
}

const own = (note: string): XapiOperation => ({ xapi: 'own-data', note });
const read = (x: readonly XRequest[], note: string): XapiOperation => ({ xapi: 'x-read', x, note });
const asAccount = (x: readonly XRequest[], note: string): XapiOperation => ({ xapi: 'user-token', x, note });
const unavailable = (note: string): XapiOperation => ({
  xapi: 'refused',
  refusal: 'x_api_unavailable',
  note,
});
const noWriteEndpoint = (what: string): XapiOperation => ({
  xapi: 'refused',
  refusal: 'x_rejected',
  note: `the write ends \`failed\` with \`x_rejected\`: X API v2 has no endpoint for ${what}; nothing is sent or charged`,
});

const USER: readonly XRequest[] = ['GET /2/users/{id}', 'GET /2/users/by/username/{username}'];
const TWEET: XRequest = 'GET /2/tweets/{id}';
const AUTHORS: XRequest = 'GET /2/users';
const SEARCH: readonly XRequest[] = ['GET /2/tweets/search/recent', 'GET /2/tweets/search/all'];
/** X's media upload: one request, or the chunked upload and its status checks. */
const MEDIA_UPLOAD: readonly XRequest[] = [
  'POST /2/media/upload',
  'POST /2/media/upload/initialize',
  'POST /2/media/upload/{id}/append',
  'POST /2/media/upload/{id}/finalize',
  'GET /2/media/upload',
];
const CONNECT: readonly XRequest[] = ['POST /2/oauth2/token', 'GET /2/users/me'];
/** The filtered stream and its rules, with `X_API_MONITOR_SOURCE=stream`. */
const STREAM: readonly XRequest[] = [
  'GET /2/tweets/search/stream',
  'GET /2/tweets/search/stream/rules',
  'POST /2/tweets/search/stream/rules',
  'GET /2/tweets/search/stream/rules/counts',
];

/**
 * Every operation of the contract on xapi. `satisfies Record<OperationId, …>` makes a missing or unknown
 * operation a compile error; the test checks the same at run time.
 */
export const XAPI_OPERATIONS = {
  // Account, API keys, billing
  getAccount: own('the service account, its plan and credits'),
  updateAccount: own('the account’s locale'),
  setXIdentity: own('stores the linked username; X is not asked'),
  listApiKeys: own('the dashboard’s API keys'),
  createApiKey: own('the dashboard’s API keys'),
  revokeApiKey: own('the dashboard’s API keys'),
  subscribe: own('the service’s own checkout'),
  getCredits: own('the service’s credit balance'),
  topUpCredits: own('the service’s own checkout'),
  updateAutoTopup: own('the service’s automatic top-up'),
  getCreditTopupStatus: own('the service’s own checkout'),
  redirectTopupCheckout: own('the service’s own checkout'),
  quickTopUpCredits: own('the service’s own checkout'),

  // Composition
  compose: own('drafting, refining and scoring run on the server; X is not called'),
  listDrafts: own('drafts kept by the server'),
  createDraft: own('drafts kept by the server'),
  getDraft: own('drafts kept by the server'),
  deleteDraft: own('drafts kept by the server'),
  listStyles: own('styles kept by the server'),
  analyzeStyle: read(
    ['GET /2/users/by/username/{username}', 'GET /2/users/{id}/tweets', AUTHORS],
    'the user’s profile, then their original posts from their timeline, analysed on the server',
  ),
  compareStyles: own('compares two styles already analysed; X is not called'),
  getStyle: own('styles kept by the server'),
  saveStyle: own('styles kept by the server'),
  deleteStyle: own('styles kept by the server'),
  getStylePerformance: read(
    ['GET /2/tweets', AUTHORS],
    'the style’s sample posts looked up by id (100 per request) for their current counters',
  ),
  getRadar: own('the radar’s feed comes from the server’s own sources, not from X'),

  // Monitors and events
  listMonitors: own('monitors kept by the server'),
  createMonitor: read(
    [...USER, 'GET /2/users/{id}/tweets', 'GET /2/tweets/search/recent', AUTHORS, ...STREAM],
    'the account is looked up and its newest post taken as the start; each check then reads every watched account through recent search (`from:<id> OR …` packed to the query limit, `since_id`) and profiles (`GET /2/users`), at the interval the app’s request budget allows (refused when it cannot serve one more), or with `X_API_MONITOR_SOURCE=stream` reads what the filtered stream delivered under a `from:` rule (see Monitors)',
  ),
  getMonitor: own('monitors kept by the server'),
  updateMonitor: read(
    ['GET /2/users/{id}', 'GET /2/users/{id}/tweets', AUTHORS],
    'a new start is taken as for `createMonitor`',
  ),
  deleteMonitor: own('monitors kept by the server'),
  listKeywordMonitors: own('monitors kept by the server'),
  createKeywordMonitor: read(
    ['GET /2/tweets/search/recent', AUTHORS, ...STREAM],
    'a recent search of the query gives the start; each check is one recent search (last 7 days), shared by the monitors of the same query, or with `X_API_MONITOR_SOURCE=stream` the query is a stream rule (checked with `dry_run`) and each check reads what the stream delivered',
  ),
  getKeywordMonitor: own('monitors kept by the server'),
  updateKeywordMonitor: read(
    ['GET /2/tweets/search/recent', AUTHORS],
    'a new start, as for `createKeywordMonitor`',
  ),
  deleteKeywordMonitor: own('monitors kept by the server'),
  listEvents: own('events the monitors recorded'),
  getEvent: own('events the monitors recorded'),

  // Extractions and draws
  listExtractions: own('extraction jobs kept by the server'),
  createExtraction: read(
    [
      TWEET,
      AUTHORS,
      ...USER,
      'GET /2/communities/{id}',
      'GET /2/lists/{id}/members',
      'GET /2/spaces/{id}',
      'GET /2/tweets/{id}/quote_tweets',
      'GET /2/tweets/{id}/retweeted_by',
      'GET /2/users/{id}/followers',
      'GET /2/users/{id}/following',
      'GET /2/users/{id}/tweets',
      'GET /2/users/{id}/mentions',
      'GET /2/lists/{id}/followers',
      'GET /2/lists/{id}/tweets',
      ...SEARCH,
    ],
    'the target is looked up, then each tool reads through the read it stands for, with the app token; `favoriters`, `user_likes` and `people_search` make `GET /2/tweets/{id}/liking_users`, `GET /2/users/{id}/liked_tweets` and `GET /2/users/search` with a connected account of the job’s owner (without one they fail as `getTweetFavoriters` is refused); the tools whose read is refused on xapi (community members and posts, verified followers, community search) fail',
  ),
  estimateExtraction: read(
    [TWEET, AUTHORS, ...USER, 'GET /2/communities/{id}', 'GET /2/lists/{id}/members', 'GET /2/spaces/{id}'],
    'the target is looked up; the estimate itself is the server’s',
  ),
  getExtraction: own('extraction jobs kept by the server'),
  exportExtraction: own('the results the job stored'),
  listDraws: own('draws kept by the server'),
  createDraw: read(
    [TWEET, ...SEARCH, 'GET /2/tweets/{id}/retweeted_by', AUTHORS, 'GET /2/users/{id}/following'],
    'the entries are the post’s replies (conversation search), then its reposters and follow checks when the draw asks for them',
  ),
  createDrawCommitment: own('the commitment is made on the server'),
  getDraw: own('draws kept by the server'),
  exportDraw: own('draws kept by the server'),

  // Webhooks
  listWebhooks: own('webhooks kept by the server'),
  createWebhook: own('webhooks kept by the server'),
  updateWebhook: own('webhooks kept by the server'),
  deleteWebhook: own('webhooks kept by the server'),
  listWebhookDeliveries: own('deliveries the server made'),
  testWebhook: own('a test delivery to the webhook’s URL; X is not called'),
  resumeWebhook: own('a test delivery to the webhook’s URL; X is not called'),

  // Posts
  getBatchTweets: read(['GET /2/tweets', AUTHORS], 'looked up 100 ids per request'),
  searchTweets: read(
    ['GET /2/tweets/search/recent', TWEET, AUTHORS],
    'recent search (last 7 days) with the filters as operators, the rest applied to each page; a status URL as `q` is that post',
  ),
  lookupTweet: read(
    [TWEET, AUTHORS],
    'the post; authors of referenced posts X did not include are looked up',
  ),
  getTweetFavoriters: asAccount(
    [TWEET, 'GET /2/tweets/{id}/liking_users'],
    'the post with the app token, its liking users with a connected account’s token (`like.read`); without one, refused with `x_api_unavailable` naming the limitation',
  ),
  getBookmarks: asAccount(
    [
      'GET /2/users/{id}/bookmarks',
      'GET /2/users/{id}/bookmarks/folders/{folder_id}',
      'GET /2/tweets',
      AUTHORS,
    ],
    'the account’s bookmarks (missing authors looked up with its token); a folder lists post ids, which are looked up with the app token',
  ),
  getBookmarkFolders: asAccount(['GET /2/users/{id}/bookmarks/folders'], 'the account’s bookmark folders'),
  getTimeline: asAccount(
    ['GET /2/users/{id}/timelines/reverse_chronological', AUTHORS],
    'the account’s home timeline, newest first',
  ),
  getTweetQuotes: read([TWEET, 'GET /2/tweets/{id}/quote_tweets', AUTHORS], 'the quoting posts, filtered'),
  getTweetReplies: read(
    [TWEET, ...SEARCH, AUTHORS],
    'the conversation through recent search; a post older than 7 days needs full-archive search (`X_API_FULL_ARCHIVE`), else refused',
  ),
  getTweetRetweeters: read([TWEET, 'GET /2/tweets/{id}/retweeted_by'], 'the reposting users, filtered'),
  getTweetThread: read([TWEET, ...SEARCH, AUTHORS], 'the author’s posts of the conversation, as for replies'),
  viralScore: read(
    [
      TWEET,
      'GET /2/tweets',
      ...USER,
      'GET /2/users/{id}/tweets',
      'GET /2/tweets/{id}/quote_tweets',
      ...SEARCH,
      'GET /2/lists/{id}/tweets',
      AUTHORS,
    ],
    'the posts to score are read as the body names them; the score is the server’s',
  ),

  // Writes (durable write actions, the account's token)
  createTweet: asAccount(
    ['POST /2/tweets', ...MEDIA_UPLOAD],
    'replies, quotes (a status URL at the end of the text) and `community_id` passed on; each `media` URL is downloaded through the SSRF guard and uploaded as the account (as `uploadMedia`), then attached by its media id',
  ),
  getWriteActionStatus: own('the write action the server keeps; X has no idempotency key to ask'),
  deleteTweet: asAccount(['DELETE /2/tweets/{id}'], 'deletes the account’s post'),
  likeTweet: asAccount(['POST /2/users/{id}/likes'], 'as the account'),
  unlikeTweet: asAccount(['DELETE /2/users/{id}/likes/{tweet_id}'], 'as the account'),
  retweet: asAccount(['POST /2/users/{id}/retweets'], 'as the account'),
  unretweet: asAccount(['DELETE /2/users/{id}/retweets/{source_tweet_id}'], 'as the account'),
  followUser: asAccount(
    ['GET /2/users/by/username/{username}', 'POST /2/users/{id}/following'],
    'a username is looked up first, as the account',
  ),
  unfollowUser: asAccount(
    ['GET /2/users/by/username/{username}', 'DELETE /2/users/{source_user_id}/following/{target_user_id}'],
    'a username is looked up first, as the account',
  ),
  removeFollower: noWriteEndpoint('removing a follower'),
  sendDm: asAccount(
    ['POST /2/dm_conversations/with/{participant_id}/messages'],
    '`media_ids` as attachments',
  ),
  uploadMedia: asAccount(
    MEDIA_UPLOAD,
    'JPEG, PNG, WebP (5 MB) and GIFs up to 5 MB in one request; MP4 and MOV videos (512 MB, `tweet_video`) and larger GIFs (15 MB) through X’s chunked upload, X’s processing waited for (`check_after_secs`, at most 2 minutes); a `url` is downloaded through the SSRF guard first (`media_download_failed`, `unsupported_media_type`, `body_too_large`)',
  ),
  updateProfile: noWriteEndpoint('profile updates'),
  updateAvatar: noWriteEndpoint('avatar updates'),
  updateBanner: noWriteEndpoint('banner updates'),
  createCommunity: noWriteEndpoint('creating a community'),
  deleteCommunity: noWriteEndpoint('deleting a community'),
  joinCommunity: noWriteEndpoint('joining a community'),
  leaveCommunity: noWriteEndpoint('leaving a community'),

  // Trends, articles
  getXTrends: read(['GET /2/trends/by/woeid/{woeid}'], 'the trends of a place (WOEID)'),
  getTrends: read(['GET /2/trends/by/woeid/{woeid}'], 'the trends of a region’s WOEID'),
  getArticle: read([TWEET, AUTHORS], 'the post with `post.fields=article,article_title`'),

  // Users
  getBatchUsers: read([AUTHORS], 'looked up 100 ids per request'),
  searchUsers: asAccount(
    ['GET /2/users/search'],
    "with a connected account’s token (`tweet.read`, `users.read`): X serves user search only to a user token; without one, refused with `x_api_unavailable` naming the limitation, as is search text X does not take (1–50 letters, digits, spaces, `_`, `'`)",
  ),
  getUser: read(USER, 'by id or username; a suspended account is told apart from a missing one'),
  checkFollow: read(
    [...USER, AUTHORS, 'GET /2/users/{id}/following'],
    `both directions from each side's following list (X API v2 has no relationship lookup), at most 1,000 followings scanned`,
  ),
  getUserTweets: read([...USER, 'GET /2/users/{id}/tweets', AUTHORS], 'the user’s timeline'),
  getUserReplies: read(
    [...USER, 'GET /2/users/{id}/tweets', AUTHORS],
    'the user’s timeline, kept to replies',
  ),
  getUserLikes: asAccount(
    [...USER, 'GET /2/users/{id}/liked_tweets', AUTHORS],
    'the user with the app token, their liked posts with a connected account’s token (`like.read`); without one, refused with `x_api_unavailable` naming the limitation',
  ),
  getUserMedia: read(
    [...USER, 'GET /2/users/{id}/tweets', AUTHORS],
    'the user’s timeline, kept to posts with media',
  ),
  getFollowersYouKnow: unavailable(
    'X API v2 has no endpoint for followers you know; the viewer and the user are looked up first (app token), so an unknown user answers 404 and a protected one 403 before the refusal',
  ),
  getNotifications: unavailable('X API v2 has no notifications endpoint'),
  getDmHistory: asAccount(
    [
      ...USER,
      AUTHORS,
      'GET /2/users/{id}/following',
      'GET /2/dm_conversations/with/{participant_id}/dm_events',
    ],
    'the other user with the app token (a protected one must follow the account: a follow check), the conversation’s message events with the account’s token',
  ),
  getUserFollowers: read([...USER, 'GET /2/users/{id}/followers'], 'up to 1,000 per request, filtered'),
  getUserFollowing: read([...USER, 'GET /2/users/{id}/following'], 'up to 1,000 per request, filtered'),
  getUserMentions: read([...USER, 'GET /2/users/{id}/mentions', AUTHORS], 'the posts mentioning the user'),
  getUserVerifiedFollowers: unavailable(
    'X API v2 has no verified-followers listing; the user is looked up first (app token), so an unknown user answers 404 and a protected one 403 before the refusal',
  ),
  getUserListMemberships: read([...USER, 'GET /2/users/{id}/list_memberships'], 'the lists the user is in'),
  getJob: unavailable('X API v2 has no job listings'),
  downloadMedia: read(
    [TWEET, 'GET /2/tweets', AUTHORS],
    'the posts are read for their media; the gallery is kept by the server',
  ),

  // Connected accounts
  listXAccounts: own('connections kept by the server'),
  connectXAccount: {
    xapi: 'x-oauth',
    x: CONNECT,
    note: 'answers X’s consent URL (nothing sent); after the owner approves, the callback trades the code for tokens and asks X who they act as',
  },
  getXAccountConnectionAttempt: own('the attempt the server keeps, with X’s consent URL while pending'),
  submitXAccountConnectionChallenge: {
    xapi: 'refused',
    refusal: 'connection_challenge_inactive',
    note: 'X’s approval arrives at the callback, never as a code: an xapi attempt’s challenge answers 409 `connection_challenge_inactive`',
  },
  getXAccount: own('the connection and its health'),
  disconnectXAccount: {
    xapi: 'x-oauth',
    x: ['POST /2/oauth2/revoke'],
    note: 'revokes the refresh and access tokens on X, then forgets them',
  },
  reauthXAccount: {
    xapi: 'x-oauth',
    x: [...CONNECT, 'POST /2/oauth2/revoke'],
    note: 'a new consent URL, as for connecting; the old tokens are revoked once new ones replace them',
  },
  bulkRetryXAccounts: own('clears temporary issues the server recorded'),

  // Support, guest wallets
  downloadSupportAttachment: own('support kept by the server'),
  createTicket: own('support kept by the server'),
  listTickets: own('support kept by the server'),
  getTicket: own('support kept by the server'),
  updateTicketStatus: own('support kept by the server'),
  addTicketMessage: own('support kept by the server'),
  createGuestWallet: own('the service’s guest wallets'),
  topUpGuestWallet: own('the service’s guest wallets'),
  getGuestWalletStatus: own('the service’s guest wallets'),

  // Communities, lists
  getCommunityInfo: read(
    ['GET /2/communities/{id}'],
    'X names no creator or moderator count, so those stay absent',
  ),
  getCommunityMembers: unavailable('X API v2 has no community member listing'),
  getCommunityModerators: unavailable('X API v2 has no community member listing'),
  getCommunityTweets: unavailable('X API v2 has no community timeline'),
  searchCommunities: unavailable(
    'X API v2 has no search of community posts (`GET /2/communities/search` finds communities by name)',
  ),
  getAllCommunityTweets: unavailable(
    'X API v2 has no search of community posts (`GET /2/communities/search` finds communities by name)',
  ),
  getListFollowers: read(['GET /2/lists/{id}/followers'], 'the list’s followers'),
  getListMembers: read(['GET /2/lists/{id}/members'], 'the list’s members'),
  getListTweets: read(['GET /2/lists/{id}/tweets', AUTHORS], 'the list’s posts'),

  // Discovery and the service's own OAuth 2.1 (for its API, not X's)
  askQuery: own('answers from the service’s own documentation'),
  askPost: own('answers from the service’s own documentation'),
  getOpenApiJson: own('the service’s OpenAPI document'),
  getOpenApiYaml: own('the service’s OpenAPI document'),
  getApiCatalog: own('the service’s API catalog'),
  getAuthorizationServerMetadata: own('the service’s own OAuth 2.1 (for its API, not X’s)'),
  getProtectedResourceMetadata: own('the service’s own OAuth 2.1 (for its API, not X’s)'),
  getHealth: own('the server’s own health'),
  oauthAuthorize: own('the service’s own OAuth 2.1 (for its API, not X’s)'),
  oauthToken: own('the service’s own OAuth 2.1 (for its API, not X’s)'),
  oauthRegister: own('the service’s own OAuth 2.1 (for its API, not X’s)'),
  oauthRevoke: own('the service’s own OAuth 2.1 (for its API, not X’s)'),
} as const satisfies Record<OperationId, XapiOperation>;

/**
 * The operations of the contract beyond the 127 of the published operations reference: the ones the
 * interface spec adds, the service's discovery and OAuth 2.1 endpoints, and the service's own additions.
 */
export const BEYOND_REFERENCE: readonly OperationId[] = [
  'updateAutoTopup',
  'redirectTopupCheckout',
  'createDrawCommitment',
  'viralScore',
  'getUserListMemberships',
  'getJob',
  'askQuery',
  'askPost',
  'getOpenApiJson',
  'getOpenApiYaml',
  'getApiCatalog',
  'getAuthorizationServerMetadata',
  'getProtectedResourceMetadata',
  'getHealth',
  'oauthAuthorize',
  'oauthToken',
  'oauthRegister',
  'oauthRevoke',
];

/** How a request is sent: the platform's own `XApiClient`, `@xdevplatform/xdk`'s `Client`, or a plain `fetch`. */
export type XTransport = 'XApiClient' | 'xdk' | 'fetch';

/** One request the platform makes to X. */
export interface XCall {
  readonly request: XRequest;
  /** The token it carries: the app's bearer token, a connected account's, or the app's OAuth 2.0 client. */
  readonly token: 'app' | 'user' | 'client';
  readonly via: XTransport;
  /** The xdk method that makes (`via: 'xdk'`) or would make this request; none where xdk has none. */
  readonly sdk?: string;
  /** Where in `platform/xapi/` it is made. */
  readonly file: string;
  /**
   * The path as the source writes it when a variable names a segment X's template fixes: `{what}` stands
   * for the source's `${what}` (`/2/lists/{listId}/{what}`).
   */
  readonly code?: string;
  /** Why it is made this way (R1–R6: the reasons table of docs/dev/xapi.md). */
  readonly why: string;
}

const OWN_READ = 'R1–R6: a read of the app, mapped from X’s wire names';
const OWN_USER_READ = 'R1–R6, as the app’s reads: the same client with the account’s token (`withToken`)';
const XDK_WRITE =
  'typed bodies and answers; xdk’s transport is replaced (`user-client.ts`): the `fetch` of the call, no redirects, a request that never left told apart from one without answer (R1, R4)';

/** Every request the platform makes to X, and how. */
export const X_CALLS: readonly XCall[] = [
  // The app's reads
  {
    request: 'GET /2/users/{id}',
    token: 'app',
    via: 'XApiClient',
    sdk: 'users.getById',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/users/by/username/{username}',
    token: 'app',
    via: 'XApiClient',
    sdk: 'users.getByUsername',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/users',
    token: 'app',
    via: 'XApiClient',
    sdk: 'users.getByIds',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/users/{id}/followers',
    token: 'app',
    via: 'XApiClient',
    sdk: 'users.getFollowers',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/users/{id}/following',
    token: 'app',
    via: 'XApiClient',
    sdk: 'users.getFollowing',
    file: 'relations.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/users/{id}/list_memberships',
    token: 'app',
    via: 'XApiClient',
    sdk: 'users.getListMemberships',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/users/{id}/tweets',
    token: 'app',
    via: 'XApiClient',
    sdk: 'users.getPosts',
    file: 'monitor-reads.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/users/{id}/mentions',
    token: 'app',
    via: 'XApiClient',
    sdk: 'users.getMentions',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/tweets/{id}',
    token: 'app',
    via: 'XApiClient',
    sdk: 'posts.getById',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/tweets',
    token: 'app',
    via: 'XApiClient',
    sdk: 'posts.getByIds',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/tweets/search/recent',
    token: 'app',
    via: 'XApiClient',
    sdk: 'posts.searchRecent',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/tweets/search/all',
    token: 'app',
    via: 'XApiClient',
    sdk: 'posts.searchAll',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/tweets/{id}/quote_tweets',
    token: 'app',
    via: 'XApiClient',
    sdk: 'posts.getQuoted',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/tweets/{id}/retweeted_by',
    token: 'app',
    via: 'XApiClient',
    sdk: 'posts.getRepostedBy',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/lists/{id}/members',
    token: 'app',
    via: 'XApiClient',
    sdk: 'lists.getMembers',
    file: 'xapi-platform.ts',
    code: '/2/lists/{listId}/{what}',
    why: OWN_READ,
  },
  {
    request: 'GET /2/lists/{id}/followers',
    token: 'app',
    via: 'XApiClient',
    sdk: 'lists.getFollowers',
    file: 'xapi-platform.ts',
    code: '/2/lists/{listId}/{what}',
    why: OWN_READ,
  },
  {
    request: 'GET /2/lists/{id}/tweets',
    token: 'app',
    via: 'XApiClient',
    sdk: 'lists.getPosts',
    file: 'xapi-platform.ts',
    code: '/2/lists/{listId}/{what}',
    why: OWN_READ,
  },
  {
    request: 'GET /2/communities/{id}',
    token: 'app',
    via: 'XApiClient',
    sdk: 'communities.getById',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/spaces/{id}',
    token: 'app',
    via: 'XApiClient',
    sdk: 'spaces.getById',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },
  {
    request: 'GET /2/trends/by/woeid/{woeid}',
    token: 'app',
    via: 'XApiClient',
    sdk: 'trends.getByWoeid',
    file: 'xapi-platform.ts',
    why: OWN_READ,
  },

  // A connected account's reads
  {
    request: 'GET /2/users/{id}/bookmarks',
    token: 'user',
    via: 'XApiClient',
    sdk: 'users.getBookmarks',
    file: 'xapi-platform.ts',
    why: OWN_USER_READ,
  },
  {
    request: 'GET /2/users/{id}/bookmarks/folders',
    token: 'user',
    via: 'XApiClient',
    sdk: 'users.getBookmarkFolders',
    file: 'xapi-platform.ts',
    why: OWN_USER_READ,
  },
  {
    request: 'GET /2/users/{id}/bookmarks/folders/{folder_id}',
    token: 'user',
    via: 'XApiClient',
    sdk: 'users.getBookmarksByFolderId',
    file: 'xapi-platform.ts',
    why: OWN_USER_READ,
  },
  {
    request: 'GET /2/users/{id}/timelines/reverse_chronological',
    token: 'user',
    via: 'XApiClient',
    sdk: 'users.getTimeline',
    file: 'xapi-platform.ts',
    why: OWN_USER_READ,
  },
  {
    request: 'GET /2/dm_conversations/with/{participant_id}/dm_events',
    token: 'user',
    via: 'XApiClient',
    sdk: 'directMessages.getEventsByParticipantId',
    file: 'xapi-platform.ts',
    why: OWN_USER_READ,
  },
  {
    request: 'GET /2/users',
    token: 'user',
    via: 'XApiClient',
    sdk: 'users.getByIds',
    file: 'pages.ts',
    why: `${OWN_USER_READ}; the authors of referenced posts on a page read with the account's token`,
  },
  {
    request: 'GET /2/users/{id}/liked_tweets',
    token: 'user',
    via: 'XApiClient',
    sdk: 'users.getLikedPosts',
    file: 'xapi-platform.ts',
    why: OWN_USER_READ,
  },
  {
    request: 'GET /2/tweets/{id}/liking_users',
    token: 'user',
    via: 'XApiClient',
    sdk: 'posts.getLikingUsers',
    file: 'xapi-platform.ts',
    why: OWN_USER_READ,
  },
  {
    request: 'GET /2/users/search',
    token: 'user',
    via: 'XApiClient',
    sdk: 'users.search',
    file: 'xapi-platform.ts',
    why: OWN_USER_READ,
  },

  // A connected account's identity and writes
  {
    request: 'GET /2/users/me',
    token: 'user',
    via: 'xdk',
    sdk: 'users.getMe',
    file: 'user-access.ts',
    why: 'who the new tokens act as, once per connection: through xdk as the writes are',
  },
  {
    request: 'POST /2/tweets',
    token: 'user',
    via: 'xdk',
    sdk: 'posts.create',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'DELETE /2/tweets/{id}',
    token: 'user',
    via: 'xdk',
    sdk: 'posts.delete',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'POST /2/users/{id}/likes',
    token: 'user',
    via: 'xdk',
    sdk: 'users.likePost',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'DELETE /2/users/{id}/likes/{tweet_id}',
    token: 'user',
    via: 'xdk',
    sdk: 'users.unlikePost',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'POST /2/users/{id}/retweets',
    token: 'user',
    via: 'xdk',
    sdk: 'users.repostPost',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'DELETE /2/users/{id}/retweets/{source_tweet_id}',
    token: 'user',
    via: 'xdk',
    sdk: 'users.unrepostPost',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'GET /2/users/by/username/{username}',
    token: 'user',
    via: 'xdk',
    sdk: 'users.getByUsername',
    file: 'writes.ts',
    why: 'the username a follow names, looked up as the account within the write, through the same xdk client',
  },
  {
    request: 'POST /2/users/{id}/following',
    token: 'user',
    via: 'xdk',
    sdk: 'users.followUser',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'DELETE /2/users/{source_user_id}/following/{target_user_id}',
    token: 'user',
    via: 'xdk',
    sdk: 'users.unfollowUser',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'POST /2/dm_conversations/with/{participant_id}/messages',
    token: 'user',
    via: 'xdk',
    sdk: 'directMessages.createByParticipantId',
    file: 'writes.ts',
    why: XDK_WRITE,
  },
  {
    request: 'POST /2/media/upload',
    token: 'user',
    via: 'xdk',
    sdk: 'media.upload',
    file: 'media-upload.ts',
    why: XDK_WRITE,
  },
  {
    request: 'POST /2/media/upload/initialize',
    token: 'user',
    via: 'xdk',
    sdk: 'media.initializeUpload',
    file: 'media-upload.ts',
    why: XDK_WRITE,
  },
  {
    request: 'POST /2/media/upload/{id}/append',
    token: 'user',
    via: 'xdk',
    sdk: 'media.appendUpload',
    file: 'media-upload.ts',
    why: `${XDK_WRITE}; each segment base64 in a JSON body, as xdk sends it`,
  },
  {
    request: 'POST /2/media/upload/{id}/finalize',
    token: 'user',
    via: 'xdk',
    sdk: 'media.finalizeUpload',
    file: 'media-upload.ts',
    why: XDK_WRITE,
  },
  {
    request: 'GET /2/media/upload',
    token: 'user',
    via: 'xdk',
    sdk: 'media.getUploadStatus',
    file: 'media-upload.ts',
    why: `${XDK_WRITE}; \`command=STATUS\` after each \`check_after_secs\` X names`,
  },

  // The monitors' filtered stream (`X_API_MONITOR_SOURCE=stream`)
  {
    request: 'GET /2/tweets/search/stream',
    token: 'app',
    via: 'fetch',
    sdk: 'stream.posts',
    file: 'stream-source.ts',
    why: 'xdk 0.6.6’s `stream.posts()` reports no heartbeats (no stall can be seen), its reconnect is a placeholder and it drops the 429 reset header: one `fetch` kept open, read line by line (`stream-connection.ts`)',
  },
  {
    request: 'GET /2/tweets/search/stream/rules',
    token: 'app',
    via: 'xdk',
    sdk: 'stream.getRules',
    file: 'stream-rules.ts',
    why: 'the rules kept in step with the monitors, typed by xdk',
  },
  {
    request: 'POST /2/tweets/search/stream/rules',
    token: 'app',
    via: 'xdk',
    sdk: 'stream.updateRules',
    file: 'stream-rules.ts',
    why: 'rules added and deleted (and keyword queries checked with `dry_run`), typed by xdk; its `x-rate-limit-*` headers feed the request budget (`userClient`’s `onAnswer`), and an edit is not sent while that window is spent',
  },
  {
    request: 'GET /2/tweets/search/stream/rules/counts',
    token: 'app',
    via: 'xdk',
    sdk: 'stream.getRuleCounts',
    file: 'stream-rules.ts',
    why: 'X’s rule cap for the app, kept to when lower than the configured one',
  },

  // X's OAuth 2.0 token endpoints (outside X's API description)
  {
    request: 'POST /2/oauth2/token',
    token: 'client',
    via: 'fetch',
    file: 'oauth.ts',
    why: 'xdk’s `exchangeCode` and `refreshToken` post to a fixed `https://api.x.com` with the global `fetch` and no timeout, and throw an untyped error; the consent URL and the PKCE pair do come from xdk (`OAuth2`)',
  },
  {
    request: 'POST /2/oauth2/revoke',
    token: 'client',
    via: 'fetch',
    file: 'oauth.ts',
    why: 'xdk has no revocation call',
  },
];

/** X's OAuth 2.0 token endpoints: real requests, but not in X's API description (nor its facts table). */
export const OUTSIDE_X_DESCRIPTION: readonly XRequest[] = ['POST /2/oauth2/token', 'POST /2/oauth2/revoke'];

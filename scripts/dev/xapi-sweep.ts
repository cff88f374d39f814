/**
 * `tsx scripts/dev/xapi-sweep.ts <openapi.json>`: calls every operation of the reference once on the `xapi`
 * platform, with X played by a strict mock of X's own published description of API v2, and says what X's
 * description thinks of every request the server sent. A developer's measurement, not a test: it needs the
 * description (`../shared/reference/x-api-v2/openapi-2.167.json`, not in the repository), `npx` and the npm
 * registry (Prism, `@stoplight/prism-cli@5`, is fetched by `npx`, never a dependency of the project), and a
 * built server (`pnpm -C packages/server build`).
 *
 * What it starts, on free loopback ports, and stops at the end:
 * 1. Prism, `mock --errors <description>`: a request the description does not allow gets 422 and an
 *    `sl-violations` header; any other an example answer of the documented shape.
 * 2. A recording proxy in front of Prism (the server's `X_API_BASE_URL`): every X request, Prism's status and
 *    its violations.
 * 3. The server (`packages/server/dist/bin.js`) with `XSVC_PLATFORM=xapi`, `X_BEARER_TOKEN=test`,
 *    `XSVC_SEED_SIZE=tiny`, a temporary SQLite file, a bootstrap API key for the owner and a known secret key.
 *    Once it answers, one connected account (X's example user `TwitterDev`, `2244994945`, every scope the
 *    platform asks for) is stored in its database the way `packages/server/test/xapi/accounts.ts` does, so
 *    the operations that act as an account reach X with a user token.
 *
 * Then each of the reference's 127 operations (`packages/sdk/test/contract/reference-operations.ts`) is
 * called once, with plausible parameters (X's example ids, the ids of what earlier calls created), the
 * deletes last. A write that answers with a write action is followed to its end (`getWriteActionStatus`).
 * The X requests seen while an operation runs (until the proxy has been quiet for a moment) are its own.
 *
 * It prints one row per operation (its handling on xapi from `XAPI_OPERATIONS`, status, error code, X
 * requests sent and Prism's verdicts) and the totals: 2xx, refused as documented, 5xx, operations that read
 * something from X, and every request refused by X's description with the violation messages. With
 * `--json <file>` it writes the rows too; with `--dynamic` Prism generates its answers (`-d`) instead of
 * answering its examples (`"id": "string"`, `"protected": true`). A refused request that passes on a value
 * of the mock's own answers is marked so: the mock's doing, not the request's. Exit code 0 unless it could not run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE } from '../../packages/sdk/test/contract/reference-operations.js';
import { SecretBox } from '../../packages/server/src/core/crypto/secret-box.js';
import { encodeSession, X_SCOPES } from '../../packages/server/src/platform/xapi/oauth.js';
import { XAPI_OPERATIONS, type XapiOperation } from '../../packages/server/src/platform/xapi/operations.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const requireServer = createRequire(join(ROOT, 'packages/server/package.json'));

/** X's example ids, as the description's examples spell them. */
const X = {
  userId: '2244994945',
  username: 'TwitterDev',
  other: 'XDevelopers',
  tweetId: '1346889436626259968',
  listId: '1146654567674912769',
  communityId: '1146654567674912769',
} as const;

/** One request the server sent to X, as the proxy saw it. */
export interface XExchange {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  /** Prism's `sl-violations` header, parsed (empty when the request was allowed). */
  readonly violations: readonly string[];
  /**
   * Whether the description refuses the request: a 422 or a violation located in the request. (Prism also
   * reports violations of its own example answer, `response.body…`, with a 500: those are the mock's.)
   */
  readonly refused: boolean;
  /**
   * For a refused request: its values that are not X's id pattern and that an earlier answer of the mock
   * carried (the server passing on an id the mock made up, `"string"`), else empty.
   */
  readonly echoed: readonly string[];
  readonly at: number;
}

/** What one operation did. */
export interface SweepRow {
  readonly op: string;
  readonly handling: XapiOperation['xapi'];
  readonly request: string;
  readonly status: number;
  readonly code: string;
  /** The error message, when it failed. */
  readonly message: string;
  /** The end of a write action it answered, if any. */
  readonly writeEnd?: string;
  readonly x: readonly XExchange[];
  readonly verdict: string;
}

/** A request to the server: path (with its query) and body. */
interface Call {
  readonly path: string;
  readonly body?: unknown;
  readonly multipart?: boolean;
  readonly headers?: Record<string, string>;
}

/** Ids of what earlier calls created, read from their answers. */
type Ids = Record<string, string | undefined>;

/** A free loopback port. */
async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createNetServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => ok(port));
    });
  });
}

/** Waits until `url` answers anything, or fails after `ms`. */
async function waitFor(url: string, ms: number, child: ChildProcess, name: string): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${name} did not answer ${url} within ${ms} ms`);
}

/** Prism's `sl-violations` header: a JSON array of `{ message, location }`. */
function parseViolations(header: string | string[] | undefined): string[] {
  if (!header) return [];
  const raw = Array.isArray(header) ? header.join(',') : header;
  try {
    const list = JSON.parse(raw) as { message?: string; location?: string[] }[];
    return list.map((v) => `${(v.location ?? []).join('.')}: ${v.message ?? ''}`);
  } catch {
    return [raw];
  }
}

/** Every string value in a JSON text (or nothing when it is not JSON). */
function jsonStrings(text: string, into: Set<string>): Set<string> {
  try {
    JSON.parse(text, (_k, v: unknown) => {
      if (typeof v === 'string') into.add(v);
      return v;
    });
  } catch {
    // not JSON (a multipart upload, an empty answer)
  }
  return into;
}

/** The values a request carries: its path segments, its query values and its JSON body's strings. */
function requestValues(url: string, body: string): Set<string> {
  const u = new URL(url, 'http://x');
  const values = jsonStrings(body, new Set<string>());
  for (const seg of u.pathname.split('/')) values.add(decodeURIComponent(seg));
  for (const v of u.searchParams.values()) for (const part of v.split(',')) values.add(part);
  return values;
}

/** The recording proxy: forwards every request to Prism and keeps what it saw in `log`. */
function startProxy(port: number, prismPort: number, log: XExchange[]): Promise<Server> {
  /** Every string the mock has answered so far. */
  const answered = new Set<string>();
  const server = createServer((req, res) => {
    const sent: Buffer[] = [];
    req.on('data', (c: Buffer) => sent.push(c));
    const up = httpRequest(
      { host: '127.0.0.1', port: prismPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const violations = parseViolations(answer.headers['sl-violations']);
        const refused = answer.statusCode === 422 || violations.some((v) => v.startsWith('request'));
        const echoed = refused
          ? [...requestValues(req.url ?? '/', Buffer.concat(sent).toString('utf8'))].filter(
              (v) => v !== '' && !/^[0-9]{1,19}$/.test(v) && answered.has(v),
            )
          : [];
        log.push({
          method: req.method ?? '?',
          url: req.url ?? '?',
          status: answer.statusCode ?? 0,
          violations,
          refused,
          echoed,
          at: Date.now(),
        });
        const got: Buffer[] = [];
        answer.on('data', (c: Buffer) => got.push(c));
        answer.on('end', () => jsonStrings(Buffer.concat(got).toString('utf8'), answered));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', (e) => {
      log.push({
        method: req.method ?? '?',
        url: req.url ?? '?',
        status: 0,
        violations: [String(e)],
        refused: false,
        echoed: [],
        at: Date.now(),
      });
      res.writeHead(502).end();
    });
    req.pipe(up);
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

/** Stores the connected account of the owner in the server's SQLite file, sealed as the server seals it. */
function seedConnection(dbFile: string, secret: string): void {
  const Database = requireServer('better-sqlite3') as new (
    f: string,
  ) => {
    prepare(sql: string): { get(...a: unknown[]): unknown; run(...a: unknown[]): unknown };
    close(): void;
  };
  const db = new Database(dbFile);
  const owner = db.prepare('select id from accounts where is_owner = 1').get() as { id: string };
  const now = Date.now();
  const session = encodeSession({
    accessToken: 'sweep-user-token',
    refreshToken: 'r',
    expiresAt: now + 7_200_000,
    scope: [...X_SCOPES],
  });
  db.prepare(
    `insert into x_accounts (id, account_id, x_user_id, x_username, status, health, created_at, updated_at,
       cookies_obtained_at, session_enc) values (?, ?, ?, ?, 'active', 'healthy', ?, ?, ?, ?)`,
  ).run(
    randomUUID(),
    owner.id,
    X.userId,
    X.username,
    now,
    now,
    now,
    SecretBox.fromSecret(secret).seal(session),
  );
  db.close();
}

/** A 1×1 PNG, for the uploads. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** An id of nothing, for a resource an earlier call failed to create. */
const NO_UUID = '00000000-0000-4000-8000-000000000000';

/** The request each operation is called with, given the ids created so far. */
function callFor(op: string, ids: Ids): Call {
  const acct = { account: X.username };
  const t = X.tweetId;
  const calls: Record<string, Call> = {
    getAccount: { path: '/api/v1/account' },
    updateAccount: { path: '/api/v1/account', body: { locale: 'en' } },
    setXIdentity: { path: '/api/v1/account/x-identity', body: { username: X.username } },
    listApiKeys: { path: '/api/v1/api-keys' },
    createApiKey: { path: '/api/v1/api-keys', body: { name: 'sweep' } },
    revokeApiKey: { path: `/api/v1/api-keys/${ids.apiKey ?? 'none'}` },
    subscribe: { path: '/api/v1/subscribe', body: { tier: 'pro' } },
    getCredits: { path: '/api/v1/credits' },
    topUpCredits: { path: '/api/v1/credits/topup', body: { dollars: 10 } },
    getCreditTopupStatus: { path: `/api/v1/credits/topup/status?session_id=${ids.topup ?? 'none'}` },
    quickTopUpCredits: { path: '/api/v1/credits/quick-topup', body: { dollars: 10 } },
    compose: { path: '/api/v1/compose', body: { step: 'compose', topic: 'open source', goal: 'engagement' } },
    listDrafts: { path: '/api/v1/drafts' },
    createDraft: { path: '/api/v1/drafts', body: { text: 'A draft about open source.' } },
    getDraft: { path: `/api/v1/drafts/${ids.draft ?? 'none'}` },
    deleteDraft: { path: `/api/v1/drafts/${ids.draft ?? 'none'}` },
    listStyles: { path: '/api/v1/styles' },
    analyzeStyle: { path: '/api/v1/styles', body: { username: X.username } },
    compareStyles: { path: `/api/v1/styles/compare?username1=${X.username}&username2=${X.other}` },
    getStyle: { path: `/api/v1/styles/${X.username}` },
    saveStyle: {
      path: `/api/v1/styles/${X.username}`,
      body: { label: 'sweep', tweets: [{ text: 'Hello from the sweep.' }] },
    },
    deleteStyle: { path: `/api/v1/styles/${X.username}` },
    getStylePerformance: { path: `/api/v1/styles/${X.username}/performance` },
    getRadar: { path: '/api/v1/radar' },
    listMonitors: { path: '/api/v1/monitors' },
    createMonitor: { path: '/api/v1/monitors', body: { username: X.username, eventTypes: ['tweet.new'] } },
    listKeywordMonitors: { path: '/api/v1/monitors/keywords' },
    createKeywordMonitor: {
      path: '/api/v1/monitors/keywords',
      body: { query: 'open source', eventTypes: ['tweet.new'] },
    },
    getKeywordMonitor: { path: `/api/v1/monitors/keywords/${ids.kwMonitor ?? '999999'}` },
    updateKeywordMonitor: {
      path: `/api/v1/monitors/keywords/${ids.kwMonitor ?? '999999'}`,
      body: { isActive: false },
    },
    deleteKeywordMonitor: { path: `/api/v1/monitors/keywords/${ids.kwMonitor ?? '999999'}` },
    getMonitor: { path: `/api/v1/monitors/${ids.monitor ?? '999999'}` },
    updateMonitor: { path: `/api/v1/monitors/${ids.monitor ?? '999999'}`, body: { isActive: false } },
    deleteMonitor: { path: `/api/v1/monitors/${ids.monitor ?? '999999'}` },
    listEvents: { path: '/api/v1/events' },
    getEvent: { path: `/api/v1/events/${ids.event ?? randomUUID()}` },
    listExtractions: { path: '/api/v1/extractions' },
    createExtraction: {
      path: '/api/v1/extractions',
      body: { toolType: 'follower_explorer', targetUsername: X.username, resultsLimit: 10 },
    },
    estimateExtraction: {
      path: '/api/v1/extractions/estimate',
      body: { toolType: 'follower_explorer', targetUsername: X.username, resultsLimit: 10 },
    },
    getExtraction: { path: `/api/v1/extractions/${ids.extraction ?? NO_UUID}` },
    exportExtraction: { path: `/api/v1/extractions/${ids.extraction ?? NO_UUID}/export?format=json` },
    listDraws: { path: '/api/v1/draws' },
    createDraw: { path: '/api/v1/draws', body: { tweetUrl: `https://x.com/${X.username}/status/${t}` } },
    getDraw: { path: `/api/v1/draws/${ids.draw ?? 'none'}` },
    exportDraw: { path: `/api/v1/draws/${ids.draw ?? 'none'}/export?format=json` },
    listWebhooks: { path: '/api/v1/webhooks' },
    createWebhook: {
      path: '/api/v1/webhooks',
      body: { url: 'https://example.com/hook', eventTypes: ['tweet.new'] },
    },
    updateWebhook: { path: `/api/v1/webhooks/${ids.webhook ?? '999999'}`, body: { isActive: true } },
    deleteWebhook: { path: `/api/v1/webhooks/${ids.webhook ?? '999999'}` },
    listWebhookDeliveries: { path: `/api/v1/webhooks/${ids.webhook ?? '999999'}/deliveries` },
    testWebhook: { path: `/api/v1/webhooks/${ids.webhook ?? '999999'}/test` },
    resumeWebhook: { path: `/api/v1/webhooks/${ids.webhook ?? '999999'}/resume` },
    getBatchTweets: { path: `/api/v1/x/tweets?ids=${t}` },
    searchTweets: { path: '/api/v1/x/tweets/search?q=open%20source' },
    lookupTweet: { path: `/api/v1/x/tweets/${t}` },
    getTweetFavoriters: { path: `/api/v1/x/tweets/${t}/favoriters` },
    getBookmarks: { path: `/api/v1/x/bookmarks?account=${X.username}` },
    getBookmarkFolders: { path: `/api/v1/x/bookmarks/folders?account=${X.username}` },
    getTimeline: { path: `/api/v1/x/timeline?account=${X.username}` },
    getTweetQuotes: { path: `/api/v1/x/tweets/${t}/quotes` },
    getTweetReplies: { path: `/api/v1/x/tweets/${t}/replies` },
    getTweetRetweeters: { path: `/api/v1/x/tweets/${t}/retweeters` },
    getTweetThread: { path: `/api/v1/x/tweets/${t}/thread` },
    createTweet: { path: '/api/v1/x/tweets', body: { ...acct, text: 'Hello from the sweep.' } },
    getWriteActionStatus: { path: `/api/v1/x/write-actions/${ids.writeAction ?? randomUUID()}` },
    deleteTweet: { path: `/api/v1/x/tweets/${t}`, body: acct },
    likeTweet: { path: `/api/v1/x/tweets/${t}/like`, body: acct },
    unlikeTweet: { path: `/api/v1/x/tweets/${t}/like`, body: acct },
    retweet: { path: `/api/v1/x/tweets/${t}/retweet`, body: acct },
    unretweet: { path: `/api/v1/x/tweets/${t}/retweet`, body: acct },
    followUser: { path: `/api/v1/x/users/${X.other}/follow`, body: acct },
    unfollowUser: { path: `/api/v1/x/users/${X.other}/follow`, body: acct },
    removeFollower: { path: `/api/v1/x/users/${X.other}/remove-follower`, body: acct },
    sendDm: { path: `/api/v1/x/dm/${X.userId}`, body: { ...acct, text: 'Hello.' } },
    uploadMedia: { path: '/api/v1/x/media', body: acct, multipart: true },
    updateProfile: { path: '/api/v1/x/profile', body: { ...acct, description: 'Sweeping.' } },
    updateAvatar: { path: '/api/v1/x/profile/avatar', body: acct, multipart: true },
    updateBanner: { path: '/api/v1/x/profile/banner', body: acct, multipart: true },
    createCommunity: { path: '/api/v1/x/communities', body: { ...acct, name: 'Sweepers' } },
    deleteCommunity: {
      path: `/api/v1/x/communities/${X.communityId}`,
      body: { ...acct, community_name: 'Sweepers' },
    },
    joinCommunity: { path: `/api/v1/x/communities/${X.communityId}/join`, body: acct },
    leaveCommunity: { path: `/api/v1/x/communities/${X.communityId}/join`, body: acct },
    getXTrends: { path: '/api/v1/x/trends?woeid=1' },
    getTrends: { path: '/api/v1/trends?woeid=1' },
    getArticle: { path: `/api/v1/x/articles/${t}` },
    getBatchUsers: { path: `/api/v1/x/users/batch?ids=${X.userId}` },
    searchUsers: { path: '/api/v1/x/users/search?q=open%20source' },
    getUser: { path: `/api/v1/x/users/${X.username}` },
    checkFollow: { path: `/api/v1/x/followers/check?source=${X.username}&target=${X.other}` },
    getUserTweets: { path: `/api/v1/x/users/${X.username}/tweets` },
    getUserReplies: { path: `/api/v1/x/users/${X.username}/replies` },
    getUserLikes: { path: `/api/v1/x/users/${X.username}/likes` },
    getUserMedia: { path: `/api/v1/x/users/${X.username}/media` },
    getFollowersYouKnow: { path: `/api/v1/x/users/${X.username}/followers-you-know` },
    getNotifications: { path: `/api/v1/x/notifications?account=${X.username}` },
    getDmHistory: { path: `/api/v1/x/dm/${X.userId}/history?account=${X.username}` },
    getUserFollowers: { path: `/api/v1/x/users/${X.username}/followers` },
    getUserFollowing: { path: `/api/v1/x/users/${X.username}/following` },
    getUserMentions: { path: `/api/v1/x/users/${X.username}/mentions` },
    getUserVerifiedFollowers: { path: `/api/v1/x/users/${X.username}/verified-followers` },
    downloadMedia: { path: '/api/v1/x/media/download', body: { tweetIds: [t] } },
    listXAccounts: { path: '/api/v1/x/accounts' },
    connectXAccount: {
      path: '/api/v1/x/accounts',
      body: {
        username: X.other,
        email: 'dev@example.com',
        password: 'secret',
        totp_secret: 'JBSWY3DPEHPK3PXP',
      },
    },
    getXAccountConnectionAttempt: {
      path: `/api/v1/x/account-connection-attempts/${ids.attempt ?? randomUUID()}`,
    },
    submitXAccountConnectionChallenge: {
      path: `/api/v1/x/account-connection-challenges/${ids.challenge ?? `xch_${randomBytes(8).toString('hex')}`}/submit`,
      body: { email_code: '123456' },
    },
    getXAccount: { path: `/api/v1/x/accounts/${ids.xAccount ?? 'none'}` },
    disconnectXAccount: { path: `/api/v1/x/accounts/${ids.xAccount ?? 'none'}` },
    reauthXAccount: {
      path: `/api/v1/x/accounts/${ids.xAccount ?? 'none'}/reauth`,
      body: { password: 'secret' },
    },
    bulkRetryXAccounts: { path: '/api/v1/x/accounts/bulk-retry' },
    downloadSupportAttachment: { path: `/api/v1/support/attachments/${randomUUID()}` },
    createTicket: { path: '/api/v1/support/tickets', body: { subject: 'Sweep', body: 'Just checking.' } },
    listTickets: { path: '/api/v1/support/tickets' },
    getTicket: { path: `/api/v1/support/tickets/${ids.ticket ?? NO_UUID}` },
    updateTicketStatus: {
      path: `/api/v1/support/tickets/${ids.ticket ?? NO_UUID}`,
      body: { status: 'closed' },
    },
    addTicketMessage: {
      path: `/api/v1/support/tickets/${ids.ticket ?? NO_UUID}/messages`,
      body: { body: 'More.' },
    },
    createGuestWallet: { path: '/api/v1/guest-wallets', body: { amount_minor: 1000, currency: 'usd' } },
    topUpGuestWallet: {
      path: '/api/v1/guest-wallets/topups',
      body: { amount_minor: 1000, currency: 'usd' },
      ...(ids.guestKey && { headers: { authorization: `Bearer ${ids.guestKey}` } }),
    },
    getGuestWalletStatus: {
      path: '/api/v1/guest-wallets/status',
      ...(ids.guestKey && { headers: { authorization: `Bearer ${ids.guestKey}` } }),
    },
    getCommunityInfo: { path: `/api/v1/x/communities/${X.communityId}/info` },
    getCommunityMembers: { path: `/api/v1/x/communities/${X.communityId}/members` },
    getCommunityModerators: { path: `/api/v1/x/communities/${X.communityId}/moderators` },
    getCommunityTweets: { path: `/api/v1/x/communities/${X.communityId}/tweets` },
    searchCommunities: { path: `/api/v1/x/communities/search?communityId=${X.communityId}&q=open` },
    getAllCommunityTweets: { path: `/api/v1/x/communities/tweets?communityId=${X.communityId}&q=open` },
    getListFollowers: { path: `/api/v1/x/lists/${X.listId}/followers` },
    getListMembers: { path: `/api/v1/x/lists/${X.listId}/members` },
    getListTweets: { path: `/api/v1/x/lists/${X.listId}/tweets` },
  };
  const call = calls[op];
  if (!call) throw new Error(`no request written for ${op}`);
  return call;
}

/** Reads the ids later calls need from an operation's answer. */
function remember(op: string, body: unknown, ids: Ids): void {
  if (!body || typeof body !== 'object') return;
  const b = body as Record<string, unknown>;
  const data = (b.data && typeof b.data === 'object' ? b.data : b) as Record<string, unknown>;
  const id = typeof data.id === 'string' ? data.id : typeof b.id === 'string' ? b.id : undefined;
  const key: Record<string, string> = {
    createApiKey: 'apiKey',
    createDraft: 'draft',
    createMonitor: 'monitor',
    createKeywordMonitor: 'kwMonitor',
    createExtraction: 'extraction',
    createDraw: 'draw',
    createWebhook: 'webhook',
    createTicket: 'ticket',
  };
  if (key[op] && id) ids[key[op]] = id;
  if (op === 'topUpCredits') {
    const s = data.session_id ?? data.sessionId ?? b.session_id;
    if (typeof s === 'string') ids.topup = s;
  }
  if (op === 'createGuestWallet') {
    const k = data.guest_key ?? data.guestKey ?? b.guest_key;
    if (typeof k === 'string') ids.guestKey = k;
  }
  if (op === 'listXAccounts') {
    const list = (Array.isArray(b.data) ? b.data : Array.isArray(b.accounts) ? b.accounts : []) as {
      id?: string;
    }[];
    if (list[0]?.id) ids.xAccount = list[0].id;
  }
  if (op === 'connectXAccount' && id) ids.attempt = id;
  if (typeof b.write_action_id === 'string') ids.writeAction = b.write_action_id;
  else if (op === 'createTweet' && id) ids.writeAction = id;
}

/** The error code of an answer (`{ error: 'code', message }`, or opted in `{ error: { code } }`), or ''. */
function errorCode(body: unknown): string {
  const e = (body as { error?: unknown } | null)?.error;
  if (typeof e === 'string') return e;
  const code = (e as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/** The error message of an answer, or ''. */
function errorMessage(body: unknown): string {
  const b = body as { error?: { message?: unknown }; message?: unknown } | null;
  const m = b?.message ?? b?.error?.message;
  return typeof m === 'string' ? m : '';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the proxy has seen nothing for `quietMs` (at most `maxMs`). */
async function settle(log: XExchange[], quietMs = 400, maxMs = 5000): Promise<void> {
  const until = Date.now() + maxMs;
  let seen = log.length;
  let since = Date.now();
  while (Date.now() < until) {
    await sleep(100);
    if (log.length !== seen) {
      seen = log.length;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return;
  }
}

/** Follows a write action to its end; its status, and its error code if it failed. */
async function followWrite(base: string, key: string, id: string): Promise<string> {
  for (let i = 0; i < 30; i++) {
    const r = await fetch(`${base}/api/v1/x/write-actions/${id}`, { headers: { 'x-api-key': key } });
    const b = (await r.json().catch(() => ({}))) as Record<string, unknown>;
    const d = (b.data ?? b) as { status?: string; error?: unknown; error_code?: unknown };
    if (d.status && !['queued', 'pending', 'running', 'processing', 'accepted'].includes(d.status)) {
      const code = errorCode(d) || (typeof d.error_code === 'string' ? d.error_code : '');
      return code ? `${d.status} ${code}` : d.status;
    }
    await sleep(200);
  }
  return 'still running';
}

/** Calls one operation and classifies what happened. */
async function sweepOne(
  base: string,
  key: string,
  [op, method, template]: readonly [string, string, string],
  ids: Ids,
  log: XExchange[],
): Promise<SweepRow> {
  const record = (XAPI_OPERATIONS as Record<string, XapiOperation>)[op];
  if (!record) throw new Error(`${op} is not in XAPI_OPERATIONS`);
  const call = callFor(op, ids);
  const headers: Record<string, string> = { 'x-api-key': key, ...call.headers };
  if (method !== 'GET') headers['idempotency-key'] = randomUUID();
  let body: BodyInit | undefined;
  if (call.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(call.body as Record<string, string>)) form.set(k, v);
    form.set('file', new Blob([PNG], { type: 'image/png' }), 'sweep.png');
    body = form;
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body);
  }
  const from = log.length;
  let status = 0;
  let answer: unknown;
  try {
    const r = await fetch(`${base}${call.path}`, { method, headers, body, redirect: 'manual' });
    status = r.status;
    const text = await r.text();
    try {
      answer = JSON.parse(text);
    } catch {
      answer = text;
    }
  } catch (e) {
    answer = { error: { code: `fetch failed: ${String(e)}` } };
  }
  remember(op, answer, ids);
  let writeEnd: string | undefined;
  const a = answer as Record<string, unknown> | null;
  const writeId =
    (typeof a?.write_action_id === 'string' && a.write_action_id) ||
    (status === 202 &&
      template.startsWith('/api/v1/x/') &&
      !template.startsWith('/api/v1/x/account') &&
      typeof a?.id === 'string' &&
      a.id) ||
    undefined;
  if (writeId && method !== 'GET') writeEnd = await followWrite(base, key, writeId);
  await settle(log);
  const x = log.slice(from);
  const code = errorCode(answer);
  const refusedX = x.filter((e) => e.refused);
  const mockX = x.filter((e) => !e.refused && e.violations.length > 0);
  let verdict: string;
  if (status >= 200 && status < 300 && !writeEnd?.startsWith('failed')) verdict = '2xx';
  else if (
    record.xapi === 'refused' &&
    (code === record.refusal || writeEnd?.includes(record.refusal ?? '?'))
  )
    verdict = 'refused as documented';
  else if (status >= 500) verdict = '5xx';
  else verdict = 'other 4xx';
  if (refusedX.length) verdict += `, ${refusedX.length} refused by X`;
  if (mockX.length) verdict += `, ${mockX.length} mock answer invalid`;
  return {
    op,
    handling: record.xapi,
    request: `${method} ${call.path}`,
    status,
    code,
    message: status >= 400 ? errorMessage(answer) : '',
    ...(writeEnd && { writeEnd }),
    x,
    verdict,
  };
}

/** Starts everything, sweeps, prints, stops everything. */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf('--json');
  const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
  const dynamic = args.includes('--dynamic');
  const description = args.find((a, i) => !a.startsWith('--') && i !== jsonAt + 1);
  if (!description) {
    console.error('usage: tsx scripts/dev/xapi-sweep.ts <openapi.json> [--dynamic] [--json <file>]');
    process.exit(2);
  }
  const [prismPort, proxyPort, serverPort] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'xapi-sweep-'));
  const children: ChildProcess[] = [];
  const log: XExchange[] = [];
  let proxy: Server | undefined;
  const stop = () => {
    for (const c of children) if (c.exitCode === null && c.pid) process.kill(-c.pid, 'SIGTERM');
    proxy?.close();
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    stop();
    process.exit(130);
  });
  try {
    const prism = spawn(
      'npx',
      [
        '-y',
        '@stoplight/prism-cli@5',
        'mock',
        '-h',
        '127.0.0.1',
        '-p',
        String(prismPort),
        '--errors',
        ...(dynamic ? ['-d'] : []),
        resolve(description),
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], detached: true },
    );
    children.push(prism);
    await waitFor(`http://127.0.0.1:${prismPort}/2/openapi.json`, 180_000, prism, 'Prism');
    proxy = await startProxy(proxyPort, prismPort, log);
    const key = `svc_${randomBytes(32).toString('hex')}`;
    const secret = randomBytes(32).toString('hex');
    const dbFile = join(dir, 'xsvc.db');
    const server = spawn(process.execPath, [join(ROOT, 'packages/server/dist/bin.js')], {
      cwd: dir,
      env: {
        ...process.env,
        XSVC_PLATFORM: 'xapi',
        X_BEARER_TOKEN: 'test',
        X_API_BASE_URL: `http://127.0.0.1:${proxyPort}`,
        X_CLIENT_ID: 'sweep-client-id',
        XSVC_SEED_SIZE: 'tiny',
        DATABASE_URL: dbFile,
        PORT: String(serverPort),
        HOST: '127.0.0.1',
        XSVC_BOOTSTRAP_API_KEY: key,
        XSVC_SECRET_KEY: secret,
        XSVC_KEY_FILE: join(dir, 'owner-api-key'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    });
    children.push(server);
    const base = `http://127.0.0.1:${serverPort}`;
    await waitFor(`${base}/health`, 60_000, server, 'the server');
    seedConnection(dbFile, secret);
    await settle(log, 1000, 5000);
    const startup = log.splice(0, log.length);

    const isDelete = ([, m, p]: readonly [string, string, string]) =>
      m === 'DELETE' &&
      !p.includes('/like') &&
      !p.includes('/retweet') &&
      !p.includes('/follow') &&
      !p.includes('/join');
    // createTweet last but the deletes: an answer X may have acted on (a 5xx) rests the account, and the writes
    // after it would not be sent.
    const last = (r: readonly [string, string, string]) => r[0] === 'createTweet';
    const ordered = [
      ...REFERENCE.filter((r) => !isDelete(r) && !last(r)),
      ...REFERENCE.filter(last),
      ...REFERENCE.filter(isDelete),
    ];
    const ids: Ids = {};
    const rows: SweepRow[] = [];
    for (const r of ordered) rows.push(await sweepOne(base, key, r, ids, log));
    await settle(log, 1000, 5000);
    print(rows, startup, log.slice(rows.reduce((n, r) => n + r.x.length, 0)));
    if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify({ startup, rows }, null, 2)}\n`);
  } finally {
    stop();
  }
}

/** Prints the table and the totals. */
function print(rows: readonly SweepRow[], startup: readonly XExchange[], late: readonly XExchange[]): void {
  const w = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
  console.log(
    `${w('operation', 34)} ${w('xapi', 10)} ${w('status', 7)} ${w('code / write end', 36)} X sent  Prism`,
  );
  for (const r of rows) {
    const verdicts = r.x.map((e) => String(e.status)).join(' ');
    const code = [r.code, r.writeEnd].filter(Boolean).join(' → ');
    console.log(
      `${w(r.op, 34)} ${w(r.handling, 10)} ${w(String(r.status), 7)} ${w(code, 36)} ${w(String(r.x.length), 7)} ${verdicts}`,
    );
    if (r.message) console.log(`${' '.repeat(46)}${r.message.slice(0, 150)}`);
  }
  const all = [...startup, ...rows.flatMap((r) => r.x), ...late];
  const refused = all.filter((e) => e.refused);
  const mock = all.filter((e) => !e.refused && e.violations.length > 0);
  const count = (f: (r: SweepRow) => boolean) => rows.filter(f).length;
  const readX = count((r) => r.x.some((e) => e.method === 'GET' && e.status >= 200 && e.status < 300));
  console.log('');
  console.log(`operations called:                ${rows.length}`);
  console.log(`2xx:                              ${count((r) => r.verdict.startsWith('2xx'))}`);
  console.log(`refused as documented:            ${count((r) => r.verdict.startsWith('refused'))}`);
  console.log(
    `5xx:                              ${count((r) => r.status >= 500)} (502: ${count((r) => r.status === 502)})`,
  );
  console.log(`other 4xx:                        ${count((r) => r.verdict.startsWith('other'))}`);
  console.log(`operations that sent X requests:  ${count((r) => r.x.length > 0)}`);
  console.log(`operations that read X (GET 2xx): ${readX}`);
  console.log(
    `X requests sent:                  ${all.length} (${startup.length} at start, ${late.length} late)`,
  );
  const echoes = refused.filter((e) => e.echoed.length > 0).length;
  console.log(
    `refused by X's description:       ${refused.length} (${echoes} pass on a value the mock made up)`,
  );
  const listed = [...refused, ...mock];
  console.log(`mock's own answer invalid:        ${mock.length} (Prism's example breaks the description)`);
  for (const e of listed) {
    if (e === mock[0]) console.log('  -- the mock answer invalid:');
    const owner = rows.find((r) => r.x.includes(e))?.op ?? (startup.includes(e) ? '(start)' : '(late)');
    console.log(`  ${owner}: ${e.method} ${e.url} → ${e.status}`);
    if (e.echoed.length)
      console.log(
        `      (passes on the mock's own answer: ${e.echoed.map((v) => JSON.stringify(v)).join(', ')})`,
      );
    for (const v of e.violations) console.log(`      ${v}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});

import { expect } from 'vitest';
import { z } from 'zod';

/**
 * Response shapes written by hand from `/work/shared/spec/reference-shapes.md` (the service's official SDK
 * types), deliberately NOT derived from our contract: tests check answers against both, so a drift between
 * our contract and the shapes file fails. Objects are strict (an extra key is a drift too) except where the
 * shapes file says `record` or an open index signature. Where interface-spec.md overrides the shapes file
 * (part 9 of it), the comment says so.
 */

const str = z.string();
const num = z.number();
const int = z.number().int();
const bool = z.boolean();
const record = z.record(z.string(), z.unknown());
const digits = z.string().regex(/^\d+$/);
/** The fixed sentence of guest-wallet checkouts (reference shapes 6), written out here, not imported. */
const CREDENTIAL_NOTICE =
  'Store api_key and the Idempotency-Key securely before sharing checkout_url. No email recovery is available.';

// ---- 1. Write action ------------------------------------------------------------------------------------

const writeAccount = z.strictObject({ id: str, username: str });
const writeBilling = z.strictObject({
  status: z.enum(['not_charged', 'pending', 'charged', 'charge_failed', 'refunded']),
  charged: bool,
  chargedCredits: digits,
  plannedCredits: digits,
});
const writeRequest = z.strictObject({ hash: str.nullable(), payload: record.nullable() });
const writeTarget = z.strictObject({ id: str, type: z.enum(['tweet', 'user', 'community']) });
const writeResult = z.strictObject({
  id: str.optional(),
  state: str.optional(),
  type: z.enum(['tweet', 'direct_message', 'media', 'community', 'state_change']).optional(),
});
const writeNextAction = z.strictObject({
  type: z.enum(['poll', 'retry', 'verify_result', 'fix_request']),
  afterMs: num.optional(),
  requiresNewIdempotencyKey: bool.optional(),
  url: str.optional(),
});
const isoDate = z.iso.datetime({ offset: true });

/** `XWriteAction` (shapes file 1.1-1.3): every write's 200/202 body and `GET /x/write-actions/{id}`. */
export const XWriteAction = z.strictObject({
  object: z.literal('x_write_action'),
  id: str,
  writeActionId: str,
  action: z.enum([
    'create_tweet',
    'delete_tweet',
    'like',
    'unlike',
    'retweet',
    'unretweet',
    'follow',
    'unfollow',
    'remove_follower',
    'send_dm',
    'upload_media',
    'update_profile',
    'update_avatar',
    'update_banner',
    'create_community',
    'delete_community',
    'join_community',
    'leave_community',
  ]),
  status: z.enum(['accepted', 'dispatching', 'pending_confirmation', 'success', 'failed', 'expired']),
  terminal: bool,
  retryable: bool,
  safeToRetry: bool,
  statusUrl: str,
  pollAfterMs: int.min(0).nullable(),
  charged: bool,
  chargedCredits: digits,
  billing: writeBilling,
  request: writeRequest,
  account: writeAccount.nullable(),
  target: writeTarget.nullable(),
  targetId: str.nullable(),
  result: writeResult.nullable(),
  nextAction: writeNextAction.nullable(),
  sendDispatched: bool,
  success: bool,
  requestHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  requestId: str.optional(),
  idempotent: bool.optional(),
  error: str.optional(),
  message: str.optional(),
  details: record.optional(),
  media: record.optional(),
  sendDispatchedAt: isoDate.optional(),
  createdAt: isoDate.optional(),
  updatedAt: isoDate.optional(),
  completedAt: isoDate.optional(),
  confirmedAt: isoDate.optional(),
  confirmationCheckedAt: isoDate.optional(),
  expiresAt: isoDate.optional(),
  confirmationAttempts: int.min(0).optional(),
  tweetId: str.optional(),
  messageId: str.optional(),
  mediaId: str.optional(),
  mediaUrl: z.url().optional(),
  communityId: str.optional(),
  communityName: str.optional(),
  resultId: str.optional(),
});

// ---- 2. Composition, radar, styles ------------------------------------------------------------------------

const RADAR_SOURCES = [
  'reddit',
  'github',
  'trustmrr',
  'hacker_news',
  'google_trends',
  'wikipedia',
  'polymarket',
] as const;

/** `RadarRecommendation` (shapes file 2.1). */
const RadarRecommendation = z.strictObject({
  source: z.enum(RADAR_SOURCES),
  endpoint: str,
  guidance: str,
  useFor: str,
});

/** `ComposePrepareResult` (step=compose, shapes file 2.1). Each step variant tolerates extra keys. */
export const ComposePrepareResult = z.object({
  contentRules: z.array(z.strictObject({ rule: str })),
  engagementMultipliers: z.array(
    z.strictObject({ action: str, multiplier: z.literal('Production weight not published by X') }),
  ),
  engagementVelocity: str,
  followUpQuestions: z.array(str),
  intentUrl: z.url(),
  nextStep: str,
  radarRecommendations: z.array(RadarRecommendation),
  scorerWeights: z.array(z.strictObject({ context: str, signal: str, weight: z.null() })),
  source: str,
  topPenalties: z.array(str),
  savedStyles: z.array(z.strictObject({ username: str, tweetCount: num })).optional(),
  styleNote: str.optional(),
  styleTweets: z.array(str).optional(),
});

/** `ComposeRefineResult` (step=refine). */
export const ComposeRefineResult = z.object({
  compositionGuidance: z.array(str),
  examplePatterns: z.array(z.strictObject({ pattern: str, description: str })),
  intentUrl: str,
  nextStep: str,
});

/** `ComposeScoreResult` (step=score). */
export const ComposeScoreResult = z.object({
  checklist: z.array(z.strictObject({ factor: str, passed: bool, suggestion: str.optional() })),
  nextStep: str,
  passed: bool,
  passedCount: int.min(0).max(9),
  topSuggestion: str,
  totalChecks: z.literal(9),
  intentUrl: str.optional(),
});

/** `RadarItem` (shapes file 2.2); `metadata` is an open record per source. */
const RadarItem = z.strictObject({
  id: str,
  title: str,
  source: z.enum(RADAR_SOURCES),
  sourceId: str,
  category: z.enum(['general', 'tech', 'dev', 'science', 'culture', 'politics', 'business', 'entertainment']),
  language: str,
  region: str,
  score: num,
  publishedAt: isoDate,
  createdAt: isoDate,
  metadata: record,
  description: str.optional(),
  imageUrl: str.optional(),
  url: str.optional(),
});

/** `GET /radar` (shapes file 2.2): `nextCursor` only when `hasMore`. */
export const RadarPage = z
  .strictObject({ items: z.array(RadarItem), hasMore: bool, nextCursor: str.optional() })
  .refine((p) => p.hasMore === (p.nextCursor !== undefined), 'nextCursor is present exactly when hasMore');

/** `StyleTweet`; spec 2.9 adds an optional `media[]` (the spec wins, shapes file 9.9). */
const StyleTweet = z.strictObject({
  id: str,
  text: str,
  authorUsername: str.optional(),
  createdAt: str.optional(),
  media: z.array(z.unknown()).optional(),
});

/** `StyleProfile` (analyze, get, put, each side of compare). No `id` on any style record. */
export const StyleProfile = z.strictObject({
  xUsername: str,
  tweetCount: num,
  isOwnAccount: bool,
  fetchedAt: str,
  tweets: z.array(StyleTweet),
});

/** `GET /styles` → `{ styles: StyleProfileSummary[] }`. */
export const StyleList = z.strictObject({
  styles: z.array(z.strictObject({ xUsername: str, tweetCount: num, isOwnAccount: bool, fetchedAt: str })),
});

// ---- 3. Draws -----------------------------------------------------------------------------------------------

const Winner = z.strictObject({ position: int.min(1), authorUsername: str, tweetId: str, isBackup: bool });

/** `GET /draws/{id}` → `{ draw: DrawDetail, winners: Winner[] }` (shapes file 3, plus two additions). */
export const DrawDetailResponse = z.strictObject({
  draw: z.strictObject({
    id: str,
    status: str,
    createdAt: str,
    drawnAt: str.optional(),
    totalEntries: num,
    validEntries: num,
    tweetId: str,
    tweetUrl: str,
    tweetText: str,
    tweetAuthorUsername: str,
    tweetLikeCount: num,
    tweetRetweetCount: num,
    tweetReplyCount: num,
    tweetQuoteCount: num,
    // Not in the reference; kept as additions (spec 9.1: fields may be added, clients ignore unknown ones):
    // the tweet's posting time and the verifiable-draw record.
    tweetCreatedAt: str.optional(),
    verification: record.optional(),
  }),
  winners: z.array(Winner),
});

// ---- 4. Support -----------------------------------------------------------------------------------------

const TICKET_STATUS = z.enum(['open', 'in_progress', 'resolved', 'closed']);
const ATTACHMENT_STATUS = z.enum(['pending', 'ready', 'failed']);

/** `GET /support/tickets` → `{ tickets: TicketSummary[] }`. */
export const TicketList = z.strictObject({
  tickets: z.array(
    z.strictObject({
      publicId: str,
      subject: str,
      status: TICKET_STATUS,
      messageCount: num,
      createdAt: str,
      updatedAt: str,
    }),
  ),
});

/** `GET /support/tickets/{id}` (shapes file 4): messages with their attachments. */
export const TicketDetail = z.strictObject({
  publicId: str,
  subject: str,
  status: TICKET_STATUS,
  createdAt: str,
  updatedAt: str,
  messages: z.array(
    z.strictObject({
      body: str,
      sender: z.enum(['user', 'support', 'system']),
      createdAt: str,
      attachments: z.array(
        z.strictObject({
          publicId: str,
          filename: str,
          contentType: z.enum([
            'image/jpeg',
            'image/png',
            'image/gif',
            'image/webp',
            'video/mp4',
            'video/quicktime',
            'video/webm',
          ]),
          kind: z.enum(['image', 'video']),
          sizeBytes: num,
          status: ATTACHMENT_STATUS,
          url: str,
        }),
      ),
    }),
  ),
});

/** Create and reply → `SupportAttachmentReceipt`. */
export const SupportAttachmentReceipt = z.strictObject({
  publicId: str,
  attachments: z.array(z.strictObject({ publicId: str, status: ATTACHMENT_STATUS })),
});

// ---- 5. DM history --------------------------------------------------------------------------------------

/** `GET /x/dm/{userId}/history` (shapes file 5). */
export const DmHistory = z.strictObject({
  messages: z.array(
    z.strictObject({
      id: str,
      senderId: str,
      receiverId: str,
      text: str.optional(),
      createdAt: str.optional(),
      mediaUrl: str.optional(),
    }),
  ),
  has_next_page: bool,
  next_cursor: str,
});

// ---- 6. Guest wallets -----------------------------------------------------------------------------------

const GuestWalletAmount = z.strictObject({
  amount_minor: int.min(1000).max(25_000),
  currency: z.literal('usd'),
});
const PURCHASE_STATUS = z.enum(['creating', 'pending', 'paid', 'expired', 'failed', 'refunded', 'disputed']);
const guestAuthorization = z.strictObject({
  header: z.literal('Authorization'),
  scheme: z.literal('Bearer'),
});

const checkoutFields = {
  account_required: z.literal(false),
  amount: GuestWalletAmount,
  checkout_url: z.url(),
  credits: digits,
  expires_at: isoDate,
  instructions: str,
  poll_after_seconds: z.literal(2),
  purchase_id: str,
  requires_user_interaction: z.literal(true),
  status: PURCHASE_STATUS,
  status_url: z.string().regex(/\/api\/v1\/guest-wallets\/status$/),
  wallet_id: str,
};

/** `POST /guest-wallets` (201). */
export const GuestWalletCreate = z.strictObject({
  ...checkoutFields,
  api_key: str,
  authorization: guestAuthorization,
  credential_notice: z.literal(CREDENTIAL_NOTICE),
});

/** `POST /guest-wallets/topups` (201): the key fields are optional. */
export const GuestWalletTopUp = z.strictObject({
  ...checkoutFields,
  api_key: str.optional(),
  authorization: guestAuthorization.optional(),
  credential_notice: z.literal(CREDENTIAL_NOTICE).optional(),
});

/** `GET /guest-wallets/status`. */
export const GuestWalletStatus = z.strictObject({
  balance: digits,
  latest_purchase: z
    .strictObject({
      amount: GuestWalletAmount,
      checkout_url: str.nullable(),
      credits: digits,
      expires_at: str,
      purchase_id: str,
      status: PURCHASE_STATUS,
    })
    .nullable(),
  poll_after_seconds: z.literal(2).nullable(),
  scope: z.literal('paid_reads'),
  status: z.enum(['active', 'pending', 'expired', 'failed', 'frozen', 'closed']),
  top_up: z
    .strictObject({ method: z.literal('POST'), path: z.literal('/api/v1/guest-wallets/topups') })
    .nullable(),
  usable: bool,
  wallet_id: str,
});

// ---- 7. Connected accounts ------------------------------------------------------------------------------

const HEALTH = z.enum(['healthy', 'locked', 'needsReauth', 'recovering', 'suspended', 'temporaryIssue']);
const xAccountFields = {
  id: str,
  xUserId: str,
  xUsername: str,
  status: str,
  health: HEALTH,
  createdAt: str,
  cookiesObtainedAt: str.optional(),
};

/** `GET /x/accounts` → `{ accounts: XAccount[] }`. */
export const XAccountList = z.strictObject({
  accounts: z.array(z.strictObject({ ...xAccountFields, updatedAt: str })),
});

/** `GET /x/accounts/{id}` (`XAccountDetail`): `updatedAt` optional. */
export const XAccountDetail = z.strictObject({ ...xAccountFields, updatedAt: str.optional() });

/** `SanitizedXAccount` (connect 201, challenge submit 201, reauth). */
export const SanitizedXAccount = z.strictObject({
  id: str,
  xUserId: str,
  xUsername: str,
  health: HEALTH,
  createdAt: str,
  status: z.literal('active'),
});

/** Every reference shape by name, for {@link expectReferenceShape}. */
export const referenceShapes = {
  XWriteAction,
  ComposePrepareResult,
  ComposeRefineResult,
  ComposeScoreResult,
  RadarPage,
  StyleProfile,
  StyleList,
  DrawDetailResponse,
  TicketList,
  TicketDetail,
  SupportAttachmentReceipt,
  DmHistory,
  GuestWalletCreate,
  GuestWalletTopUp,
  GuestWalletStatus,
  XAccountList,
  XAccountDetail,
  SanitizedXAccount,
} as const;

/** Checks an answer against a reference shape written from the shapes file; the failure names the paths. */
export function expectReferenceShape(name: keyof typeof referenceShapes, body: unknown): void {
  const r = referenceShapes[name].safeParse(body);
  if (!r.success)
    throw new Error(
      `${name} differs from reference-shapes.md: ${JSON.stringify(r.error.issues.slice(0, 5))}`,
    );
  expect(r.success).toBe(true);
}

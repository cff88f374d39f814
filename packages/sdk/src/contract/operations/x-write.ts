import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import { WRITE_IDEMPOTENCY_KEY } from '../headers.js';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import { WriteAccountRef, WriteActionSchema, writeAccountBody } from '../schemas/write-action.js';
import { NumericId, QueryBoolean } from '../zod-helpers.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

/** Content types `uploadMedia` accepts (spec 4.13): AVIF, GIF, JPEG, PNG, WebP, MP4. */
export const UPLOAD_MEDIA_TYPES = [
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
  'video/mp4',
] as const;

/** Content types accepted for a profile avatar or banner: the still and animated images of the upload list. */
export const PROFILE_IMAGE_TYPES = [
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
] as const;

/** A public http(s) URL the service downloads from. */
const PublicUrl = z.url({ protocol: /^https?$/ });

/** A boolean form field of a multipart body (`true`/`false`/`1`/`0`). */
const FormBoolean = QueryBoolean;

const tweetParams = z.object({ id: NumericId.describe('Numeric id of the tweet.') });
const userParams = z.object({
  id: z
    .string()
    .regex(/^(@?[A-Za-z0-9_]{1,15}|\d{1,25})$/, 'must be a numeric user id or a username')
    .describe('The other user: numeric user id, or username with or without @.'),
});
const communityParams = z.object({ id: NumericId.describe('Numeric id of the community.') });
const accountOnlyBody = z.object(writeAccountBody);

/** Errors every write may answer with, beyond 401 unauthenticated and 429 rate_limit_exceeded. */
const writeErrors = [
  'invalid_input',
  'account_required',
  'missing_idempotency_key',
  'invalid_idempotency_key',
  'insufficient_credits',
  'no_credits',
  'x_auth_failure',
  'account_needs_reauth',
  'account_restricted',
  'account_not_found',
  'idempotency_conflict',
  'x_account_suspended',
  'x_rejected',
  'x_rate_limited',
  'x_daily_limit',
  'x_write_failed',
  'x_write_ambiguous',
  'x_transient_error',
  'write_tracking_unavailable',
] as const satisfies readonly ErrorCode[];

/** Errors of writes that upload a file or fetch one from a URL. */
const fileErrors = [
  'unsupported_media_type',
  'body_too_large',
  'media_download_failed',
] as const satisfies readonly ErrorCode[];

const WRITE_NOTE =
  'Durable write: send an `Idempotency-Key` header (1-255 printable ASCII characters; reusing a key with a different body answers 409 idempotency_conflict). ' +
  'Answers 200 with a terminal write action, or 202 with an active one (headers Location and Retry-After): poll `writeActions get` while `terminal` is false, ' +
  'never send again while it is pending_confirmation, and retry only when `safeToRetry` is true, with a new key. ' +
  'A 202 may carry `error: x_write_unconfirmed` when the platform has not confirmed the write yet.';

const FOLLOW_LIMITS = `Platform safety limit: ${limits.follow.perMinute} per minute and ${limits.follow.perDay} per day per connected account, shared by follow and remove-follower; beyond it the write answers 429.`;

const metered = {
  kind: 'metered',
  note: 'Credits are taken only when the platform confirms the write; the write action `billing` block and `chargedCredits` show the amount.',
} as const;

/** The fields every write operation shares. */
const write = {
  tag: 'X Write',
  auth: keyOrToken,
  query: null,
  success: [200, 202],
  response: WriteActionSchema,
  pagination: null,
  headers: { 'Idempotency-Key': WRITE_IDEMPOTENCY_KEY },
} as const;

export const createTweet = defineOperation({
  ...write,
  id: 'createTweet',
  method: 'POST',
  path: '/api/v1/x/tweets',
  summary: 'Post a tweet, reply or community post from a connected account',
  description: `${WRITE_NOTE} Text is optional when media is attached. Text up to ${limits.noteTweetChars.toLocaleString('en-US')} characters (long text needs a note tweet and an account allowed to post one, else 422 x_account_feature_required or x_content_too_long). Media: ${limits.tweetMediaUrls.min}-${limits.tweetMediaUrls.max} public image URLs that the service downloads.`,
  sdk: ['tweets', 'create'],
  params: null,
  body: z
    .object({
      account: WriteAccountRef,
      text: z
        .string()
        .min(1)
        .max(limits.noteTweetChars)
        .optional()
        .describe(
          `Text of the tweet, up to ${limits.noteTweetChars} characters; optional when media is attached.`,
        ),
      media: z
        .array(PublicUrl.describe('Public http(s) URL of an image.'))
        .min(limits.tweetMediaUrls.min)
        .max(limits.tweetMediaUrls.max)
        .optional()
        .describe(`Public image URLs to attach, ${limits.tweetMediaUrls.min}-${limits.tweetMediaUrls.max}.`),
      reply_to_tweet_id: NumericId.optional().describe('Numeric id of the tweet this one replies to.'),
      community_id: NumericId.optional().describe('Numeric id of the community to post in.'),
      is_note_tweet: z
        .boolean()
        .optional()
        .describe('Post as a long-form note tweet (text beyond the normal tweet length).'),
    })
    .refine((b) => b.text !== undefined || b.media !== undefined, {
      message: 'text or media is required',
      path: ['text'],
    }),
  errors: [
    ...writeErrors,
    'x_content_too_long',
    'x_duplicate_action',
    'x_reply_not_allowed',
    'x_target_not_found',
    'x_account_feature_required',
    'x_account_protected',
    ...fileErrors,
  ],
  cost: metered,
  writeAction: 'create_tweet',
  idempotent: false,
  example: 'tweets create --account myhandle --text "Shipping the new release today"',
});

export const getWriteActionStatus = defineOperation({
  id: 'getWriteActionStatus',
  method: 'GET',
  path: '/api/v1/x/write-actions/{id}',
  tag: 'X Write',
  summary: 'Get the state of a durable write action',
  description:
    'Answers 200 once the action is terminal (success, failed or expired) and 202 while it is active; poll again after `pollAfterMs` or Retry-After while `terminal` is false.',
  sdk: ['writeActions', 'get'],
  auth: keyOrToken,
  params: z.object({
    id: z
      .string()
      .min(1)
      .max(255)
      .describe('Id of the write action (`id` or `writeActionId` of a write answer).'),
  }),
  query: null,
  body: null,
  success: [200, 202],
  response: WriteActionSchema,
  errors: ['not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'write-actions get wa_01HZX3K7Q2',
});

export const deleteTweet = defineOperation({
  ...write,
  id: 'deleteTweet',
  method: 'DELETE',
  path: '/api/v1/x/tweets/{id}',
  summary: 'Delete a tweet of a connected account',
  description: `${WRITE_NOTE} Costs 10 credits per call. The body (JSON) names the account that owns the tweet.`,
  sdk: ['tweets', 'delete'],
  params: tweetParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found'],
  cost: { kind: 'per_call', credits: 10 },
  writeAction: 'delete_tweet',
  idempotent: true,
  example: 'tweets delete 1790000000000000000 --account myhandle',
});

export const likeTweet = defineOperation({
  ...write,
  id: 'likeTweet',
  method: 'POST',
  path: '/api/v1/x/tweets/{id}/like',
  summary: 'Like a tweet from a connected account',
  description: `${WRITE_NOTE} Idempotent: liking a tweet already liked answers 200.`,
  sdk: ['tweets', 'like'],
  params: tweetParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found', 'x_account_protected'],
  cost: metered,
  writeAction: 'like',
  idempotent: true,
  example: 'tweets like 1790000000000000000 --account myhandle',
});

export const unlikeTweet = defineOperation({
  ...write,
  id: 'unlikeTweet',
  method: 'DELETE',
  path: '/api/v1/x/tweets/{id}/like',
  summary: 'Remove a like of a connected account',
  description: `${WRITE_NOTE} Idempotent: unliking a tweet not liked answers 200.`,
  sdk: ['tweets', 'unlike'],
  params: tweetParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found'],
  cost: metered,
  writeAction: 'unlike',
  idempotent: true,
  example: 'tweets unlike 1790000000000000000 --account myhandle',
});

export const retweet = defineOperation({
  ...write,
  id: 'retweet',
  method: 'POST',
  path: '/api/v1/x/tweets/{id}/retweet',
  summary: 'Retweet a tweet from a connected account',
  description: `${WRITE_NOTE} Idempotent: retweeting a tweet already retweeted answers 200.`,
  sdk: ['tweets', 'retweet'],
  params: tweetParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found', 'x_account_protected'],
  cost: metered,
  writeAction: 'retweet',
  idempotent: true,
  example: 'tweets retweet 1790000000000000000 --account myhandle',
});

export const unretweet = defineOperation({
  ...write,
  id: 'unretweet',
  method: 'DELETE',
  path: '/api/v1/x/tweets/{id}/retweet',
  summary: 'Undo a retweet of a connected account',
  description: `${WRITE_NOTE} Idempotent: undoing a retweet that does not exist answers 200.`,
  sdk: ['tweets', 'unretweet'],
  params: tweetParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found'],
  cost: metered,
  writeAction: 'unretweet',
  idempotent: true,
  example: 'tweets unretweet 1790000000000000000 --account myhandle',
});

export const followUser = defineOperation({
  ...write,
  id: 'followUser',
  method: 'POST',
  path: '/api/v1/x/users/{id}/follow',
  summary: 'Follow a user from a connected account',
  description: `${WRITE_NOTE} ${FOLLOW_LIMITS} Idempotent: following a user already followed answers 200.`,
  sdk: ['users', 'follow'],
  params: userParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found', 'user_not_found'],
  cost: metered,
  writeAction: 'follow',
  idempotent: true,
  example: 'users follow jack --account myhandle',
});

export const unfollowUser = defineOperation({
  ...write,
  id: 'unfollowUser',
  method: 'DELETE',
  path: '/api/v1/x/users/{id}/follow',
  summary: 'Unfollow a user from a connected account',
  description: `${WRITE_NOTE} Idempotent: unfollowing a user not followed answers 200.`,
  sdk: ['users', 'unfollow'],
  params: userParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found', 'user_not_found'],
  cost: metered,
  writeAction: 'unfollow',
  idempotent: true,
  example: 'users unfollow jack --account myhandle',
});

export const removeFollower = defineOperation({
  ...write,
  id: 'removeFollower',
  method: 'POST',
  path: '/api/v1/x/users/{id}/remove-follower',
  summary: 'Remove a user from the followers of a connected account',
  description: `${WRITE_NOTE} ${FOLLOW_LIMITS}`,
  sdk: ['users', 'removeFollower'],
  params: userParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found', 'user_not_found'],
  cost: metered,
  writeAction: 'remove_follower',
  idempotent: false,
  example: 'users remove-follower spambot123 --account myhandle',
});

export const sendDm = defineOperation({
  ...write,
  id: 'sendDm',
  method: 'POST',
  path: '/api/v1/x/dm/{userId}',
  summary: 'Send a direct message from a connected account',
  description: `${WRITE_NOTE} The recipient must accept messages from the account (else 422 x_dm_not_allowed). Attach media uploaded with \`media upload\` by its id.`,
  sdk: ['dms', 'send'],
  params: z.object({
    userId: z
      .string()
      .regex(/^\d{1,25}$/, 'invalid_user_id: must be a numeric user id')
      .describe('Numeric user id of the recipient; anything else answers 400 `invalid_user_id`.'),
  }),
  body: z.object({
    account: WriteAccountRef,
    text: z.string().min(1).describe('Text of the message.'),
    media_ids: z
      .array(NumericId.describe('Media id from an upload.'))
      .min(1)
      .optional()
      .describe('Ids of media uploaded with `media upload` to attach.'),
  }),
  errors: [
    ...writeErrors,
    'invalid_user_id',
    'x_dm_not_allowed',
    'dm_not_permitted',
    'x_target_not_found',
    'x_content_too_long',
    'x_duplicate_action',
  ],
  cost: metered,
  writeAction: 'send_dm',
  idempotent: false,
  example: 'dms send 783214 --account myhandle --text "Thanks for the feedback!"',
});

export const uploadMedia = defineOperation({
  ...write,
  id: 'uploadMedia',
  method: 'POST',
  path: '/api/v1/x/media',
  summary: 'Upload an image or video for later tweets and messages',
  description: `${WRITE_NOTE} Multipart upload of one file (AVIF, GIF, JPEG, PNG, WebP or MP4), or a public \`url\` the service downloads instead (the service also accepts \`{ account, url }\` as JSON). The media id is in \`result.id\` / \`mediaId\`.`,
  sdk: ['media', 'upload'],
  params: null,
  body: z
    .object({
      account: WriteAccountRef,
      file: z
        .file()
        .mime([...UPLOAD_MEDIA_TYPES])
        .optional()
        .describe('The file to upload: AVIF, GIF, JPEG, PNG, WebP or MP4.'),
      url: PublicUrl.optional().describe('Public http(s) URL of the file to upload, instead of `file`.'),
      is_long_video: FormBoolean.optional().describe(
        'Upload a video longer than the normal limit (account permitting).',
      ),
    })
    .refine((b) => (b.file === undefined) !== (b.url === undefined), {
      message: 'exactly one of file or url is required',
      path: ['file'],
    }),
  bodyEncoding: 'multipart',
  errors: [...writeErrors, ...fileErrors, 'x_account_feature_required'],
  cost: metered,
  writeAction: 'upload_media',
  idempotent: false,
  example: 'media upload --account myhandle --file ./launch.png',
});

export const updateProfile = defineOperation({
  ...write,
  id: 'updateProfile',
  method: 'PATCH',
  path: '/api/v1/x/profile',
  summary: 'Change the name, bio, location or website of a connected account',
  description: `${WRITE_NOTE} Only the fields sent change; at least one is required. The platform's own length limits apply (422 when exceeded).`,
  sdk: ['profile', 'update'],
  params: null,
  body: z
    .object({
      account: WriteAccountRef,
      name: z.string().optional().describe('New display name.'),
      description: z.string().optional().describe('New bio.'),
      location: z.string().optional().describe('New location text.'),
      url: z.string().optional().describe('New website link (empty to remove it).'),
    })
    .refine(
      (b) =>
        b.name !== undefined ||
        b.description !== undefined ||
        b.location !== undefined ||
        b.url !== undefined,
      { message: 'at least one of name, description, location or url is required', path: ['name'] },
    ),
  errors: [...writeErrors, 'x_content_too_long'],
  cost: metered,
  writeAction: 'update_profile',
  idempotent: true,
  example: 'profile update --account myhandle --description "Building developer tools"',
});

const profileImageBody = (what: string) =>
  z
    .object({
      account: WriteAccountRef,
      file: z
        .file()
        .mime([...PROFILE_IMAGE_TYPES])
        .optional()
        .describe(`The new ${what} image: AVIF, GIF, JPEG, PNG or WebP.`),
      url: PublicUrl.optional().describe(`Public http(s) URL of the new ${what} image, instead of \`file\`.`),
    })
    .refine((b) => (b.file === undefined) !== (b.url === undefined), {
      message: 'exactly one of file or url is required',
      path: ['file'],
    });

export const updateAvatar = defineOperation({
  ...write,
  id: 'updateAvatar',
  method: 'PATCH',
  path: '/api/v1/x/profile/avatar',
  summary: 'Replace the profile picture of a connected account',
  description: `${WRITE_NOTE} Multipart upload of one image, or a public \`url\` the service downloads instead (the service also accepts \`{ account, url }\` as JSON).`,
  sdk: ['profile', 'updateAvatar'],
  params: null,
  body: profileImageBody('avatar'),
  bodyEncoding: 'multipart',
  errors: [...writeErrors, ...fileErrors],
  cost: metered,
  writeAction: 'update_avatar',
  idempotent: true,
  example: 'profile update-avatar --account myhandle --file ./avatar.png',
});

export const updateBanner = defineOperation({
  ...write,
  id: 'updateBanner',
  method: 'PATCH',
  path: '/api/v1/x/profile/banner',
  summary: 'Replace the profile banner of a connected account',
  description: `${WRITE_NOTE} Multipart upload of one image, or a public \`url\` the service downloads instead (the service also accepts \`{ account, url }\` as JSON).`,
  sdk: ['profile', 'updateBanner'],
  params: null,
  body: profileImageBody('banner'),
  bodyEncoding: 'multipart',
  errors: [...writeErrors, ...fileErrors],
  cost: metered,
  writeAction: 'update_banner',
  idempotent: true,
  example: 'profile update-banner --account myhandle --file ./banner.jpg',
});

export const createCommunity = defineOperation({
  ...write,
  id: 'createCommunity',
  method: 'POST',
  path: '/api/v1/x/communities',
  summary: 'Create a community owned by a connected account',
  description: `${WRITE_NOTE} The account must be allowed to create communities on the platform (else 422 x_account_feature_required). The new id is in \`result.id\` / \`communityId\`.`,
  sdk: ['communities', 'create'],
  params: null,
  body: z.object({
    account: WriteAccountRef,
    name: z.string().trim().min(1).describe('Name of the community.'),
    description: z.string().optional().describe('What the community is about.'),
  }),
  errors: [...writeErrors, 'x_account_feature_required', 'x_duplicate_action'],
  cost: metered,
  writeAction: 'create_community',
  idempotent: false,
  example:
    'communities create --account myhandle --name "Rust builders" --description "Ship Rust in production"',
});

export const deleteCommunity = defineOperation({
  ...write,
  id: 'deleteCommunity',
  method: 'DELETE',
  path: '/api/v1/x/communities/{id}',
  summary: 'Delete a community owned by a connected account',
  description: `${WRITE_NOTE} The body repeats the community name as a confirmation.`,
  sdk: ['communities', 'delete'],
  params: communityParams,
  body: z.object({
    account: WriteAccountRef,
    community_name: z.string().min(1).describe('Exact name of the community, confirming the deletion.'),
  }),
  errors: [...writeErrors, 'x_target_not_found', 'invalid_community_id'],
  cost: metered,
  writeAction: 'delete_community',
  idempotent: true,
  example: 'communities delete 1600000000000000000 --account myhandle --community-name "Rust builders"',
});

export const joinCommunity = defineOperation({
  ...write,
  id: 'joinCommunity',
  method: 'POST',
  path: '/api/v1/x/communities/{id}/join',
  summary: 'Join a community with a connected account',
  description: WRITE_NOTE,
  sdk: ['communities', 'join'],
  params: communityParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found', 'invalid_community_id'],
  cost: metered,
  writeAction: 'join_community',
  idempotent: false,
  example: 'communities join 1600000000000000000 --account myhandle',
});

export const leaveCommunity = defineOperation({
  ...write,
  id: 'leaveCommunity',
  method: 'DELETE',
  path: '/api/v1/x/communities/{id}/join',
  summary: 'Leave a community with a connected account',
  description: WRITE_NOTE,
  sdk: ['communities', 'leave'],
  params: communityParams,
  body: accountOnlyBody,
  errors: [...writeErrors, 'x_target_not_found', 'invalid_community_id'],
  cost: metered,
  writeAction: 'leave_community',
  idempotent: true,
  example: 'communities leave 1600000000000000000 --account myhandle',
});

/** The X Write operations: the 18 durable writes and the status poll. */
export const xWriteOperations = [
  createTweet,
  getWriteActionStatus,
  deleteTweet,
  likeTweet,
  unlikeTweet,
  retweet,
  unretweet,
  followUser,
  unfollowUser,
  removeFollower,
  sendDm,
  uploadMedia,
  updateProfile,
  updateAvatar,
  updateBanner,
  createCommunity,
  deleteCommunity,
  joinCommunity,
  leaveCommunity,
] as const;

import type { Client } from '@xdevplatform/xdk';
import type {
  WriteActor,
  WriteCommand,
  WriteFile,
  WriteOutcome,
  WriteRejectionCode,
  WriteResult,
} from '../../core/platform/account-writes.js';
import { PlatformUnavailableError, PlatformWriteAmbiguousError } from '../../core/platform/platform.js';
import { downloadMedia, type MediaDownloadOptions } from './media-download.js';
import { type MediaProcessingWait, type MediaUploadOutcome, uploadToX } from './media-upload.js';
import { ambiguous, retryAfterOf, type UserCallFailure, userCallFailure } from './user-client.js';
import { isXId, parseUserRef } from './user-ref.js';

/** Writes X API v2 has no endpoint for, and what to say about each. */
const NO_ENDPOINT: Partial<Record<WriteCommand['action'], string>> = {
  remove_follower: 'removing a follower',
  update_profile: 'profile updates',
  update_avatar: 'avatar updates',
  update_banner: 'banner updates',
  create_community: 'creating a community',
  delete_community: 'deleting a community',
  join_community: 'joining a community',
  leave_community: 'leaving a community',
};

/** The refusal of a write X API v2 cannot perform (nothing was sent). */
export function noEndpointRefusal(action: WriteCommand['action']): WriteOutcome | undefined {
  const what = NO_ENDPOINT[action];
  if (!what) return undefined;
  return {
    ok: false,
    code: 'x_rejected',
    message: `X API v2 has no endpoint for ${what}, so the xapi platform cannot perform ${action}; do it on X itself`,
  };
}

/**
 * A status URL at the end of a tweet's text (`… https://x.com/user/status/123`): X API v2 quotes a post by
 * id, so the URL becomes `quote_tweet_id` and leaves the text.
 */
const QUOTE_URL =
  /\s*https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/[A-Za-z0-9_]{1,15}\/status\/(\d{1,19})\/?$/;

/** What a write needs besides the command: the user client, the clock, and the account's username. */
export interface XWriteContext {
  client: Client;
  actor: WriteActor;
  now: () => number;
  /** How media URLs are downloaded (the SSRF guard's loopback allowance) and X's processing waited for. */
  media?: XMediaOptions | undefined;
}

/** How the xapi platform handles media: downloads of media URLs, and X's chunked upload. */
export interface XMediaOptions {
  download?: MediaDownloadOptions | undefined;
  wait?: MediaProcessingWait | undefined;
  /** The bytes of one chunked-upload segment (`SEGMENT_BYTES` of `media-upload.ts` by default). */
  segmentBytes?: number | undefined;
}

/**
 * Performs one write on X as the connected account (OAuth 2.0 user context). X answers a write once and
 * keeps no idempotency key, so the outcome is:
 *
 * - X's answer: the result, or a refusal (nothing changed): 401 `x_auth_failure` (the token is dead), 404
 *   `x_target_not_found`, 403 with X's reason (`x_duplicate_action` for duplicate content, else
 *   `x_rejected`), 400 `x_rejected`;
 * - a 429, or nothing reaching X: `PlatformUnavailableError` (not performed, safe to send again);
 * - no answer after sending, or a 5xx: `PlatformWriteAmbiguousError` (never sent again).
 */
export async function xWrite(ctx: XWriteContext, command: WriteCommand): Promise<WriteOutcome> {
  const refusal = noEndpointRefusal(command.action);
  if (refusal) return refusal;
  const { client, actor } = ctx;
  const me = actor.userId;
  const what = `the ${command.action} write`;
  try {
    switch (command.action) {
      case 'create_tweet':
        return await createTweet(ctx, command);
      case 'delete_tweet': {
        const res = await client.posts.delete(command.tweetId);
        return done({
          type: 'state_change',
          id: command.tweetId,
          active: false,
          changed: res.data?.deleted !== false,
        });
      }
      case 'like': {
        const res = await client.users.likePost(me, { tweetId: command.tweetId });
        return done({ type: 'state_change', id: command.tweetId, active: res.data?.liked !== false });
      }
      case 'unlike': {
        const res = await client.users.unlikePost(me, command.tweetId);
        return done({ type: 'state_change', id: command.tweetId, active: res.data?.liked === true });
      }
      case 'retweet': {
        const res = await client.users.repostPost(me, { tweetId: command.tweetId });
        return done({ type: 'state_change', id: command.tweetId, active: res.data?.retweeted !== false });
      }
      case 'unretweet': {
        const res = await client.users.unrepostPost(me, command.tweetId);
        return done({ type: 'state_change', id: command.tweetId, active: res.data?.retweeted === true });
      }
      case 'follow':
      case 'unfollow': {
        const target = await resolveUser(client, command.user);
        if (!target) return reject('x_target_not_found', `X knows no user ${command.user}`);
        const res =
          command.action === 'follow'
            ? await client.users.followUser(me, { targetUserId: target.id })
            : await client.users.unfollowUser(me, target.id);
        const following = (res.data as { following?: boolean } | undefined)?.following;
        return done({
          type: 'state_change',
          id: target.id,
          active: command.action === 'follow' ? following !== false : following === true,
          target,
        });
      }
      case 'send_dm': {
        const attachments = (command.mediaIds ?? []).map((mediaId) => ({ mediaId }));
        const res = await client.directMessages.createByParticipantId(command.recipientId, {
          text: command.text,
          ...(attachments.length && { attachments }),
        });
        const id = res.data?.dmEventId;
        return done({
          type: 'direct_message',
          ...(id && { id }),
          target: { id: command.recipientId },
        });
      }
      case 'upload_media':
        return await uploadMedia(ctx, command.file, command.url);
      default:
        return reject('x_rejected', `the xapi platform cannot perform ${command.action}`);
    }
  } catch (err) {
    // Already classified (a lost answer found after X answered, an upload before a post that was not sent).
    if (err instanceof PlatformUnavailableError || err instanceof PlatformWriteAmbiguousError) throw err;
    return failure(userCallFailure(err), what, ctx.now());
  }
}

async function createTweet(
  ctx: XWriteContext,
  cmd: Extract<WriteCommand, { action: 'create_tweet' }>,
): Promise<WriteOutcome> {
  // X attaches media by the id of an upload made by the same account: each URL is downloaded and uploaded.
  const mediaIds: string[] = [];
  for (const url of cmd.media ?? []) {
    const uploaded = await uploadFrom(ctx, undefined, url).catch((err: unknown) => {
      throw beforePosting(err);
    });
    if (!uploaded.ok) return uploaded;
    mediaIds.push(uploaded.media.id);
  }
  let text = cmd.text ?? '';
  const quote = QUOTE_URL.exec(text);
  if (quote?.[1]) text = text.slice(0, quote.index);
  const res = await ctx.client.posts.create({
    text,
    ...(quote?.[1] && { quoteTweetId: quote[1] }),
    ...(cmd.replyToId && { reply: { inReplyToTweetId: cmd.replyToId } }),
    ...(cmd.communityId && { communityId: cmd.communityId }),
    ...(mediaIds.length > 0 && { media: { mediaIds } }),
  });
  const id = res.data?.id;
  if (!id) throw ambiguous('the create_tweet write', 'X answered without the new post’s id');
  return done({ type: 'tweet', id, url: `https://x.com/i/status/${id}` });
}

async function uploadMedia(
  ctx: XWriteContext,
  file: WriteFile | undefined,
  url: string | undefined,
): Promise<WriteOutcome> {
  const uploaded = await uploadFrom(ctx, file, url);
  if (!uploaded.ok) return uploaded;
  return done({ type: 'media', id: uploaded.media.id, media: uploaded.media });
}

/**
 * Uploads a file, or the file at `url` (downloaded through the SSRF guard, see `media-download.ts`), to X
 * as the account (`media-upload.ts`).
 */
async function uploadFrom(
  ctx: XWriteContext,
  file: WriteFile | undefined,
  url: string | undefined,
): Promise<MediaUploadOutcome> {
  let bytes = file;
  if (!bytes) {
    if (!url) return { ok: false, code: 'media_download_failed', message: 'no file and no URL to upload' };
    const got = await downloadMedia(url, ctx.media?.download);
    if (!got.ok) return got;
    bytes = got.file;
  }
  return uploadToX(
    {
      client: ctx.client,
      now: ctx.now,
      wait: ctx.media?.wait,
      segmentBytes: ctx.media?.segmentBytes,
    },
    bytes,
  );
}

/** A user named by id, @username or profile URL, as X knows it (looked up as the account). */
async function resolveUser(
  client: Client,
  ref: string,
): Promise<{ id: string; username?: string } | undefined> {
  const parsed = parseUserRef(ref);
  if (!parsed) return undefined;
  if ('id' in parsed && isXId(parsed.id)) return { id: parsed.id };
  if (!('username' in parsed)) return undefined;
  try {
    const res = await client.users.getByUsername(parsed.username);
    const { id, username } = res.data ?? {};
    return id ? { id, ...(username && { username }) } : undefined;
  } catch (err) {
    const f = userCallFailure(err);
    if (f.kind === 'answered' && (f.status === 404 || f.status === 400)) return undefined;
    throw err;
  }
}

/**
 * An upload of a post's media that failed before the post was sent: whatever X did with the upload, no post
 * exists, so a lost answer or a 5xx is not ambiguous but not performed (`x_api_unavailable`, safe to send
 * again: an unused upload expires on X). X's refusals and 429 map as every write's do.
 */
function beforePosting(err: unknown): unknown {
  if (err instanceof PlatformWriteAmbiguousError)
    return new PlatformUnavailableError(
      'x_api_unavailable',
      `${err.message.split(';')[0]}; the post was not sent`,
    );
  const f = userCallFailure(err);
  if (f.kind === 'no_answer' || (f.kind === 'answered' && f.status >= 500)) {
    const why = f.kind === 'no_answer' ? f.message : `X answered ${f.status}`;
    return new PlatformUnavailableError(
      'x_api_unavailable',
      `${why} to an upload of the post's media; the post was not sent`,
    );
  }
  return err;
}

/** Maps a failed write call to its outcome (see {@link xWrite}). */
function failure(f: UserCallFailure, what: string, now: number): WriteOutcome {
  if (f.kind === 'not_sent')
    throw new PlatformUnavailableError('x_api_unavailable', `${f.message}; ${what} was not sent`);
  if (f.kind === 'no_answer') throw ambiguous(what, f.message);
  if (f.status === 429) {
    const wait = retryAfterOf(f.headers, now);
    throw new PlatformUnavailableError(
      'x_api_rate_limited',
      `X's rate limit was reached for ${what}; nothing was performed`,
      wait,
    );
  }
  if (f.status >= 500) throw ambiguous(what, `X answered ${f.status}`);
  if (f.status === 401) return reject('x_auth_failure', `X refused the account's token for ${what}`);
  if (f.status === 404) return reject('x_target_not_found', `X found no target for ${what}: ${f.detail}`);
  if (f.status === 403 && /duplicate/i.test(f.detail)) return reject('x_duplicate_action', f.detail);
  if (f.status === 403 && /too long|280|length/i.test(f.detail))
    return reject('x_content_too_long', f.detail);
  if (f.status === 403 && /not allowed to reply|reply/i.test(f.detail))
    return reject('x_reply_not_allowed', f.detail);
  if (f.status === 403 && /direct message|dm/i.test(f.detail) && what.includes('send_dm'))
    return reject('x_dm_not_allowed', f.detail);
  return reject('x_rejected', `X refused ${what} (${f.status}): ${f.detail}`);
}

function done(result: WriteResult): WriteOutcome {
  return { ok: true, result };
}

function reject(code: WriteRejectionCode, message: string): WriteOutcome {
  return { ok: false, code, message };
}

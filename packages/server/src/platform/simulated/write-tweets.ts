import { num } from '../../core/db/database.js';
import type { WriteCommand, WriteOutcome } from '../../core/platform/account-writes.js';
import { bump } from './control.js';
import { loadTweets } from './lookup.js';
import type { MediaType } from './media.js';
import type { UserRow } from './stored.js';
import { done, follows, isPremium, reject, type SimWriteContext, targetTweet } from './write-context.js';

/** The length of a tweet without the long-post feature. */
export const TWEET_CHARS = 280;
/** How far back an identical text counts as a duplicate post. */
const DUPLICATE_WINDOW_MS = 24 * 3_600_000;

/** A status URL closing a text makes a quote of that tweet (how the platform's clients quote). */
const TRAILING_STATUS_URL =
  /\s*https?:\/\/(?:www\.)?(?:x|twitter)\.com\/\w{1,15}\/status\/(\d{1,25})\/?\s*$/i;
const UPLOAD_URL = /\/sim\/media\/(\d{1,25})(?:[?#].*)?$/;

const EXTENSION_TYPES: Record<string, MediaType> = {
  jpg: 'photo',
  jpeg: 'photo',
  png: 'photo',
  webp: 'photo',
  avif: 'photo',
  gif: 'animated_gif',
  mp4: 'video',
};

/** The media type a URL's extension names, if it names one. */
export function mediaTypeOfUrl(url: string): MediaType | undefined {
  const ext = /\.([A-Za-z0-9]{2,5})(?:[?#].*)?$/.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  return ext ? EXTENSION_TYPES[ext] : undefined;
}

type CreateTweet = Extract<WriteCommand, { action: 'create_tweet' }>;

/**
 * Posts a tweet as `actor`: a reply (`replyToId`), a quote (a status URL closing the text), a community post,
 * with media (an upload's own URL, or a URL whose extension names the type: the simulated platform fetches
 * nothing). Refused: text over 280 characters unless a note tweet by a verified account
 * (`x_content_too_long`, `x_account_feature_required`), the same text posted in the last 24 hours
 * (`x_duplicate_action`), a missing target (`x_target_not_found`), a reply to a protected account the actor
 * does not follow (`x_reply_not_allowed`), a community the actor is not a member of (`x_rejected`).
 */
export async function createTweet(
  ctx: SimWriteContext,
  actor: UserRow,
  cmd: CreateTweet,
): Promise<WriteOutcome> {
  let text = cmd.text ?? '';
  let quotedTweetId: string | undefined;
  const quote = TRAILING_STATUS_URL.exec(text);
  if (quote) {
    quotedTweetId = quote[1];
    text = text.slice(0, quote.index);
  }
  const length = [...text].length;
  if (length > TWEET_CHARS && !cmd.isNote)
    return reject(
      'x_content_too_long',
      `the text is ${length} characters; a tweet holds ${TWEET_CHARS} (send is_note_tweet for a long post)`,
    );
  if (length > TWEET_CHARS && !isPremium(actor))
    return reject(
      'x_account_feature_required',
      `@${actor.username} cannot post long text (it is not verified)`,
    );
  if (cmd.replyToId !== undefined) {
    const parent = await targetTweet(ctx, actor, cmd.replyToId, 'x_reply_not_allowed');
    if ('ok' in parent) return parent;
  }
  if (quotedTweetId !== undefined) {
    const quoted = await targetTweet(ctx, actor, quotedTweetId, 'x_target_not_found');
    if ('ok' in quoted) return quoted;
  }
  if (cmd.communityId !== undefined) {
    const community = await ctx.db
      .selectFrom('sim_communities')
      .select('id')
      .where('id', '=', cmd.communityId)
      .executeTakeFirst();
    if (!community) return reject('x_target_not_found', `no community ${cmd.communityId}`);
    const member = await ctx.db
      .selectFrom('sim_community_members')
      .select('user_id')
      .where('community_id', '=', cmd.communityId)
      .where('user_id', '=', actor.id)
      .executeTakeFirst();
    if (!member)
      return reject('x_rejected', `@${actor.username} is not a member of community ${cmd.communityId}`);
  }
  if (text.trim() && (await postedRecently(ctx, actor.id, text)))
    return reject('x_duplicate_action', 'the same text was posted in the last 24 hours');
  const media: { type: MediaType; url: string }[] = [];
  for (const url of cmd.media ?? []) {
    const type = await mediaTypeOf(ctx, actor, url);
    if (!type) return reject('media_download_failed', `cannot fetch media from ${url}`);
    media.push({ type, url });
  }
  const tweet = await ctx.control.createTweet({
    author: actor.id,
    text,
    ...(cmd.replyToId !== undefined && { inReplyToId: cmd.replyToId }),
    ...(quotedTweetId !== undefined && { quotedTweetId }),
    ...(cmd.communityId !== undefined && { communityId: cmd.communityId }),
    ...(media.length > 0 && { media }),
    source: 'xsvc write API',
  });
  return done({ type: 'tweet', id: tweet.id, url: `https://x.com/${actor.username}/status/${tweet.id}` });
}

/** Deletes an own tweet (`x_target_not_found` when missing, `x_rejected` for another account's tweet). */
export async function deleteTweet(
  ctx: SimWriteContext,
  actor: UserRow,
  tweetId: string,
): Promise<WriteOutcome> {
  const row = (await loadTweets(ctx.db, [tweetId])).get(tweetId);
  if (!row || num(row.deleted)) return reject('x_target_not_found', `no tweet ${tweetId}`);
  if (row.author_id !== actor.id)
    return reject('x_rejected', `tweet ${tweetId} is not a tweet of @${actor.username}`);
  await ctx.control.deleteTweet(tweetId);
  return done({ type: 'state_change', id: tweetId, active: false });
}

/** Likes a tweet (nothing changes when it is already liked). */
export async function like(ctx: SimWriteContext, actor: UserRow, tweetId: string): Promise<WriteOutcome> {
  const target = await targetTweet(ctx, actor, tweetId, 'x_account_protected');
  if ('ok' in target) return target;
  const changed = await ctx.control.like(actor.id, tweetId);
  return done({ type: 'state_change', id: tweetId, active: true, changed });
}

/** Removes a like (nothing changes when there is none). */
export async function unlike(ctx: SimWriteContext, actor: UserRow, tweetId: string): Promise<WriteOutcome> {
  const row = (await loadTweets(ctx.db, [tweetId])).get(tweetId);
  if (!row) return reject('x_target_not_found', `no tweet ${tweetId}`);
  const changed = await ctx.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('sim_likes')
      .where('user_id', '=', actor.id)
      .where('tweet_id', '=', tweetId)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await bump(trx, 'sim_tweets', tweetId, { like_count: -1 });
    await bump(trx, 'sim_users', actor.id, { favourites_count: -1 });
    return true;
  });
  return done({ type: 'state_change', id: tweetId, active: false, changed });
}

/** Reposts a tweet (the original of a repost); protected tweets cannot be reposted. */
export async function retweet(ctx: SimWriteContext, actor: UserRow, tweetId: string): Promise<WriteOutcome> {
  const target = await targetTweet(ctx, actor, tweetId, 'x_account_protected');
  if ('ok' in target) return target;
  if (num(target.author.protected) && target.author.id !== actor.id)
    return reject('x_account_protected', `tweets of @${target.author.username} cannot be reposted`);
  const originalId = target.tweet.retweet_of_id ?? target.tweet.id;
  const changed = !(await ownRepost(ctx, actor.id, originalId));
  if (changed) await ctx.control.createTweet({ author: actor.id, retweetOfId: originalId });
  return done({ type: 'state_change', id: originalId, active: true, changed });
}

/** Undoes a repost (nothing changes when there is none). */
export async function unretweet(
  ctx: SimWriteContext,
  actor: UserRow,
  tweetId: string,
): Promise<WriteOutcome> {
  const row = (await loadTweets(ctx.db, [tweetId])).get(tweetId);
  if (!row) return reject('x_target_not_found', `no tweet ${tweetId}`);
  const originalId = row.retweet_of_id ?? row.id;
  const repost = await ownRepost(ctx, actor.id, originalId);
  if (repost) await ctx.control.deleteTweet(repost);
  return done({ type: 'state_change', id: originalId, active: false, changed: repost !== undefined });
}

async function ownRepost(ctx: SimWriteContext, userId: string, tweetId: string): Promise<string | undefined> {
  const row = await ctx.db
    .selectFrom('sim_tweets')
    .select('id')
    .where('retweet_of_id', '=', tweetId)
    .where('author_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  return row?.id;
}

async function postedRecently(ctx: SimWriteContext, userId: string, text: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('sim_tweets')
    .select('id')
    .where('author_id', '=', userId)
    .where('text', '=', text)
    .where('kind', '<>', 'retweet')
    .where('deleted', '=', 0)
    .where('created_at', '>', ctx.clock.now() - DUPLICATE_WINDOW_MS)
    .executeTakeFirst();
  return row !== undefined;
}

/** The type of a media URL: an own upload's, else the URL's extension's; undefined when unknown. */
async function mediaTypeOf(
  ctx: SimWriteContext,
  actor: UserRow,
  url: string,
): Promise<MediaType | undefined> {
  const upload = UPLOAD_URL.exec(new URL(url).pathname)?.[1];
  if (upload) {
    const row = await ctx.db
      .selectFrom('simulated_uploads')
      .select('media_type')
      .where('id', '=', upload)
      .where('user_id', '=', actor.id)
      .executeTakeFirst();
    return row?.media_type as MediaType | undefined;
  }
  return mediaTypeOfUrl(url);
}

/** Whether `actor` may read `other`'s protected content: itself, or a follower. */
export async function canSee(ctx: SimWriteContext, actor: UserRow, other: UserRow): Promise<boolean> {
  return !num(other.protected) || other.id === actor.id || (await follows(ctx, actor.id, other.id));
}

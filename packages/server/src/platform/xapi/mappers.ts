import type { schemas } from '@xsvc/sdk/contract';
import type { PlatformArticle, Tweet } from '../../core/platform/platform.js';
import { compact, nonEmpty } from './compact.js';
import { mapAuthor, mapUser } from './map-user.js';
import type { XEntities, XIncludes, XMedia, XPoll, XPostReference, XTweet, XUser } from './types.js';

export { mapAuthor, mapCommunity, mapList, mapTrends, mapUser } from './map-user.js';

type NestedTweet = Omit<Tweet, 'quoted_tweet' | 'retweeted_tweet'>;
type Entities = NonNullable<Tweet['entities']>;

/** The `includes` of one answer, indexed by id (media by `media_key`) so that expansions join in O(1). */
export interface Expanded {
  users: ReadonlyMap<string, XUser>;
  tweets: ReadonlyMap<string, XTweet>;
  media: ReadonlyMap<string, XMedia>;
  polls: ReadonlyMap<string, XPoll>;
}

/** Indexes the `includes` of an answer. */
export function expand(includes: XIncludes | undefined): Expanded {
  return {
    users: new Map((includes?.users ?? []).map((u) => [u.id, u])),
    tweets: new Map([...(includes?.tweets ?? []), ...(includes?.posts ?? [])].map((t) => [t.id, t])),
    media: new Map((includes?.media ?? []).map((m) => [m.media_key, m])),
    polls: new Map((includes?.polls ?? []).map((p) => [p.id, p])),
  };
}

/**
 * An X v2 post and the expansions of its answer → our `Tweet` (spec 2.10): the quoted and retweeted posts are
 * joined from `includes.posts` one level deep, the author, media and poll from the other includes.
 */
export function mapTweet(tweet: XTweet, inc: Expanded): Tweet {
  const out: Tweet = mapBody(tweet, inc);
  const quoted = referenced(tweet, 'quoted', inc);
  if (quoted) out.quoted_tweet = mapBody(quoted, inc);
  const retweetRef = refsOf(tweet).find((r) => r.type === 'retweeted');
  if (retweetRef) {
    // The repost record's own time is the repost time; X gives no other.
    out.retweetedAt = tweet.created_at ?? null;
    const original = inc.tweets.get(retweetRef.id);
    if (original) out.retweeted_tweet = mapBody(original, inc);
  }
  return out;
}

/** The posts a post refers to, under today's name or the one before. */
export function refsOf(tweet: XTweet): XPostReference[] {
  return tweet.referenced_posts ?? tweet.referenced_tweets ?? [];
}

function referenced(tweet: XTweet, type: 'quoted' | 'replied_to', inc: Expanded): XTweet | undefined {
  const ref = refsOf(tweet).find((r) => r.type === type);
  return ref ? inc.tweets.get(ref.id) : undefined;
}

/** Everything of a tweet but the nested tweets. */
function mapBody(tweet: XTweet, inc: Expanded): NestedTweet {
  const author = tweet.author_id ? inc.users.get(tweet.author_id) : undefined;
  const refs = refsOf(tweet);
  const replyTo = refs.find((r) => r.type === 'replied_to');
  const replyToUser = tweet.in_reply_to_user_id ? inc.users.get(tweet.in_reply_to_user_id) : undefined;
  const note = tweet.note_post ?? tweet.note_tweet;
  const entities = note?.entities ?? tweet.entities;
  const media = (tweet.attachments?.media_keys ?? []).flatMap((key) => {
    const m = inc.media.get(key);
    const item = m && mapMedia(m, entities);
    return item ? [item] : [];
  });
  const pollId = tweet.attachments?.poll_ids?.[0];
  const poll = pollId ? inc.polls.get(pollId) : undefined;
  const metrics = tweet.public_metrics;
  return compact({
    id: tweet.id,
    text: note?.text ?? tweet.text,
    createdAt: tweet.created_at ?? snowflakeTime(tweet.id),
    url: `https://x.com/${author ? author.username : 'i/web'}/status/${tweet.id}`,
    lang: tweet.lang,
    isNoteTweet: note ? true : undefined,
    isReply: replyTo !== undefined,
    isLimitedReply: tweet.reply_settings === undefined ? undefined : tweet.reply_settings !== 'everyone',
    isQuoteStatus: refs.some((r) => r.type === 'quoted'),
    isRetweet: refs.some((r) => r.type === 'retweeted'),
    conversationId: tweet.conversation_id,
    displayTextRange: tweet.display_text_range,
    communityId: tweet.community_id,
    inReplyToId: replyTo?.id,
    inReplyToUserId: tweet.in_reply_to_user_id,
    inReplyToUsername: replyToUser?.username,
    entities: mapEntities(entities, media),
    likeCount: metrics?.like_count,
    retweetCount: metrics?.repost_count ?? metrics?.retweet_count,
    replyCount: metrics?.reply_count,
    quoteCount: metrics?.quote_count,
    viewCount: metrics?.impression_count,
    bookmarkCount: metrics?.bookmark_count,
    media: nonEmpty(media),
    poll: poll && mapPoll(poll),
    author: author && mapAuthor(author),
  });
}

const MEDIA_TYPES = new Set(['photo', 'video', 'animated_gif']);

/** A media item: photos carry `url`; videos and GIFs a preview image and their renditions in `variants`. */
function mapMedia(m: XMedia, entities: XEntities | undefined): schemas.TweetMedia | undefined {
  const mediaUrl = m.url ?? m.preview_image_url;
  if (!mediaUrl || !MEDIA_TYPES.has(m.type)) return undefined;
  const variants = m.variants?.map((v) =>
    compact({ bitrate: v.bit_rate, contentType: v.content_type, url: v.url }),
  );
  return compact({
    type: m.type,
    mediaUrl,
    // The t.co link of the media is the URL entity that names this media key.
    url: entities?.urls?.find((u) => u.media_key === m.media_key)?.url,
    width: m.width,
    height: m.height,
    variants: nonEmpty(variants),
  });
}

function mapEntities(e: XEntities | undefined, media: schemas.TweetMedia[]): Entities | undefined {
  const out: Entities = compact({
    urls: nonEmpty(
      e?.urls
        ?.filter((u) => !u.media_key)
        .map((u) => compact({ url: u.url, expandedUrl: u.expanded_url, displayUrl: u.display_url })),
    ),
    mentions: nonEmpty(e?.mentions?.map((m) => compact({ id: m.id, username: m.username }))),
    hashtags: nonEmpty(e?.hashtags?.map((h) => ({ text: h.tag }))),
    cashtags: nonEmpty(e?.cashtags?.map((c) => ({ text: c.tag }))),
    media: nonEmpty(media.map((m) => ({ mediaUrl: m.mediaUrl, type: m.type }))),
  });
  return Object.keys(out).length > 0 ? out : undefined;
}

function mapPoll(p: XPoll): NonNullable<Tweet['poll']> {
  const options = [...p.options].sort((a, b) => a.position - b.position);
  const status = p.voting_status === 'open' || p.voting_status === 'closed' ? p.voting_status : undefined;
  return compact({
    options: options.map((o) => compact({ label: o.label, votes: o.votes })),
    endsAt: p.end_datetime,
    votingStatus: status,
  });
}

const TWITTER_EPOCH_MS = 1288834974657n;

/** A post id is a snowflake whose high bits are its creation time: the fallback when `created_at` is absent. */
function snowflakeTime(id: string): string {
  try {
    return new Date(Number((BigInt(id) >> 22n) + TWITTER_EPOCH_MS)).toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}

/**
 * A post with `post.fields=article,article_title` → our `PlatformArticle`, or `undefined` for a post without
 * one. X's description leaves the article object open; the names read are the ones X answers with (`title`,
 * `preview_text`, `plain_text`, `cover_media` naming a media key of `includes.media`).
 */
export function mapArticle(post: XTweet, inc: Expanded): PlatformArticle | undefined {
  const a = post.article;
  if (!a) return undefined;
  const author = post.author_id ? inc.users.get(post.author_id) : undefined;
  const titled = typeof post.article_title === 'string' ? post.article_title : post.article_title?.title;
  const body = a.plain_text ?? '';
  const cover = a.cover_media ? inc.media.get(a.cover_media) : undefined;
  const coverUrl = cover?.url ?? cover?.preview_image_url;
  return {
    tweetId: post.id,
    title: a.title ?? titled ?? '',
    bodyText: body,
    previewText: a.preview_text ?? body.slice(0, 280),
    ...(coverUrl ? { coverImageUrl: coverUrl } : {}),
    author: author
      ? mapUser(author)
      : { id: post.author_id ?? '', username: '', name: '', unavailable: true },
    createdAt: post.created_at ?? snowflakeTime(post.id),
  };
}

import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { HttpError } from '../http/errors.js';
import type { Tweet, TweetFilters, UserFilters, UserProfile } from '../platform/platform.js';

/** The parsed query of a set of contract fields (a shared parameter group such as `tweetFilterQuery`). */
type Parsed<Shape extends z.core.$ZodShape> = z.output<z.ZodObject<Shape>>;

/**
 * The tweet filter parameters of the contract (`tweetFilterQuery`, `timeWindowQuery`), as parsed: derived
 * from the contract, so a filter field renamed or removed there is a type error wherever it is read here.
 */
export type TweetFilterParams = Parsed<typeof schemas.tweetFilterQuery & typeof schemas.timeWindowQuery>;

/** Unix seconds of a time bound: Unix seconds as digits, or ISO 8601 (validated by the contract). */
export function unixSeconds(bound: string | number): number {
  if (typeof bound === 'number') return bound;
  return /^\d+$/.test(bound) ? Number(bound) : Math.floor(Date.parse(bound) / 1000);
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const SPAN_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400 };

function withinSeconds(span: string): number {
  const m = /^(\d{1,6})\s*([smhd])$/i.exec(span.trim());
  if (!m) throw new HttpError('invalid_input', 'withinTime: must be a span such as 30m, 2h or 3d');
  return Number(m[1]) * (SPAN_SECONDS[(m[2] as string).toLowerCase()] ?? 1);
}

/**
 * The filters the platform applies itself (`TweetFilters`, times in Unix seconds). The date, span and
 * native-repost parameters are folded into them: `sinceDate`/`untilDate`/`withinTime` narrow the time
 * window, `nativeRetweets` means reposts only, `news` means tweets with links.
 */
export function toTweetFilters(q: TweetFilterParams, nowMs: number): TweetFilters {
  const since = [
    q.sinceTime === undefined ? undefined : unixSeconds(q.sinceTime),
    q.sinceDate === undefined ? undefined : Date.parse(`${q.sinceDate}T00:00:00Z`) / 1000,
    q.withinTime === undefined ? undefined : Math.floor(nowMs / 1000) - withinSeconds(q.withinTime),
  ].filter((v): v is number => v !== undefined);
  const until = [
    q.untilTime === undefined ? undefined : unixSeconds(q.untilTime),
    q.untilDate === undefined ? undefined : Date.parse(`${q.untilDate}T00:00:00Z`) / 1000,
  ].filter((v): v is number => v !== undefined);
  const f: TweetFilters = {};
  if (q.fromUser) f.fromUser = q.fromUser;
  if (q.toUser) f.toUser = q.toUser;
  if (q.mentioning) f.mentioning = q.mentioning;
  if (q.language) f.language = q.language;
  if (since.length) f.sinceTime = Math.max(...since);
  if (until.length) f.untilTime = Math.min(...until);
  const mediaType = q.mediaType ?? (q.news ? 'links' : undefined);
  if (mediaType) f.mediaType = mediaType;
  if (q.minFaves !== undefined) f.minFaves = q.minFaves;
  if (q.minRetweets !== undefined) f.minRetweets = q.minRetweets;
  if (q.minReplies !== undefined) f.minReplies = q.minReplies;
  if (q.replies) f.replies = q.replies;
  const retweets = q.retweets ?? (q.nativeRetweets ? 'only' : undefined);
  if (retweets) f.retweets = retweets;
  if (q.quotes) f.quotes = q.quotes;
  if (q.verifiedOnly || q.blueVerifiedOnly) f.verifiedOnly = true;
  if (q.exactPhrase) f.exactPhrase = q.exactPhrase;
  if (q.excludeWords) f.excludeWords = list(q.excludeWords);
  if (q.anyWords) f.anyWords = list(q.anyWords);
  if (q.hashtags) f.hashtags = list(q.hashtags);
  return f;
}

const id = (v: string) => BigInt(v);

/**
 * The filters no platform listing applies, checked on each returned tweet: upper bounds and the other
 * engagement minimums, cashtags, link, conversation and reference ids, client, id window.
 */
export function tweetMatcher(q: TweetFilterParams): (t: Tweet) => boolean {
  const atMost = (v: number | undefined, max: number | undefined) => max === undefined || (v ?? 0) <= max;
  const atLeast = (v: number | undefined, min: number | undefined) => min === undefined || (v ?? 0) >= min;
  const cashtags = list(q.cashtags).map((c) => c.replace(/^\$/, '').toLowerCase());
  const url = q.url?.toLowerCase();
  return (t) => {
    if (!atLeast(t.quoteCount, q.minQuotes) || !atLeast(t.viewCount, q.minViews)) return false;
    if (!atLeast(t.bookmarkCount, q.minBookmarks)) return false;
    if (!atMost(t.likeCount, q.maxFaves) || !atMost(t.retweetCount, q.maxRetweets)) return false;
    if (!atMost(t.replyCount, q.maxReplies) || !atMost(t.quoteCount, q.maxQuotes)) return false;
    if (q.blueVerifiedOnly && !t.author?.verified) return false;
    if (cashtags.length) {
      const own = new Set((t.entities?.cashtags ?? []).map((c) => c.text.toLowerCase()));
      const inText = t.text.toLowerCase();
      if (!cashtags.every((c) => own.has(c) || inText.includes(`$${c}`))) return false;
    }
    if (url) {
      const links = (t.entities?.urls ?? []).flatMap((u) => [u.url, u.expandedUrl ?? '', u.displayUrl ?? '']);
      if (!links.some((l) => l.toLowerCase().includes(url)) && !t.text.toLowerCase().includes(url))
        return false;
    }
    if (q.conversationId && t.conversationId !== q.conversationId) return false;
    if (q.inReplyToTweetId && t.inReplyToId !== q.inReplyToTweetId) return false;
    if (q.quotesOfTweetId && t.quoted_tweet?.id !== q.quotesOfTweetId) return false;
    if (q.retweetsOfTweetId && t.retweeted_tweet?.id !== q.retweetsOfTweetId) return false;
    if (q.source && t.source?.toLowerCase() !== q.source.toLowerCase()) return false;
    if (q.excludeSource && t.source?.toLowerCase() === q.excludeSource.toLowerCase()) return false;
    if (q.sinceId && id(t.id) <= id(q.sinceId)) return false;
    if (q.maxId && id(t.id) > id(q.maxId)) return false;
    return true;
  };
}

/** The user filter parameters of the contract (`userFilterQuery`), as parsed (derived, as above). */
export type UserFilterParams = Parsed<typeof schemas.userFilterQuery>;

/** The user filters the platform applies itself. */
export function toUserFilters(q: UserFilterParams): UserFilters {
  const f: UserFilters = {};
  if (q.minFollowers !== undefined) f.minFollowers = q.minFollowers;
  if (q.maxFollowers !== undefined) f.maxFollowers = q.maxFollowers;
  if (q.verifiedOnly) f.verifiedOnly = true;
  if (q.bioContains) f.bioContains = q.bioContains;
  return f;
}

/** Every user filter, checked on each returned profile (the platform's own ones again, harmlessly). */
export function userMatcher(q: UserFilterParams, nowMs: number): (u: UserProfile) => boolean {
  const has = (v: string | undefined, needle: string | undefined) =>
    needle === undefined || (v ?? '').toLowerCase().includes(needle.toLowerCase());
  const within = (v: number | undefined, min: number | undefined, max: number | undefined) =>
    (min === undefined || (v ?? 0) >= min) && (max === undefined || (v ?? 0) <= max);
  return (u) => {
    if (!within(u.followers, q.minFollowers, q.maxFollowers)) return false;
    if (!within(u.following, q.minFollowing, q.maxFollowing)) return false;
    if (!within(u.statusesCount, q.minStatuses, q.maxStatuses)) return false;
    if (q.minAccountAgeDays !== undefined) {
      const created = u.createdAt ? Date.parse(u.createdAt) : nowMs;
      if ((nowMs - created) / 86_400_000 < q.minAccountAgeDays) return false;
    }
    if (q.verifiedOnly && !u.verified) return false;
    if (q.verifiedType && u.verifiedType?.toLowerCase() !== q.verifiedType.toLowerCase()) return false;
    if (q.hasWebsite !== undefined && Boolean(u.url) !== q.hasWebsite) return false;
    if (q.hasLocation !== undefined && Boolean(u.location) !== q.hasLocation) return false;
    return (
      has(u.description, q.bioContains) &&
      has(u.location, q.locationContains) &&
      has(u.username, q.usernameContains)
    );
  };
}

import type { Tweet, TweetFilters, UserFilters, UserProfile } from '../../core/platform/platform.js';

/** A username without @ or surrounding spaces. */
export function bareUsername(name: string): string {
  return name.trim().replace(/^@/, '');
}

function quoted(phrase: string): string {
  return `"${phrase.replace(/"/g, '')}"`;
}

function toggle(op: string, mode: 'include' | 'exclude' | 'only' | undefined): string | undefined {
  if (mode === 'exclude') return `-${op}`;
  if (mode === 'only') return op;
  return undefined;
}

/**
 * Translates filters into X API v2 search operators. v2 has no `min_faves`/`min_retweets`/`min_replies`
 * and no GIF operator: those are checked on the results instead ({@link tweetMatcher}). Times go to the
 * `start_time`/`end_time` parameters ({@link timeParams}), not the query.
 */
export function searchOperators(f: TweetFilters): string[] {
  const ops: (string | undefined)[] = [
    f.exactPhrase ? quoted(f.exactPhrase) : undefined,
    f.anyWords?.length ? `(${f.anyWords.join(' OR ')})` : undefined,
    ...(f.hashtags ?? []).map((h) => `#${h.replace(/^#/, '')}`),
    ...(f.excludeWords ?? []).map((w) => `-${w.includes(' ') ? quoted(w) : w}`),
    f.fromUser ? `from:${bareUsername(f.fromUser)}` : undefined,
    f.toUser ? `to:${bareUsername(f.toUser)}` : undefined,
    f.mentioning ? `@${bareUsername(f.mentioning)}` : undefined,
    f.language ? `lang:${f.language}` : undefined,
    mediaOperator(f.mediaType),
    toggle('is:reply', f.replies),
    toggle('is:retweet', f.retweets),
    toggle('is:quote', f.quotes),
    f.verifiedOnly ? 'is:verified' : undefined,
  ];
  return ops.filter((op): op is string => op !== undefined);
}

function mediaOperator(mediaType: string | undefined): string | undefined {
  switch (mediaType) {
    case 'images':
      return 'has:images';
    case 'videos':
      return 'has:video_link';
    case 'gifs':
    case 'media':
      return 'has:media';
    default:
      return undefined;
  }
}

/** `start_time`/`end_time` (ISO 8601) from filter times in Unix seconds. */
export function timeParams(f: TweetFilters): { start_time?: string; end_time?: string } {
  const iso = (s: number) => new Date(s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    ...(f.sinceTime !== undefined ? { start_time: iso(f.sinceTime) } : {}),
    ...(f.untilTime !== undefined ? { end_time: iso(f.untilTime) } : {}),
  };
}

function has(list: readonly string[] | undefined, value: string): boolean {
  return (list ?? []).some((v) => v.toLowerCase() === value.toLowerCase());
}

function mode(value: boolean, m: 'include' | 'exclude' | 'only' | undefined): boolean {
  return m === 'exclude' ? !value : m === 'only' ? value : true;
}

/**
 * A predicate applying filters to mapped tweets. With `operatorsApplied` (a search query already carried
 * them) only what v2 operators cannot express is checked; otherwise (timelines, quote lists) every filter.
 */
export function tweetMatcher(f: TweetFilters, operatorsApplied: boolean): (t: Tweet) => boolean {
  return (t) => {
    const mediaTypes = (t.media ?? []).map((m) => m.type);
    if (f.mediaType === 'gifs' && !mediaTypes.includes('animated_gif')) return false;
    if (f.minFaves !== undefined && (t.likeCount ?? 0) < f.minFaves) return false;
    if (f.minRetweets !== undefined && (t.retweetCount ?? 0) < f.minRetweets) return false;
    if (f.minReplies !== undefined && (t.replyCount ?? 0) < f.minReplies) return false;
    if (operatorsApplied) return true;
    const text = t.text.toLowerCase();
    const created = Date.parse(t.createdAt) / 1000;
    if (f.fromUser && t.author?.username.toLowerCase() !== bareUsername(f.fromUser).toLowerCase())
      return false;
    if (f.toUser && t.inReplyToUsername?.toLowerCase() !== bareUsername(f.toUser).toLowerCase()) return false;
    if (
      f.mentioning &&
      !(t.entities?.mentions ?? []).some((m) => has([m.username], bareUsername(f.mentioning ?? '')))
    ) {
      return false;
    }
    if (f.language && t.lang !== f.language) return false;
    if (f.sinceTime !== undefined && created < f.sinceTime) return false;
    if (f.untilTime !== undefined && created >= f.untilTime) return false;
    if (f.mediaType === 'images' && !mediaTypes.includes('photo')) return false;
    if (f.mediaType === 'videos' && !mediaTypes.includes('video')) return false;
    if (f.mediaType === 'media' && mediaTypes.length === 0) return false;
    if (!mode(t.isReply === true, f.replies) || !mode(t.isRetweet === true, f.retweets)) return false;
    if (!mode(t.isQuoteStatus === true, f.quotes)) return false;
    if (f.verifiedOnly && t.author?.verified !== true) return false;
    if (f.exactPhrase && !text.includes(f.exactPhrase.toLowerCase())) return false;
    if (f.excludeWords?.some((w) => text.includes(w.toLowerCase()))) return false;
    if (f.anyWords?.length && !f.anyWords.some((w) => text.includes(w.toLowerCase()))) return false;
    const tags = (t.entities?.hashtags ?? []).map((h) => h.text);
    return (f.hashtags ?? []).every((h) => has(tags, h.replace(/^#/, '')));
  };
}

/** A predicate applying user filters (v2 user listings take none, so they are checked on the results). */
export function userMatcher(f: UserFilters): (u: UserProfile) => boolean {
  return (u) => {
    const followers = u.followers ?? 0;
    if (f.minFollowers !== undefined && followers < f.minFollowers) return false;
    if (f.maxFollowers !== undefined && followers > f.maxFollowers) return false;
    if (f.verifiedOnly && u.verified !== true) return false;
    if (f.bioContains && !(u.description ?? '').toLowerCase().includes(f.bioContains.toLowerCase()))
      return false;
    return true;
  };
}

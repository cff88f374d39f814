import type { schemas } from '@xsvc/sdk/contract';
import type { Tweet, UserProfile } from '../../core/platform/platform.js';

/** The draw request once validated (spec 4.7). */
export type DrawSettings = schemas.DrawRequest & { winnerCount: number };

/** Why an entry is not eligible; entries without a reason are valid. */
export type ExclusionReason =
  | 'giveaway_author'
  | 'language'
  | 'missing_keyword'
  | 'missing_hashtag'
  | 'missing_mention'
  | 'min_followers'
  | 'account_age'
  | 'not_retweeted'
  | 'retweet_unverified'
  | 'not_following'
  | 'follow_unverified'
  | 'duplicate_author';

/** A reply a draw inspected. */
export interface DrawEntry {
  /** Order in which the reply was read, from 1. */
  position: number;
  tweetId: string;
  authorId: string;
  authorUsername: string;
  text: string;
  createdAt: string;
  reason?: ExclusionReason;
}

const lower = (s: string) => s.toLowerCase();

/** Whether `text` contains `#tag` or `@name` as a whole token (case-insensitive). */
function hasToken(text: string, sigil: '#' | '@', name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}_])${sigil}${escaped}(?![\\p{L}\\p{N}_])`, 'iu').test(text);
}

/**
 * The first text filter a reply fails (spec 4.7): the giveaway author's own replies, the language, the
 * required keywords (substrings, case-insensitive), hashtags and mentions (from the tweet's entities or
 * its text). Undefined when it passes them all.
 */
export function textExclusion(
  reply: Tweet,
  settings: DrawSettings,
  hostId: string | undefined,
): ExclusionReason | undefined {
  if (hostId !== undefined && reply.author?.id === hostId) return 'giveaway_author';
  if (settings.filterLanguage && lower(reply.lang ?? '') !== lower(settings.filterLanguage))
    return 'language';
  const text = reply.text;
  if (settings.requiredKeywords?.some((k) => !lower(text).includes(lower(k)))) return 'missing_keyword';
  const tags = new Set((reply.entities?.hashtags ?? []).map((h) => lower(h.text)));
  if (
    settings.requiredHashtags?.some((h) => !tags.has(lower(h.slice(1))) && !hasToken(text, '#', h.slice(1)))
  ) {
    return 'missing_hashtag';
  }
  const mentioned = new Set((reply.entities?.mentions ?? []).map((m) => lower(m.username)));
  if (
    settings.requiredMentions?.some(
      (m) => !mentioned.has(lower(m.slice(1))) && !hasToken(text, '@', m.slice(1)),
    )
  ) {
    return 'missing_mention';
  }
  return undefined;
}

/** Whether the profile filters need each author's profile (follower count, account age). */
export function needsProfiles(settings: DrawSettings): boolean {
  return settings.filterMinFollowers !== undefined || settings.filterAccountAgeDays !== undefined;
}

/**
 * The profile filter an author fails: fewer followers than `filterMinFollowers`, or an account younger than
 * `filterAccountAgeDays` at `now` (an unknown age or count fails). Undefined when it passes.
 */
export function profileExclusion(
  profile: UserProfile | undefined,
  settings: DrawSettings,
  now: number,
): ExclusionReason | undefined {
  if (settings.filterMinFollowers !== undefined && (profile?.followers ?? -1) < settings.filterMinFollowers) {
    return 'min_followers';
  }
  if (settings.filterAccountAgeDays !== undefined) {
    const created = profile?.createdAt === undefined ? Number.NaN : Date.parse(profile.createdAt);
    if (!(now - created >= settings.filterAccountAgeDays * 86_400_000)) return 'account_age';
  }
  return undefined;
}

/** Whether tweet id `a` is older than `b` (ids are big integers that grow with time). */
function olderId(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

/**
 * Marks every valid entry but the earliest of each author `duplicate_author` (`uniqueAuthorsOnly`: an author
 * counts once, however many times they replied).
 */
export function markDuplicateAuthors(entries: DrawEntry[]): void {
  const first = new Map<string, DrawEntry>();
  for (const e of entries) {
    if (e.reason) continue;
    const seen = first.get(e.authorId);
    if (!seen || olderId(e.tweetId, seen.tweetId)) first.set(e.authorId, e);
  }
  for (const e of entries) if (!e.reason && first.get(e.authorId) !== e) e.reason = 'duplicate_author';
}

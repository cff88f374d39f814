import { accountProtected, tweetNotFound, userNotFound } from '../http/platform-errors.js';
import type { Platform, Tweet, UserProfile } from '../platform/platform.js';

const STATUS_URL = /\/status(?:es)?\/(\d{1,25})/i;

/** The tweet id of a reference the contract accepted (`TweetRef`): a numeric id or a status URL. */
export function tweetIdOf(ref: string): string {
  const value = ref.trim();
  return /^\d{1,25}$/.test(value) ? value : (STATUS_URL.exec(value)?.[1] ?? value);
}

/** The tweet a reference names, or 404 `tweet_not_found` with the platform's `reason`. */
export async function requireTweet(platform: Platform, ref: string): Promise<Tweet> {
  const found = await platform.getTweet(tweetIdOf(ref));
  if ('missing' in found) throw tweetNotFound(found.missing);
  return found.tweet;
}

/** The profile a user reference names (id, username with or without @, profile URL), or 404 `user_not_found`. */
export async function requireUser(platform: Platform, ref: string): Promise<UserProfile> {
  const user = await platform.getUser(ref);
  if (!user) throw userNotFound(ref);
  return user;
}

/**
 * A user whose timelines and lists may be read: 404 for a missing or suspended account (it has nothing to
 * show), 403 `x_account_protected` for a protected one (free, spec 7).
 */
export async function requireReadableUser(platform: Platform, ref: string): Promise<UserProfile> {
  const user = await requireUser(platform, ref);
  if (user.unavailable) throw userNotFound(ref, { reason: user.unavailableReason ?? 'unavailable' });
  if (user.protected) throw accountProtected(user.username);
  return user;
}

/** The author block (spec 2.10) of a profile: who wrote a tweet or an article. */
export function toAuthor(u: UserProfile): NonNullable<Tweet['author']> {
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    ...(u.followers !== undefined && { followers: u.followers }),
    ...(u.verified !== undefined && { verified: u.verified }),
    ...(u.profilePicture !== undefined && { profilePicture: u.profilePicture }),
  };
}

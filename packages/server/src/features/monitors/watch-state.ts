import type { Platform, UserProfile } from '../../core/platform/platform.js';
import { type ProfileSnapshot, snapshotOf } from './profile-diff.js';

/** What an account monitor starts from at creation or resume. */
export interface WatchStart {
  profile: UserProfile;
  snapshot: ProfileSnapshot;
  /** The platform's change stamp, read before the profile (a change in between shows at the first check). */
  stamp: string;
  /** The newest tweet id of the account: nothing at or below it is ever reported. */
  baseline: string;
}

/**
 * Resolves a watched account and takes the baseline of a monitor: the profile snapshot and its stamp, and
 * the newest tweet id as the watermark, so a tweet posted a moment after creation (before the first check)
 * is reported and nothing older is. `undefined` when the account does not exist or cannot be seen
 * (suspended): there is nothing to watch.
 */
export async function takeWatchStart(platform: Platform, userRef: string): Promise<WatchStart | undefined> {
  const found = await platform.getUser(userRef);
  if (!found || found.unavailable === true) return undefined;
  const stamp = (await platform.profileStamps([found.id])).stamps?.get(found.id);
  // Read the profile again after the stamp, so the snapshot is never older than the stamp it is kept with.
  const profile = await platform.getUser(found.id);
  if (stamp === undefined || !profile || profile.unavailable === true) return undefined;
  const baseline = (await platform.newestTweetId(profile.id)) ?? '0';
  return { profile, snapshot: snapshotOf(profile), stamp, baseline };
}

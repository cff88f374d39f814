import type { ProfileEventType } from '@xsvc/sdk/contract';
import type { UserProfile } from '../../core/platform/platform.js';

/** A watched profile field's value: a string, a boolean, a verification, or null when unset. */
export type FieldValue = string | boolean | { verified: boolean; verifiedType: string | null } | null;

/**
 * The watched profile fields at one check, by the name they carry in `data.field`. `unavailable` is `false`
 * or why the account cannot be seen (`suspended`, `not_found`, …).
 */
export interface ProfileSnapshot {
  profilePicture: string | null;
  coverPicture: string | null;
  name: string;
  username: string;
  description: string | null;
  location: string | null;
  url: string | null;
  verified: { verified: boolean; verifiedType: string | null };
  protected: boolean;
  pinnedTweetId: string | null;
  unavailable: string | false;
}

/** One detected change: the event type, the field, its previous and current values. */
export interface ProfileChange {
  type: ProfileEventType;
  field: keyof ProfileSnapshot;
  previous: FieldValue;
  current: FieldValue;
}

/** Which event type a change of each field is (spec 6.1's eleven `profile.*.changed` types). */
const FIELD_TYPES: readonly [keyof ProfileSnapshot, ProfileEventType][] = [
  ['profilePicture', 'profile.avatar.changed'],
  ['coverPicture', 'profile.banner.changed'],
  ['name', 'profile.name.changed'],
  ['username', 'profile.username.changed'],
  ['description', 'profile.bio.changed'],
  ['location', 'profile.location.changed'],
  ['url', 'profile.url.changed'],
  ['verified', 'profile.verified.changed'],
  ['protected', 'profile.protected.changed'],
  ['pinnedTweetId', 'profile.pinned_tweet.changed'],
  ['unavailable', 'profile.unavailable.changed'],
];

/** The watched fields of a profile that can be seen. */
export function snapshotOf(profile: UserProfile): ProfileSnapshot {
  return {
    profilePicture: profile.profilePicture ?? null,
    coverPicture: profile.coverPicture ?? null,
    name: profile.name,
    username: profile.username,
    description: profile.description ?? null,
    location: profile.location ?? null,
    url: profile.url ?? null,
    verified: {
      verified: profile.verified === true,
      verifiedType: profile.verified === true ? (profile.verifiedType ?? null) : null,
    },
    protected: profile.protected === true,
    pinnedTweetId: profile.pinnedTweetIds?.[0] ?? null,
    unavailable: profile.unavailable === true ? (profile.unavailableReason ?? 'unavailable') : false,
  };
}

function same(a: FieldValue, b: FieldValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * What changed between the last snapshot and the profile now (`undefined`: the account no longer exists),
 * and the snapshot to keep. An unavailable account (suspended, deleted) shows nothing but that it is
 * unavailable, so then only `unavailable` is compared and the other fields keep their last seen values.
 */
export function diffProfile(
  previous: ProfileSnapshot,
  now: UserProfile | undefined,
): { changes: ProfileChange[]; snapshot: ProfileSnapshot } {
  const seen = now ? snapshotOf(now) : undefined;
  const current: ProfileSnapshot =
    seen && seen.unavailable === false
      ? seen
      : { ...previous, unavailable: seen ? seen.unavailable : 'not_found' };
  const changes: ProfileChange[] = [];
  for (const [field, type] of FIELD_TYPES) {
    if (!same(previous[field], current[field])) {
      changes.push({ type, field, previous: previous[field], current: current[field] });
    }
  }
  return { changes, snapshot: current };
}

/** Reads a stored snapshot (JSON), tolerating fields added later. */
export function parseSnapshot(json: string): ProfileSnapshot {
  const empty = snapshotOf({ id: '', username: '', name: '' });
  try {
    return { ...empty, ...(JSON.parse(json) as Partial<ProfileSnapshot>) };
  } catch {
    return empty;
  }
}

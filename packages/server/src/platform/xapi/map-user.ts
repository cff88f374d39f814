import type { schemas } from '@xsvc/sdk/contract';
import type {
  PlatformCommunity,
  PlatformList,
  PlatformTrend,
  UserProfile,
} from '../../core/platform/platform.js';
import { compact, nonEmpty } from './compact.js';
import type { XCommunity, XList, XTrend, XUser } from './types.js';

/** An X v2 user → our `UserProfile` (counts from `public_metrics`, the profile link expanded from `entities`). */
export function mapUser(user: XUser): UserProfile {
  const m = user.public_metrics;
  const pinned = user.pinned_post_id ?? user.pinned_tweet_id;
  return compact({
    id: user.id,
    username: user.username,
    name: user.name,
    description: user.description,
    followers: m?.followers_count,
    following: m?.following_count,
    verified: user.verified,
    isBlueVerified: user.verified_type === undefined ? undefined : user.verified_type === 'blue',
    verifiedType: user.verified_type,
    profilePicture: user.profile_image_url,
    profileBannerUrl: user.profile_banner_url,
    location: user.location || undefined,
    url: profileLink(user),
    createdAt: user.created_at,
    statusesCount: m?.post_count ?? m?.tweet_count,
    mediaCount: m?.media_count,
    favouritesCount: m?.like_count,
    protected: user.protected,
    pinnedTweetIds: pinned ? [pinned] : undefined,
    withheldInCountries: nonEmpty(user.withheld?.country_codes),
  });
}

/** The `author` block of a tweet. */
export function mapAuthor(user: XUser): schemas.TweetAuthor {
  return compact({
    id: user.id,
    username: user.username,
    name: user.name,
    followers: user.public_metrics?.followers_count,
    verified: user.verified,
    profilePicture: user.profile_image_url,
  });
}

/** The profile's website: X gives a t.co link in `url` and its expansion in `entities.url`. */
function profileLink(user: XUser): string | undefined {
  if (!user.url) return undefined;
  const expanded = user.entities?.url?.urls?.find((u) => u.url === user.url)?.expanded_url;
  return expanded ?? user.url;
}

/** Stands in for a list owner that X did not include (suspended or deleted account). */
function unavailableOwner(id: string): UserProfile {
  return { id, username: '', name: '', unavailable: true };
}

/** An X v2 list (with its owner from `includes.users`) → our `PlatformList`. */
export function mapList(list: XList, users: ReadonlyMap<string, XUser>): PlatformList {
  const owner = list.owner_id ? users.get(list.owner_id) : undefined;
  return {
    id: list.id,
    name: list.name,
    description: list.description ?? '',
    memberCount: list.member_count ?? 0,
    subscriberCount: list.follower_count ?? 0,
    createdAt: list.created_at ?? '',
    owner: owner ? mapUser(owner) : unavailableOwner(list.owner_id ?? ''),
  };
}

/**
 * X ranks trends by their order in the answer; the query is the trend name, URL-encoded (spec 2.12); the
 * post volume X counts becomes the context line.
 */
export function mapTrends(trends: readonly XTrend[]): PlatformTrend[] {
  return trends.map((t, i) => ({
    name: t.trend_name,
    ...(t.tweet_count !== undefined ? { description: `${t.tweet_count.toLocaleString('en-US')} posts` } : {}),
    rank: i + 1,
    query: encodeURIComponent(t.trend_name),
  }));
}

/** An X v2 community (`community.fields`) → our `PlatformCommunity`; X names neither creator nor moderators. */
export function mapCommunity(c: XCommunity): PlatformCommunity {
  return {
    id: c.id,
    name: c.name,
    description: c.description ?? '',
    memberCount: c.member_count ?? 0,
    createdAt: c.created_at ?? '',
    ...(c.join_policy ? { joinPolicy: c.join_policy } : {}),
  };
}

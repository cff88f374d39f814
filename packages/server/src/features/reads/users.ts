import { meter, paidCall, paidPage } from '../../core/billing/metering.js';
import type { HandlerContext } from '../../core/http/handler.js';
import { membershipPageSize, type PageReader, pageB } from '../../core/paging/gather.js';
import type { Platform, PlatformList, UserProfile } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';
import { toUserFilters, userMatcher } from '../../core/reads/filters.js';
import { requireReadableUser, requireUser } from '../../core/reads/lookups.js';
import { callerAsUser, viewerUserRef } from './connected-account.js';
import { userPage } from './listings.js';
import { coveragePage } from './walks/page.js';

/** Member avatars shown on a list (spec 2.12: sample member avatar URLs). */
const AVATAR_SAMPLE = 3;

/** The query of the follower-style lists (followers, following, verified followers). */
type FollowListQuery = Parameters<typeof userMatcher>[0] &
  Parameters<typeof toUserFilters>[0] & {
    mode?: 'standard' | 'coverage' | undefined;
    cursor?: string | undefined;
    after?: string | undefined;
    limit?: number | undefined;
    pageSize: number;
  };

/**
 * A page of a follower-style list of `user`, with resumable coverage (`mode`, see `coveragePage`); the
 * diagnostic adds the count the profile shows (`expected`) when there is one.
 */
async function followList(
  ctx: HandlerContext,
  q: FollowListQuery,
  read: PageReader<UserProfile>,
  expected: number | undefined,
) {
  const page = await coveragePage(ctx, {
    mode: q.mode,
    want: q.limit ?? q.pageSize,
    cursor: q.cursor ?? q.after,
    keep: userMatcher(q, ctx.services.clock.now()),
    idOf: (u) => u.id,
    read,
  });
  return {
    ...pageB('users', page.items, page.nextCursor),
    ...(page.diagnostic && {
      diagnostic: { ...page.diagnostic, ...(expected !== undefined && { expectedUsers: expected }) },
    }),
  };
}

/** `1.2K members`: a count the way the platform displays it. */
function memberCountText(n: number): string {
  const short =
    n >= 1_000_000
      ? `${+(n / 1_000_000).toFixed(1)}M`
      : n >= 1_000
        ? `${+(n / 1_000).toFixed(1)}K`
        : String(n);
  return `${short} ${n === 1 ? 'member' : 'members'}`;
}

/** User lookups, searches and follower-style lists (spec 4.10). */
export const userHandlers = defineReadHandlers({
  getBatchUsers: async (ctx) => {
    // Ids are looked up as far as credits reach; profiles returned are charged, the rest is reported.
    const ids = [...new Set(ctx.query.ids)];
    const m = meter(ctx);
    const processed = ids.slice(0, await m.affordable(ids.length));
    const byId = new Map((await ctx.services.platform.getUsers(processed)).map((u) => [u.id, u]));
    const users = processed.flatMap((id) => {
      const u = byId.get(id);
      return u && !u.unavailable ? [u] : [];
    });
    await m.charge(users.length);
    const returned = new Set(users.map((u) => u.id));
    return {
      users,
      has_next_page: false,
      next_cursor: '',
      requested_count: ctx.query.ids.length,
      processed_count: processed.length,
      returned_count: users.length,
      unavailable_ids: processed.filter((id) => !returned.has(id)),
      unprocessed_ids: ids.slice(processed.length),
    } as const;
  },

  searchUsers: async (ctx) => {
    const q = ctx.query;
    const filters = toUserFilters(q);
    return userPage(ctx, q, q.pageSize, (p) =>
      ctx.services.platform.searchUsers(q.q, filters, p, callerAsUser(ctx)),
    );
  },

  getUser: async (ctx) => paidCall(ctx, () => requireUser(ctx.services.platform, ctx.params.id)),

  checkFollow: async (ctx) => {
    const { platform } = ctx.services;
    return paidCall(ctx, async () => {
      const source = await requireUser(platform, ctx.query.source);
      const target = await requireUser(platform, ctx.query.target);
      const follow = await platform.checkFollow(source.id, target.id);
      return { ...follow, sourceUsername: source.username, targetUsername: target.username };
    });
  },

  getFollowersYouKnow: async (ctx) => {
    const { platform } = ctx.services;
    const viewer = await requireUser(platform, await viewerUserRef(ctx));
    const user = await requireReadableUser(platform, ctx.params.id);
    return userPage(ctx, ctx.query, ctx.query.pageSize, (p) =>
      platform.followersYouKnow(viewer.id, user.id, p),
    );
  },

  getUserFollowers: async (ctx) => {
    const { platform } = ctx.services;
    const user = await requireReadableUser(platform, ctx.params.id);
    const filters = toUserFilters(ctx.query);
    return followList(ctx, ctx.query, (p) => platform.followers(user.id, filters, p), user.followers);
  },

  getUserFollowing: async (ctx) => {
    const { platform } = ctx.services;
    const user = await requireReadableUser(platform, ctx.params.id);
    const filters = toUserFilters(ctx.query);
    return followList(ctx, ctx.query, (p) => platform.following(user.id, filters, p), user.following);
  },

  getUserVerifiedFollowers: async (ctx) => {
    const { platform } = ctx.services;
    const user = await requireReadableUser(platform, ctx.params.id);
    return followList(ctx, ctx.query, (p) => platform.verifiedFollowers(user.id, p), undefined);
  },

  getUserListMemberships: async (ctx) => {
    const { platform } = ctx.services;
    const user = await requireReadableUser(platform, ctx.params.id);
    const page = await paidPage(ctx, {
      want: membershipPageSize(ctx.request.query, ctx.query),
      cursor: ctx.query.cursor,
      read: (p) => platform.listMemberships(user.id, p),
    });
    const lists = await Promise.all(
      page.items.map(async (list) => toList(list, await avatars(ctx.services.platform, list))),
    );
    return pageB('lists', lists, page.nextCursor);
  },
});

/** A few member avatars of a list; none when the platform cannot list its members. */
async function avatars(platform: Platform, list: PlatformList): Promise<string[]> {
  try {
    const members = await platform.listMembers(list.id, { pageSize: AVATAR_SAMPLE });
    return (members?.items ?? [])
      .flatMap((u) => (u.profilePicture ? [u.profilePicture] : []))
      .slice(0, AVATAR_SAMPLE);
  } catch {
    return [];
  }
}

/** A platform list in the API's shape (spec 2.12). */
function toList(list: PlatformList, memberAvatarUrls: string[]) {
  return {
    id: list.id,
    name: list.name,
    description: list.description,
    memberCount: list.memberCount,
    subscriberCount: list.subscriberCount,
    owner: list.owner,
    url: `https://x.com/i/lists/${list.id}`,
    createdAt: list.createdAt,
    ...(list.bannerUrl && { bannerUrl: list.bannerUrl }),
    memberAvatarUrls,
    memberCountText: memberCountText(list.memberCount),
  };
}

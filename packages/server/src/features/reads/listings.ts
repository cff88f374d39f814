import { paidPage } from '../../core/billing/metering.js';
import type { HandlerContext } from '../../core/http/handler.js';
import { notFound } from '../../core/http/platform-errors.js';
import { type PageReader, pageB } from '../../core/paging/gather.js';
import type { PageRequest, PlatformPage, UserProfile } from '../../core/platform/platform.js';
import { type UserFilterParams, userMatcher } from '../../core/reads/filters.js';

/** The query of a plain page of users: the user filters and the cursor. */
export type UserPageQuery = UserFilterParams & { cursor?: string | undefined };

/**
 * A paid style-B page of user profiles (spec 4.1): `want` users from `read`, each kept only when it passes
 * the request's user filters, charged per user returned (see `paidPage`).
 */
export async function userPage(
  ctx: HandlerContext,
  q: UserPageQuery,
  want: number,
  read: PageReader<UserProfile>,
): Promise<ReturnType<typeof pageB<'users', UserProfile>>> {
  const page = await paidPage(ctx, {
    want,
    cursor: q.cursor,
    keep: userMatcher(q, ctx.services.clock.now()),
    read,
  });
  return pageB('users', page.items, page.nextCursor);
}

/**
 * A reader of a listing that belongs to a list or a community: the platform answers `undefined` when the
 * owner does not exist, which is 404 `not_found` naming it.
 */
export function ownedListing<T>(
  owner: 'list' | 'community',
  id: string,
  read: (page: PageRequest) => Promise<PlatformPage<T> | undefined>,
): PageReader<T> {
  return async (page) => {
    const found = await read(page);
    if (!found) throw notFound(owner, id);
    return found;
  };
}

import { createHash } from 'node:crypto';
import {
  type AuthorTweets,
  PlatformUnavailableError,
  type ProfileStamps,
  type Tweet,
} from '../../core/platform/platform.js';
import { path, type XApiClient } from './client.js';
import { tweetParams, userParams } from './fields.js';
import { mapUser } from './mappers.js';
import { isSuspension, lookup, toTweetPage, withAuthors } from './pages.js';
import type { XTweet, XUser } from './types.js';
import { isXId } from './user-ref.js';

/**
 * How many user timelines one check may poll. X API v2 has no "tweets of these N users" endpoint for an app
 * token: each watched account is one `GET /2/users/:id/tweets` request, and the app limit of that endpoint
 * (1,500 requests per 15 minutes on the Basic tier, under 2 per second) cannot serve more than a handful of
 * accounts checked every second. Beyond this the call fails with a clear `x_api_rate_limited` instead of
 * silently checking less often.
 */
export const MAX_TIMELINES_PER_CHECK = 10;

/** Profiles per `GET /2/users` request (the endpoint's maximum). */
const USERS_PER_LOOKUP = 100;

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** The newest post of an account (its timeline's first item), as a watermark. */
export async function newestTweetId(x: XApiClient, authorId: string): Promise<string | undefined> {
  if (!isXId(authorId)) return undefined;
  const res = await lookup(() => x.get<XTweet[]>(path`/2/users/${authorId}/tweets`, { max_results: 5 }));
  return res?.data?.[0]?.id;
}

/**
 * New posts of a few accounts: one timeline request per account with `since_id`, merged oldest first. More
 * accounts than {@link MAX_TIMELINES_PER_CHECK} is refused (see there).
 */
export async function tweetsByAuthorsSince(
  x: XApiClient,
  authorIds: readonly string[],
  sinceId: string,
  limit: number,
): Promise<AuthorTweets> {
  const ids = [...new Set(authorIds.filter(isXId))];
  if (ids.length > MAX_TIMELINES_PER_CHECK) {
    throw new PlatformUnavailableError(
      'x_api_rate_limited',
      `checking ${ids.length} accounts every second needs ${ids.length} X API timeline requests per second; ` +
        `the app rate limit allows at most ${MAX_TIMELINES_PER_CHECK} (use the simulated platform for more)`,
    );
  }
  const since = isXId(sinceId) && sinceId !== '0' ? sinceId : undefined;
  const out: Tweet[] = [];
  for (const id of ids) {
    const res = await lookup(() =>
      x.get<XTweet[]>(path`/2/users/${id}/tweets`, { ...tweetParams, max_results: 100, since_id: since }),
    );
    if (res) out.push(...toTweetPage(await withAuthors(x, res)).items);
  }
  const sorted = out.sort((a, b) => compareIds(a.id, b.id));
  const items = sorted.slice(0, Math.max(0, limit));
  const last = items[items.length - 1];
  return { items, ...(sorted.length > items.length && last && { nextSinceId: last.id }) };
}

/**
 * Change stamps from `GET /2/users?ids=` (100 per request): the mapped profile without its counters, so a
 * new follower is not a change; a suspended account stamps `suspended`; an unknown one is absent. X has no
 * conditional read: every call fetches every profile, and `ifChanged` only spares the caller the diff.
 */
export async function profileStamps(
  x: XApiClient,
  ids: readonly string[],
  ifChanged?: string,
): Promise<ProfileStamps> {
  const stamps = await fetchStamps(x, ids);
  const hash = createHash('sha256');
  for (const id of [...stamps.keys()].sort()) hash.update(`${id}=${stamps.get(id)}\n`);
  const digest = hash.digest('base64url');
  return digest === ifChanged ? { digest } : { digest, stamps };
}

async function fetchStamps(x: XApiClient, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const valid = [...new Set(ids.filter(isXId))];
  for (let i = 0; i < valid.length; i += USERS_PER_LOOKUP) {
    const batch = valid.slice(i, i + USERS_PER_LOOKUP);
    const res = await x.get<XUser[]>('/2/users', { ...userParams, ids: batch.join(',') });
    for (const user of res.data ?? []) {
      const { followers, following, statusesCount, mediaCount, favouritesCount, ...rest } = mapUser(user);
      out.set(user.id, JSON.stringify(rest));
    }
    for (const problem of res.errors ?? []) {
      const id = problem.resource_id ?? problem.value;
      if (id && isSuspension(problem)) out.set(id, 'suspended');
    }
  }
  return out;
}

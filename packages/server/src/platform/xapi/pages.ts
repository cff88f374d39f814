import type {
  PageRequest,
  PlatformPage,
  Tweet,
  TweetMissingReason,
  UserProfile,
} from '../../core/platform/platform.js';
import { isXApiRequestError, type XApiClient, type XQuery } from './client.js';
import { maxResults, type PageBounds, tweetParams, userParams } from './fields.js';
import { expand, mapTweet, mapUser } from './mappers.js';
import type { XProblem, XResponse, XTweet, XUser } from './types.js';

/** One paged v2 endpoint: its path, its `max_results` bounds and the name of its cursor parameter. */
export interface PagedEndpoint {
  path: string;
  bounds: PageBounds;
  /** Recent search takes `next_token`; every other listing `pagination_token`. Both carry `meta.next_token`. */
  cursorParam?: 'next_token' | 'pagination_token';
  query?: XQuery;
}

function pageQuery(ep: PagedEndpoint, page: PageRequest, base: XQuery): XQuery {
  return {
    ...base,
    ...ep.query,
    max_results: maxResults(page.pageSize, ep.bounds),
    [ep.cursorParam ?? 'pagination_token']: page.cursor,
  };
}

function nextCursor(res: XResponse<unknown>): { nextCursor?: string } {
  const token = res.meta?.next_token;
  return token ? { nextCursor: token } : {};
}

/** Fetches one raw page of a listing with the field parameters of its objects. */
export function fetchPage<T>(
  x: XApiClient,
  ep: PagedEndpoint,
  page: PageRequest,
  base: XQuery,
): Promise<XResponse<T[]>> {
  return x.get<T[]>(ep.path, pageQuery(ep, page, base));
}

/**
 * Completes the authors of an answer of posts. X's `author_id` expansion names the authors of `data` only
 * (the expansion that named the referenced posts' authors, `referenced_tweets.id.author_id`, is gone from
 * X's description), so the authors of quoted, reposted and answered posts in `includes.posts` that X did not
 * include are looked up, 100 per request, and added to `includes.users`.
 */
export async function withAuthors<T extends XTweet | XTweet[]>(
  x: XApiClient,
  res: XResponse<T>,
): Promise<XResponse<T>> {
  const inc = res.includes ?? {};
  const known = new Set((inc.users ?? []).map((u) => u.id));
  const posts = [...(inc.posts ?? []), ...(inc.tweets ?? [])];
  const missing = [
    ...new Set(posts.flatMap((p) => [p.author_id, p.in_reply_to_user_id]).filter((id): id is string => !!id)),
  ].filter((id) => !known.has(id) && /^\d{1,19}$/.test(id));
  if (missing.length === 0) return res;
  const users = [...(inc.users ?? [])];
  for (let i = 0; i < missing.length; i += 100) {
    const batch = missing.slice(i, i + 100);
    const found = await x.get<XUser[]>('/2/users', { ...userParams, ids: batch.join(',') });
    users.push(...(found.data ?? []));
  }
  return { ...res, includes: { ...inc, users } };
}

/**
 * Maps a page of posts. `keep` filters the page after mapping (filters v2 cannot apply), so a page may hold
 * fewer items than asked for while `nextCursor` still points past the whole X page.
 */
export function toTweetPage(
  res: XResponse<XTweet[]>,
  keep: (t: Tweet) => boolean = () => true,
): PlatformPage<Tweet> {
  const inc = expand(res.includes);
  return { items: (res.data ?? []).map((t) => mapTweet(t, inc)).filter(keep), ...nextCursor(res) };
}

/** Maps a page of users; `keep` as for {@link toTweetPage}. */
export function toUserPage(
  res: XResponse<XUser[]>,
  keep: (u: UserProfile) => boolean = () => true,
): PlatformPage<UserProfile> {
  return { items: (res.data ?? []).map(mapUser).filter(keep), ...nextCursor(res) };
}

/** Fetches and maps one page of posts. */
export async function tweetPage(
  x: XApiClient,
  ep: PagedEndpoint,
  page: PageRequest,
  keep?: (t: Tweet) => boolean,
): Promise<PlatformPage<Tweet>> {
  return toTweetPage(await withAuthors(x, await fetchPage<XTweet>(x, ep, page, tweetParams)), keep);
}

/** Fetches and maps one page of users. */
export async function userPage(
  x: XApiClient,
  ep: PagedEndpoint,
  page: PageRequest,
  keep?: (u: UserProfile) => boolean,
): Promise<PlatformPage<UserProfile>> {
  return toUserPage(await fetchPage<XUser>(x, ep, page, userParams), keep);
}

/** Runs a lookup, answering `undefined` when X refuses the id (400) or knows no such resource (404). */
export async function lookup<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (err) {
    if (isXApiRequestError(err) && (err.status === 400 || err.status === 404)) return undefined;
    throw err;
  }
}

function isNotFound(p: XProblem): boolean {
  return p.type?.endsWith('/resource-not-found') === true || p.title === 'Not Found Error';
}

/** Whether a 200 answer says the addressed resource does not exist (v2 reports it in `errors`, not by status). */
export function isMissing(res: XResponse<unknown>): boolean {
  return res.data === undefined && (res.errors ?? []).some(isNotFound);
}

/** Whether a partial error says an account is suspended. */
export function isSuspension(p: XProblem): boolean {
  return /suspended/i.test(p.detail ?? '');
}

/** Why a single post lookup found nothing (spec 7's `reason`); X cannot tell a deleted post from a bad id. */
export function missingReason(errors: readonly XProblem[] | undefined): TweetMissingReason {
  const first = errors?.[0];
  if (!first) return 'not_found';
  if (isSuspension(first)) return 'author_suspended';
  if (first.type?.endsWith('/not-authorized-for-resource')) return 'protected';
  return 'not_found';
}

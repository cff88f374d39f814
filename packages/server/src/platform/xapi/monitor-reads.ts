import { createHash } from 'node:crypto';
import { snowflake, snowflakeTime } from '../../core/ids/snowflake.js';
import type { AuthorTweets, ProfileStamps, Tweet } from '../../core/platform/platform.js';
import { path, type XApiClient } from './client.js';
import { tweetParams, userParams } from './fields.js';
import { mapUser } from './mappers.js';
import { isSuspension, lookup, toTweetPage, withAuthors } from './pages.js';
import type { XTweet, XUser } from './types.js';
import { isXId } from './user-ref.js';

/**
 * The longest query recent search takes on the self-serve tiers (X documents 512 characters for pay-per-use
 * and self-serve apps, 4,096 for Enterprise; config `X_API_SEARCH_QUERY_MAX`).
 */
export const DEFAULT_SEARCH_QUERY_MAX = 512;

/** The separator of the packed `from:` clauses. */
const OR = ' OR ';
/** The longest `from:` clause: a user id has at most 19 digits. */
const LONGEST_CLAUSE = 'from:'.length + 19;
/** Posts per recent-search page (the endpoint's maximum). */
const SEARCH_PAGE = 100;
/** Recent search reaches back 7 days; a `since_id` older than that is refused, so the start is moved up. */
const RECENT_SEARCH_MS = 7 * 24 * 3600 * 1000;
/** Kept clear of recent search's 7-day edge, for clock skew between this server and X. */
const EDGE_MS = 5 * 60_000;
/**
 * How far back a monitor's recent search may start (ms before now): 7 days less {@link EDGE_MS}. X answers
 * 400 to a `start_time` or `since_id` older than 7 days.
 */
export const RECENT_SEARCH_REACH_MS = RECENT_SEARCH_MS - EDGE_MS;
/**
 * How far before `sinceId` the search starts: X's search index lags the posts by seconds, so a post indexed
 * after a check that ran past its time is still found by the next one. The engine's recent keys and the
 * events' unique key make the overlap harmless.
 */
export const INDEX_LAG_MS = 30_000;

/** Profiles per `GET /2/users` request (the endpoint's maximum). */
export const USERS_PER_LOOKUP = 100;

function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * The recent-search queries that cover `authorIds`: `from:<id> OR from:<id> …`, each as long as `max`
 * characters allow (the numeric id, not the username, so a renamed account stays watched; `from:` takes
 * either). Greedy in the given order; an id whose clause alone is longer than `max` cannot be searched and
 * throws.
 */
export function packAuthorQueries(authorIds: readonly string[], max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const id of authorIds) {
    const clause = `from:${id}`;
    if (clause.length > max) throw new RangeError(`a query of ${max} characters cannot hold ${clause}`);
    if (current && current.length + OR.length + clause.length <= max) current += OR + clause;
    else {
      if (current) out.push(current);
      current = clause;
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * How many recent-search requests one check of `accounts` accounts needs at most, when `instances` engines
 * each pack the accounts of their own shards into queries of `max` characters: every clause taken as long as
 * a 19-digit id makes it, and each instance's last query possibly part-filled.
 */
export function searchRequestsFor(accounts: number, instances: number, max: number): number {
  if (accounts <= 0) return 0;
  const perQuery = Math.max(1, Math.floor((max + OR.length) / (LONGEST_CLAUSE + OR.length)));
  return Math.ceil(accounts / perQuery) + Math.min(Math.max(1, instances), accounts) - 1;
}

/** The newest post of an account (its timeline's first item), as a watermark. */
export async function newestTweetId(x: XApiClient, authorId: string): Promise<string | undefined> {
  if (!isXId(authorId)) return undefined;
  const res = await lookup(() => x.get<XTweet[]>(path`/2/users/${authorId}/tweets`, { max_results: 5 }));
  return res?.data?.[0]?.id;
}

/** How the account monitors' posts are searched. */
export interface AuthorSearchOptions {
  /** The longest query (characters). */
  queryMax: number;
  /** Epoch ms (where recent search's 7 days begin). */
  now: number;
}

/**
 * New posts of any number of accounts through recent search: their ids packed into `from:a OR from:b …`
 * queries up to `queryMax` characters, each read since `sinceId` less {@link INDEX_LAG_MS} (or, when that is
 * older than recent search reaches, from 7 days back) 100 per page, every page (`next_token`) up to `limit` posts per query, merged
 * oldest first. Search answers newest first, so a query with more than `limit` new posts in one check
 * yields its newest `limit` (its older ones are not read; at 100 a page a check would need more than
 * `limit / 100` requests of one query's budget to read them).
 */
export async function tweetsByAuthorsSince(
  x: XApiClient,
  authorIds: readonly string[],
  sinceId: string,
  limit: number,
  opts: AuthorSearchOptions,
): Promise<AuthorTweets> {
  const ids = [...new Set(authorIds.filter(isXId))];
  if (ids.length === 0 || limit <= 0) return { items: [] };
  const oldest = opts.now - RECENT_SEARCH_REACH_MS;
  const from = isXId(sinceId) && sinceId !== '0' ? snowflakeTime(sinceId) - INDEX_LAG_MS : 0;
  const since = from > oldest ? snowflake(from) : undefined;
  const window = since ? { since_id: since } : { start_time: new Date(oldest).toISOString() };
  const byId = new Map<string, Tweet>();
  for (const query of packAuthorQueries(ids, opts.queryMax)) {
    let token: string | undefined;
    let read = 0;
    do {
      const res = await x.get<XTweet[]>('/2/tweets/search/recent', {
        ...tweetParams,
        query,
        max_results: SEARCH_PAGE,
        sort_order: 'recency',
        ...window,
        next_token: token,
      });
      const items = toTweetPage(await withAuthors(x, res)).items;
      for (const t of items) if (!since || compareIds(t.id, since) > 0) byId.set(t.id, t);
      read += items.length;
      token = res.meta?.next_token;
    } while (token && read < limit);
  }
  const items = [...byId.values()].sort((a, b) => compareIds(a.id, b.id));
  return { items };
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

import { limits } from '@xsvc/sdk/contract';
import type { PageRequest, PlatformPage } from '../platform/platform.js';

/** One platform listing, read a page at a time. */
export type PageReader<T> = (page: PageRequest) => Promise<PlatformPage<T>>;

/** Items gathered for one answer, and where the listing continues (absent at its end). */
export interface Gathered<T> {
  items: T[];
  nextCursor: string | undefined;
  /** Platform pages read to build the answer. */
  platformPages: number;
}

/** Most platform pages one answer reads: a filter that matches little cannot turn a call into a crawl. */
const MAX_PLATFORM_PAGES = 25;

/**
 * Reads the listing from `cursor` until `want` items (those `keep` accepts) or its end. The platform may
 * answer short pages (the X API caps page sizes; filtered listings stop scanning early), so this keeps
 * asking for what is still missing; it never asks for more than that, so the cursor it returns continues
 * exactly after the last item returned and no item is skipped or repeated across answers.
 */
export async function gather<T>(
  read: PageReader<T>,
  want: number,
  cursor: string | undefined,
  keep: (item: T) => boolean = () => true,
  maxPages = MAX_PLATFORM_PAGES,
): Promise<Gathered<T>> {
  const items: T[] = [];
  let next = cursor === '' ? undefined : cursor;
  let pages = 0;
  while (items.length < want && pages < maxPages) {
    const page = await read({ pageSize: want - items.length, ...(next !== undefined && { cursor: next }) });
    pages++;
    items.push(...page.items.filter(keep));
    if (!page.nextCursor || page.nextCursor === next)
      return { items, nextCursor: undefined, platformPages: pages };
    next = page.nextCursor;
  }
  return { items, nextCursor: next, platformPages: pages };
}

/** A style-B page (spec 4.1): `{ <key>: items, has_next_page, next_cursor }`, `next_cursor` '' on the last page. */
export function pageB<const K extends string, T>(
  key: K,
  items: T[],
  nextCursor: string | undefined,
): { [P in K]: T[] } & { has_next_page: boolean; next_cursor: string } {
  return { [key]: items, has_next_page: nextCursor !== undefined, next_cursor: nextCursor ?? '' } as {
    [P in K]: T[];
  } & { has_next_page: boolean; next_cursor: string };
}

/** The page-size parameters of list memberships, in the order the reference lists them. */
const MEMBERSHIP_SIZE_KEYS = [
  'pageSize',
  'limit',
  'count',
  'max_results',
  'maxItems',
  'max_items',
  'per_page',
] as const;

/**
 * The page size of a list-memberships read (spec 4.10): `pageSize` or any alias, the first one the request
 * sent counting (in the order of the query string), 1-100 (validated by the contract), default 20.
 */
export function membershipPageSize(
  sentQuery: unknown,
  parsed: Partial<Record<(typeof MEMBERSHIP_SIZE_KEYS)[number], number | undefined>>,
): number {
  const sent = Object.keys((sentQuery ?? {}) as Record<string, unknown>);
  for (const key of sent) {
    const value = (MEMBERSHIP_SIZE_KEYS as readonly string[]).includes(key)
      ? parsed[key as (typeof MEMBERSHIP_SIZE_KEYS)[number]]
      : undefined;
    if (value !== undefined) return value;
  }
  return limits.listMemberships.defaultPageSize;
}

import type { schemas } from '@xsvc/sdk/contract';
import { HttpError } from '../../../core/http/errors.js';
import type { PageReader } from '../../../core/paging/gather.js';
import { isSimulatedPlatformError } from '../../../platform/simulated/index.js';
import { isXApiRequestError } from '../../../platform/xapi/index.js';

/** Why an answer of a walk stopped reading (reference `CoverageStopReason`). */
export type StopReason = NonNullable<schemas.ReplyCoverageDiagnostic['stopReason']>;

/** Platform pages in a row that bring nothing new (only results returned before) before a walk gives up. */
export const STALL_PAGES = 3;

/** What one answer of a walk read. */
export interface WalkedPages<T> {
  /** New results, in the platform's order. */
  items: T[];
  /** Where the walk continues; undefined when it cannot (the listing ended, or its cursor stopped moving). */
  platformCursor: string | undefined;
  pages: number;
  /** Results dropped because an earlier answer (or this one) had returned them. */
  duplicates: number;
  stop: StopReason;
}

/** One answer's reading of a walk. */
export interface WalkRequest<T> {
  read: PageReader<T>;
  keep: (item: T) => boolean;
  idOf: (item: T) => string;
  /** The platform cursor to start from (undefined: the start of the listing). */
  from: string | undefined;
  want: number;
  maxPages: number;
  /** Clock reading and the time after which no further page is read. */
  now: () => number;
  deadline: number;
  /** Which of these ids earlier answers of the walk returned. */
  seenBefore: (ids: string[]) => Promise<Set<string>>;
  /** True when `from` comes from a stored checkpoint (the platform may no longer accept it). */
  resumed: boolean;
}

/** Whether the platform refused a cursor (as opposed to failing). */
function isCursorRefusal(err: unknown): boolean {
  return (
    (isSimulatedPlatformError(err) && err.code === 'invalid_input') ||
    (isXApiRequestError(err) && err.status === 400)
  );
}

/**
 * Reads platform pages for one answer of a coverage walk: new results (kept by `keep`, never returned
 * before) until `want`, the end of the listing, the page budget, the deadline, or a stall (the platform
 * repeating itself for {@link STALL_PAGES} pages, or its cursor not moving). A failure after the first page
 * ends the answer early (`failed`) with what was read, the cursor at the last page read; on the first page
 * it is thrown, except that a resumed position the platform no longer accepts is 410
 * `coverage_cursor_gone` (restart without a cursor).
 */
export async function walkPages<T>(w: WalkRequest<T>): Promise<WalkedPages<T>> {
  const items: T[] = [];
  const inAnswer = new Set<string>();
  let cursor = w.from;
  let pages = 0;
  let duplicates = 0;
  let stalled = 0;
  for (;;) {
    if (items.length >= w.want)
      return { items, platformCursor: cursor, pages, duplicates, stop: 'result_limit' };
    if (pages >= w.maxPages) return { items, platformCursor: cursor, pages, duplicates, stop: 'page_limit' };
    if (pages > 0 && w.now() >= w.deadline)
      return { items, platformCursor: cursor, pages, duplicates, stop: 'deadline' };
    let page: Awaited<ReturnType<PageReader<T>>>;
    try {
      page = await w.read({ pageSize: w.want - items.length, ...(cursor !== undefined && { cursor }) });
    } catch (err) {
      if (pages > 0) return { items, platformCursor: cursor, pages, duplicates, stop: 'failed' };
      if (w.resumed && isCursorRefusal(err)) {
        throw new HttpError(
          'coverage_cursor_gone',
          'the platform no longer accepts the position of this walk: restart without a cursor and de-duplicate by id',
        );
      }
      throw err;
    }
    pages++;
    const kept = page.items.filter(w.keep);
    const before = await w.seenBefore(kept.map(w.idOf));
    const fresh = kept.filter((item) => {
      const id = w.idOf(item);
      if (before.has(id) || inAnswer.has(id)) return false;
      inAnswer.add(id);
      return true;
    });
    duplicates += kept.length - fresh.length;
    items.push(...fresh);
    stalled = fresh.length === 0 && kept.length > 0 ? stalled + 1 : 0;
    const next = page.nextCursor || undefined;
    if (next === undefined) return { items, platformCursor: undefined, pages, duplicates, stop: 'exhausted' };
    if (next === cursor) return { items, platformCursor: undefined, pages, duplicates, stop: 'stalled' };
    cursor = next;
    if (stalled >= STALL_PAGES) return { items, platformCursor: cursor, pages, duplicates, stop: 'stalled' };
  }
}

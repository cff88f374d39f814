import type { CallParams, Transport } from './core.js';
import { ApiError } from './errors.js';
import type { RequestOptions, Route } from './types.js';

/**
 * A serializable position in a paginated listing: hand it to `client.resume(checkpoint)`, in this process or
 * another, to continue where the iteration stopped.
 */
export interface PageCheckpoint {
  readonly operationId: string;
  readonly params: CallParams;
  readonly cursor: string | undefined;
}

const MAX_RESTARTS = 3;

/** One page of a listing: its items, the raw answer, and the way to the next page. */
export class Page<Item, Body = unknown> implements AsyncIterable<Item> {
  /** The items of this page. */
  readonly items: Item[];
  readonly hasMore: boolean;
  /** The cursor of the next page, when there is one. */
  readonly nextCursor: string | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly route: Route,
    private readonly params: CallParams,
    private readonly options: RequestOptions,
    /** The whole answer of this page (for fields beside the items). */
    readonly body: Body,
    /** The cursor this page was fetched with. */
    readonly cursor: string | undefined,
  ) {
    const b = (body ?? {}) as Record<string, unknown>;
    const items = route.items ? b[route.items] : undefined;
    this.items = Array.isArray(items) ? (items as Item[]) : [];
    if (route.pagination === 'B') {
      const next = typeof b.next_cursor === 'string' && b.next_cursor !== '' ? b.next_cursor : undefined;
      this.hasMore = b.has_next_page === true && next !== undefined;
      this.nextCursor = this.hasMore ? next : undefined;
    } else {
      const next = typeof b.nextCursor === 'string' && b.nextCursor !== '' ? b.nextCursor : undefined;
      this.hasMore = b.hasMore === true && next !== undefined;
      this.nextCursor = this.hasMore ? next : undefined;
    }
  }

  /** Where to resume after this page. */
  checkpoint(): PageCheckpoint {
    return { operationId: this.route.id, params: this.params, cursor: this.nextCursor };
  }

  /** Fetches the next page, or null at the end. */
  async nextPage(): Promise<Page<Item, Body> | null> {
    if (!this.hasMore) return null;
    return fetchPage<Item, Body>(this.transport, this.route, this.params, this.options, this.nextCursor);
  }

  /**
   * Every page from this one on. Empty pages with more to come are passed through (a filtered page may be
   * empty); a cursor seen before ends the walk instead of looping; `coverage_cursor_gone` restarts without a
   * cursor, and items already yielded are skipped by id.
   */
  async *pages(): AsyncGenerator<Page<Item, Body>> {
    const seenCursors = new Set<string>();
    if (this.cursor !== undefined) seenCursors.add(this.cursor);
    let page: Page<Item, Body> = this;
    yield page;
    let restarts = 0;
    while (page.hasMore) {
      const next = page.nextCursor!;
      if (seenCursors.has(next)) {
        this.transport.logger.warn(
          `${this.route.id}: the service repeated cursor "${next}"; stopping the listing.`,
        );
        return;
      }
      seenCursors.add(next);
      try {
        page = await fetchPage<Item, Body>(this.transport, this.route, this.params, this.options, next);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'coverage_cursor_gone' && restarts < MAX_RESTARTS) {
          restarts++;
          seenCursors.clear();
          page = await fetchPage<Item, Body>(
            this.transport,
            this.route,
            this.params,
            this.options,
            undefined,
          );
          (page as { restarted?: boolean }).restarted = true;
        } else throw err;
      }
      yield page;
    }
  }

  /** Every item from this page on, across pages, de-duplicated by `id` after a cursor restart. */
  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    const seen = new Set<string>();
    let restarted = false;
    for await (const page of this.pages()) {
      if ((page as { restarted?: boolean }).restarted) restarted = true;
      for (const item of page.items) {
        const id = itemId(item);
        if (id !== undefined) {
          if (restarted && seen.has(id)) continue;
          seen.add(id);
        }
        yield item;
      }
    }
  }

  /** Collects items into an array, up to `limit` (default 10 000) so a huge listing cannot exhaust memory. */
  async toArray(limit = 10_000): Promise<Item[]> {
    const out: Item[] = [];
    for await (const item of this) {
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }
}

function itemId(item: unknown): string | undefined {
  if (item && typeof item === 'object') {
    const id = (item as Record<string, unknown>).id;
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return undefined;
}

/** Fetches one page of a paginated route at a cursor. */
export async function fetchPage<Item, Body>(
  transport: Transport,
  route: Route,
  params: CallParams,
  options: RequestOptions,
  cursor: string | undefined,
): Promise<Page<Item, Body>> {
  const p: CallParams = { ...params };
  const key = route.pagination === 'A' ? 'after' : 'cursor';
  if (cursor !== undefined) {
    p[key] = cursor;
    if (key === 'after') delete p.cursor;
  }
  const res = await transport.call<Body>(route, p, options);
  return new Page<Item, Body>(transport, route, params, options, res.data, cursor);
}

/**
 * What a list method returns: a promise of the first page that is also async-iterable over every item, so
 * both `await client.tweets.search(q)` and `for await (const t of client.tweets.search(q))` work.
 */
export class PagePromise<Item, Body = unknown>
  extends Promise<Page<Item, Body>>
  implements AsyncIterable<Item>
{
  static override get [Symbol.species]() {
    return Promise;
  }

  static from<Item, Body>(load: () => Promise<Page<Item, Body>>): PagePromise<Item, Body> {
    let resolve!: (p: Page<Item, Body>) => void;
    let reject!: (e: unknown) => void;
    const pp = new PagePromise<Item, Body>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    load().then(resolve, reject);
    return pp;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Item> {
    const first = await this;
    yield* first;
  }

  /** Every page, starting with the first. */
  async *pages(): AsyncGenerator<Page<Item, Body>> {
    const first = await this;
    yield* first.pages();
  }
}

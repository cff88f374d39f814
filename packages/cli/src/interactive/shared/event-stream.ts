import type { Item, Xsvc } from '@xsvc/sdk';
import { AbortError, ConnectionError, RateLimitError, ServiceError, TimeoutError } from '@xsvc/sdk';
import type { EventType } from '@xsvc/sdk/contract';
import { limits } from '@xsvc/sdk/contract';
import type { Sleep } from './timing.js';

/** A stored event as the events operations return it. */
export type StoredEvent = Item<'listEvents'>;

/** Which events to follow and how. */
export interface FollowOptions {
  readonly monitorId?: string | undefined;
  readonly keywordMonitorId?: string | undefined;
  /** One type to filter on the service's side (several are filtered by the caller). */
  readonly eventType?: EventType | undefined;
  /** Show events newer than this event id; when absent, those newer than the newest event at start. */
  readonly since?: string | undefined;
  readonly pollIntervalMs: number;
  readonly sleep: Sleep;
  readonly signal: AbortSignal;
}

/** What the stream reports: events, the start position, and waits (rate limits and outages). */
export type StreamItem =
  | { readonly kind: 'ready'; readonly after: string | undefined }
  | { readonly kind: 'event'; readonly event: StoredEvent }
  | {
      readonly kind: 'wait';
      readonly reason: 'rate_limited' | 'unavailable';
      readonly ms: number;
      readonly message: string;
    };

const PAGE = limits.events.maxLimit;
const MAX_BACKOFF_MS = 30_000;
const SEEN_MEMORY = 2_000;

/** One page of events after a position, or an answer telling the caller to wait and ask again. */
type Fetched =
  | {
      readonly ok: true;
      readonly events: StoredEvent[];
      readonly next: string | undefined;
      readonly more: boolean;
    }
  | { readonly ok: false; readonly wait: Extract<StreamItem, { kind: 'wait' }> };

/** At most this many pages are read in one poll to catch up with what arrived since the last one. */
const MAX_CATCHUP_PAGES = 50;

/**
 * Follows the stored events (GET /events) as they arrive. The service lists events newest first and pages
 * to older ones with `after` (an opaque cursor), so each poll reads the head of the list down to the first
 * event already seen (following `nextCursor` when a whole page is new) and yields the new ones oldest first.
 * A 429 waits for its `Retry-After`; an outage (5xx, connection, timeout) backs off exponentially up to
 * 30 s; an abort ends the stream without error; other errors (authentication, bad input) are thrown. Events
 * are yielded once, in order, even when a page is read twice.
 *
 * Without `since`, the events stored before the start are skipped: the first poll only notes the newest.
 */
export async function* followEvents(client: Xsvc, options: FollowOptions): AsyncGenerator<StreamItem> {
  const { signal } = options;
  const seen = new RecentIds(SEEN_MEMORY);
  let boundary = options.since;
  let failures = 0;
  let ready = false;
  poll: while (!signal.aborted) {
    const fresh: StoredEvent[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < MAX_CATCHUP_PAGES; pages++) {
      const page = await fetchAfter(client, options, cursor, failures);
      if (page === null || signal.aborted) return;
      if (!page.ok) {
        if (page.wait.reason === 'unavailable') failures++;
        yield page.wait;
        await options.sleep(page.wait.ms, signal);
        continue poll;
      }
      failures = 0;
      let reachedKnown = false;
      for (const event of page.events) {
        if (seen.has(event.id) || isAtOrBefore(event.id, boundary)) {
          reachedKnown = true;
          break;
        }
        fresh.push(event);
      }
      // At the start without `since` only the newest event matters: it becomes the boundary.
      const skipping = !ready && options.since === undefined;
      if (reachedKnown || skipping || !page.more || page.next === undefined) break;
      cursor = page.next;
    }
    const newest = fresh[0]?.id;
    if (!ready) {
      ready = true;
      if (options.since === undefined) {
        for (const event of fresh) seen.add(event.id);
        fresh.length = 0;
      }
      yield { kind: 'ready', after: newest ?? boundary };
    }
    for (const event of fresh.reverse()) {
      if (seen.add(event.id)) yield { kind: 'event', event };
    }
    if (newest !== undefined) boundary = newest;
    await options.sleep(options.pollIntervalMs, signal);
  }
}

/**
 * True when event `id` is the boundary or older. Ids of the service are numeric and sort by time; other ids
 * (a mock's, another implementation's) are only compared for equality.
 */
function isAtOrBefore(id: string, boundary: string | undefined): boolean {
  if (boundary === undefined) return false;
  if (id === boundary) return true;
  if (/^\d{1,30}$/.test(id) && /^\d{1,30}$/.test(boundary)) return BigInt(id) <= BigInt(boundary);
  return false;
}

async function fetchAfter(
  client: Xsvc,
  options: FollowOptions,
  after: string | undefined,
  failures: number,
): Promise<Fetched | null> {
  try {
    const page = await client.events.list(
      {
        limit: PAGE,
        ...(after !== undefined && { after }),
        ...(options.monitorId !== undefined && { monitorId: options.monitorId }),
        ...(options.keywordMonitorId !== undefined && { keywordMonitorId: options.keywordMonitorId }),
        ...(options.eventType !== undefined && { eventType: options.eventType }),
      },
      { signal: options.signal, maxRetries: 0 },
    );
    return { ok: true, events: page.items, next: page.nextCursor, more: page.hasMore };
  } catch (err) {
    if (options.signal.aborted && (err instanceof AbortError || isAbort(err))) return null;
    if (err instanceof RateLimitError) {
      const ms = err.retryAfterMs ?? options.pollIntervalMs;
      return { ok: false, wait: { kind: 'wait', reason: 'rate_limited', ms, message: err.message } };
    }
    if (err instanceof ServiceError || err instanceof ConnectionError || err instanceof TimeoutError) {
      const ms = Math.min(MAX_BACKOFF_MS, Math.max(options.pollIntervalMs, 500) * 2 ** failures);
      return { ok: false, wait: { kind: 'wait', reason: 'unavailable', ms, message: err.message } };
    }
    throw err;
  }
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** The ids seen lately, bounded: a stream that runs for days must not grow without end. */
class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly max: number) {}

  /** True when the id was seen lately. */
  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Remembers an id; false when it was seen already. */
  add(id: string): boolean {
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > this.max) {
      const oldest = this.ids.values().next().value;
      if (oldest !== undefined) this.ids.delete(oldest);
    }
    return true;
  }
}

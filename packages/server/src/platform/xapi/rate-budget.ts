import type { UpstreamLimit } from '../../core/limits/upstream-limits.js';
import type { MonitorNeed, MonitorPace } from '../../core/platform/platform.js';

/** X's rate-limit window: 15 minutes for the endpoints the monitors use. */
export const X_WINDOW_MS = 15 * 60_000;

/** The endpoint of recent search, as the budget names it. */
export const SEARCH_ENDPOINT = 'GET /2/tweets/search/recent';
/** The endpoint of the users lookup by ids (the monitors' profile stamps). */
export const USERS_ENDPOINT = 'GET /2/users';
/** The endpoint that adds and deletes filtered-stream rules (`X_API_MONITOR_SOURCE=stream`). */
export const STREAM_RULES_ENDPOINT = 'POST /2/tweets/search/stream/rules';

/**
 * The app's limits per 15 minutes assumed before X's first answer tells them (config `X_API_RATE_LIMITS`):
 * the figures X documents for app-only auth on the self-serve tiers (recent search 60, users lookup 300).
 * They differ per tier and change: check X's pricing and rate-limit pages for the app's own.
 */
export const DEFAULT_X_RATE_LIMITS: Readonly<Record<string, number>> = {
  [SEARCH_ENDPOINT]: 60,
  [USERS_ENDPOINT]: 300,
};

/** Where the budget keeps what X reported, shared by the instances on one database. */
export interface RateLimitStore {
  save(limits: readonly UpstreamLimit[]): Promise<void>;
  load(): Promise<UpstreamLimit[]>;
}

/** How the budget is set up. */
export interface XRateBudgetOptions {
  /** Shared storage (the `upstream_rate_limits` table); without it the budget is this process's only. */
  store?: RateLimitStore | undefined;
  /** Requests per 15 minutes by endpoint before X reports them (over {@link DEFAULT_X_RATE_LIMITS}). */
  defaults?: Readonly<Record<string, number>> | undefined;
  /** The fraction of each endpoint's limit the monitors may use (the rest is left to API calls); 0.8. */
  share?: number | undefined;
  /** The longest effective check interval accepted before new monitors are refused (ms); 300 s. */
  maxIntervalMs?: number | undefined;
  /** Epoch ms. */
  now: () => number;
}

/** How long figures read from the shared store are trusted before they are read again (ms). */
const REFRESH_MS = 1_000;
/** The wait assumed after a 429 that said nothing of when its window resets (ms). */
const UNKNOWN_RESET_MS = 60_000;

/**
 * The name of an X API path as the budget counts it: ids and usernames become `:id` / `:username`, so that
 * every account's timeline is one endpoint, as X limits it (`GET /2/users/:id/tweets`); `method` is `GET`
 * unless told (the stream rules' `POST`).
 */
export function endpointOf(path: string, method = 'GET'): string {
  const bare = path.split('?')[0] ?? path;
  const named = bare
    .replace(/\/by\/username\/[^/]+/, '/by/username/:username')
    .replace(/(?<=.)\/\d+(?=\/|$)/g, '/:id');
  return `${method.toUpperCase()} ${named}`;
}

/**
 * The X requests the monitors may make: per endpoint, the limit, what is left and when the window resets,
 * from the `x-rate-limit-limit`, `-remaining` and `-reset` headers of every answer to the app token (with a
 * configured default before the first), kept in the shared store so every instance on one database paces
 * its checks by the same figures. {@link pace} turns the requests one check needs into the effective check
 * interval, and holds the checks when a window is spent (a 429) until it resets.
 */
export class XRateBudget {
  private readonly known = new Map<string, UpstreamLimit>();
  private readonly pending = new Map<string, UpstreamLimit>();
  private readonly defaults: Readonly<Record<string, number>>;
  private readonly share: number;
  private readonly maxIntervalMs: number;
  private loadedAt = Number.NEGATIVE_INFINITY;
  /** The write of what was heard last, in progress (one at a time, in order). */
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly opts: XRateBudgetOptions) {
    // A configured figure replaces X's documented one for its endpoint only.
    this.defaults = { ...DEFAULT_X_RATE_LIMITS, ...opts.defaults };
    this.share = Math.min(1, Math.max(0, opts.share ?? 0.8));
    this.maxIntervalMs = opts.maxIntervalMs ?? 300_000;
  }

  /**
   * Records what one answer said of its endpoint's limit (the client's `onAnswer`, and the stream rules
   * client's, whose `POST` passes its `method`).
   */
  observe(path: string, status: number, headers: Headers, method = 'GET'): void {
    const now = this.opts.now();
    const endpoint = endpointOf(path, method);
    const limit = intHeader(headers, 'x-rate-limit-limit');
    const remaining = intHeader(headers, 'x-rate-limit-remaining');
    const reset = intHeader(headers, 'x-rate-limit-reset');
    let entry: UpstreamLimit | undefined;
    if (limit !== undefined && remaining !== undefined && reset !== undefined) {
      entry = { endpoint, limit, remaining, resetAt: reset * 1000, seenAt: now };
    } else if (status === 429) {
      // A 429 without the headers: the window is spent, for as long as `retry-after` says (or a minute).
      const after = intHeader(headers, 'retry-after');
      const resetAt = now + (after !== undefined ? after * 1000 : UNKNOWN_RESET_MS);
      entry = { endpoint, limit: this.limitOf(endpoint), remaining: 0, resetAt, seenAt: now };
    }
    if (!entry) return;
    if (status === 429) entry.remaining = 0;
    this.known.set(endpoint, entry);
    this.pending.set(endpoint, entry);
    // Written at once (not at this instance's next check), so the others pace by it from their next one.
    this.flush();
  }

  /**
   * When the window of `endpoint` resets, while X said it is spent (nothing remaining, or a 429); else
   * undefined. A request sent before then would only get X's 429.
   */
  spentUntil(endpoint: string): number | undefined {
    const seen = this.known.get(endpoint);
    return seen && seen.remaining <= 0 && seen.resetAt > this.opts.now() ? seen.resetAt : undefined;
  }

  /** The endpoint's limit per window: as X last reported it, else the configured default. */
  limitOf(endpoint: string): number {
    return this.known.get(endpoint)?.limit ?? this.defaults[endpoint] ?? 0;
  }

  /**
   * Waits for what this instance heard to be written to the shared store, and reads what the others heard
   * (at most once a second).
   */
  async sync(): Promise<void> {
    const store = this.opts.store;
    if (!store) return;
    await this.flush();
    const now = this.opts.now();
    if (now - this.loadedAt < REFRESH_MS) return;
    this.loadedAt = now;
    for (const row of await store.load()) {
      const mine = this.known.get(row.endpoint);
      if (!mine || row.seenAt >= mine.seenAt) this.known.set(row.endpoint, row);
    }
  }

  /**
   * Writes what was heard and not yet written, after the write in progress. A write that fails puts its
   * figures back (unless newer ones came meanwhile) for the next one: the budget stays right in this
   * instance's memory, only less shared while the database is away.
   */
  private flush(): Promise<void> {
    const store = this.opts.store;
    if (!store) return Promise.resolve();
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = [...this.pending.values()];
      this.pending.clear();
      try {
        await store.save(batch);
      } catch {
        for (const l of batch) if (!this.pending.has(l.endpoint)) this.pending.set(l.endpoint, l);
      }
    });
    return this.flushing;
  }

  /**
   * The effective interval of the monitors' checks when one check needs `perCheck` requests of each
   * endpoint: long enough that the checks use at most the monitors' share of every endpoint's limit, and
   * at least `nominalMs` (in whole seconds). `holdUntil` is set while an endpoint's window is spent down to
   * what is left for API calls (or answered 429): the checks wait for its reset.
   */
  pace(perCheck: Readonly<Record<string, number>>, nominalMs: number): MonitorPace {
    const now = this.opts.now();
    const needs: MonitorNeed[] = [];
    let intervalMs = nominalMs;
    let holdUntil: number | undefined;
    for (const [endpoint, requests] of Object.entries(perCheck)) {
      const limit = this.limitOf(endpoint);
      // At least one request a window of an endpoint that allows any: the checks slow down, never stop.
      const budget = limit > 0 ? Math.max(1, Math.floor(limit * this.share)) : 0;
      needs.push({ endpoint, perCheck: requests, budget, limit, windowMs: X_WINDOW_MS });
      if (requests <= 0) continue;
      const need = budget > 0 ? Math.ceil((X_WINDOW_MS * requests) / budget) : Number.POSITIVE_INFINITY;
      intervalMs = Math.max(intervalMs, need);
      const seen = this.known.get(endpoint);
      if (seen && seen.resetAt > now && seen.remaining - requests < limit - budget) {
        holdUntil = Math.max(holdUntil ?? 0, seen.resetAt);
      }
    }
    if (Number.isFinite(intervalMs)) intervalMs = Math.ceil(intervalMs / 1000) * 1000;
    return { intervalMs, maxIntervalMs: this.maxIntervalMs, needs, ...(holdUntil && { holdUntil }) };
  }
}

/** A header holding a whole number, or undefined. */
function intHeader(headers: Headers, name: string): number | undefined {
  const raw = headers.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
}

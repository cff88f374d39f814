import type { AnyOperation } from '@xsvc/sdk/contract';
import type { HandlerContext } from '../http/handler.js';
import { type Gathered, gather, type PageReader } from '../paging/gather.js';

/**
 * Metering of the platform reads (spec 8.2), one helper for every handler. The price of a unit comes from
 * the operation's `cost` in the contract: `per_result` reads charge per item returned, `per_call` reads per
 * successful call. The order is always the same: ask what is affordable (0 affordable is 402
 * `insufficient_credits`), read, then charge what was actually returned in one ledger row. Anything thrown
 * before the charge (404s, the free 403 of protected accounts, platform failures) therefore costs nothing.
 */
export interface Meter {
  /** Credits of one unit (an item of a per-result read, one call of a per-call read). */
  readonly perUnit: number;
  /** How many of `requested` units the caller can pay now: between 1 and `requested`, else 402. */
  affordable(requested: number): Promise<number>;
  /** Charges `units` units as one ledger row; nothing is written for 0 units. */
  charge(units: number): Promise<void>;
}

/** The credits one unit of an operation costs: 0 for free and metered-elsewhere operations. */
export function unitPrice(op: AnyOperation): number {
  return op.cost.kind === 'per_call' || op.cost.kind === 'per_result' ? op.cost.credits : 0;
}

/** The meter of the caller of `ctx`, priced by `ctx.op`. */
export function meter(ctx: HandlerContext): Meter {
  const { accountId, mode } = ctx.requirePrincipal();
  const { credits } = ctx.services;
  // A machine payment already paid this call in full (spec 5.4): no credits are asked for or charged.
  const perUnit = mode === 'payment' ? 0 : unitPrice(ctx.op);
  return {
    perUnit,
    affordable: (requested) => credits.affordable(accountId, requested, perUnit),
    charge: async (units) => {
      if (units > 0 && perUnit > 0) await credits.charge(accountId, ctx.op.id, units, perUnit, ctx.requestId);
    },
  };
}

/** A per-call read: 402 unless one call is affordable, then `read`, charged once only when it succeeds. */
export async function paidCall<T>(ctx: HandlerContext, read: () => Promise<T>): Promise<T> {
  const m = meter(ctx);
  await m.affordable(1);
  const result = await read();
  await m.charge(1);
  return result;
}

/** What a per-result paged read asks for. */
export interface PaidPageRequest<T> {
  /** Items wanted on this page (the page size, or the request's `limit`). */
  want: number;
  cursor: string | undefined;
  read: PageReader<T>;
  /** A filter the platform could not apply; only kept items are returned and charged. */
  keep?: (item: T) => boolean;
  maxPages?: number;
}

/**
 * A per-result page: reads no more items than the balance covers (fewer results rather than a failure,
 * spec 8.2; none affordable is 402), then charges one unit per item returned. An empty page is free, even
 * at a zero balance: before answering 402, one probe read checks that there is something to pay for (so a
 * missing list is still its 404 and an empty listing its free empty page).
 */
export async function paidPage<T>(ctx: HandlerContext, req: PaidPageRequest<T>): Promise<Gathered<T>> {
  const m = meter(ctx);
  let want: number;
  try {
    want = await m.affordable(req.want);
  } catch (err) {
    // Nothing affordable: still free when there is nothing to pay for (an empty page, a missing resource).
    const probe = await gather(req.read, 1, req.cursor, req.keep, 1);
    if (probe.items.length === 0 && probe.nextCursor === undefined) return probe;
    throw err;
  }
  const page = await gather(req.read, want, req.cursor, req.keep, req.maxPages);
  await m.charge(page.items.length);
  return page;
}

import { BoundedCache } from '../../core/bounded-cache.js';
import type { Target } from '../../core/ssrf/target.js';
import type { SendLimits, SendOutcome } from './transport.js';

/**
 * The messages between the server's thread and a sender thread (structured-cloned: plain data only, so the
 * target's URL travels as its text).
 */

/** One POST for a sender thread to make. */
export interface WireRequest {
  readonly id: number;
  readonly href: string;
  readonly kind: Target['kind'];
  readonly host: string;
  readonly port: number;
  readonly address: string;
  readonly family: 4 | 6;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly limits: SendLimits;
}

/** To a sender thread: POSTs to make, POSTs to cut off (the server is stopping), or the end. */
export type ToSender =
  | { readonly type: 'send'; readonly batch: readonly WireRequest[] }
  | { readonly type: 'cancel'; readonly ids: readonly number[] }
  | { readonly type: 'close' };

/** From a sender thread: the outcomes of POSTs that ended, in batches. */
export interface WireReply {
  readonly id: number;
  readonly outcome: SendOutcome;
}

/** What a sender thread is started with. */
export interface SenderData {
  /** Keep-alive connections per pool. */
  readonly maxSockets: number;
}

/** The plain-data form of a target. */
export function targetToWire(
  target: Target,
): Pick<WireRequest, 'href' | 'kind' | 'host' | 'port' | 'address' | 'family'> {
  return {
    href: target.url.href,
    kind: target.kind,
    host: target.host,
    port: target.port,
    address: target.address,
    family: target.family,
  };
}

/**
 * The URLs of the last 1,000 targets, by their text (a webhook's deliveries share one; only read, never
 * changed), for the one thread this module runs in.
 */
const urls = new BoundedCache<object, URL>(1_000);
const thisThread = {};

/** The target back from its plain-data form. */
export function targetFromWire(w: WireRequest): Target {
  return {
    url: urls.get(thisThread, w.href, () => new URL(w.href)),
    kind: w.kind,
    host: w.host,
    port: w.port,
    address: w.address,
    family: w.family,
  };
}

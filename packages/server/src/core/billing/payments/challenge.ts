import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The payment network of the challenges this server issues (the reference's `tempo`). */
export const PAYMENT_METHOD = 'tempo';
/** The protection space named in every challenge. */
export const PAYMENT_REALM = 'svc';
/** The currency of challenge amounts: micro-US-dollars (the reference prices the 7 reads in them). */
export const PAYMENT_CURRENCY = 'usd-micro';
/** How long a challenge can be paid: long enough for a person to confirm, short enough not to pile up. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

/** The parameters of a `WWW-Authenticate: Payment` challenge (spec 5.4). */
export interface Challenge {
  readonly id: string;
  readonly realm: string;
  readonly method: string;
  readonly intent: string;
  /** base64url JSON `{ amount, currency, recipient }`, kept as sent: the id is bound to these exact bytes. */
  readonly request: string;
  /** RFC 3339 time after which the network refuses to pay the challenge. */
  readonly expires: string;
}

/** The decoded `request` of a charge challenge. */
export interface ChargeRequest {
  readonly amount: string;
  readonly currency: string;
  readonly recipient: string;
}

/** HMAC-SHA256 of `parts` joined by `|`, base64url: binds values so that none can change unnoticed. */
export function bind(key: Buffer, ...parts: string[]): string {
  return createHmac('sha256', key).update(parts.join('|')).digest('base64url');
}

/** True when `actual` is the binding of `parts` (compared in constant time). */
export function bindingMatches(key: Buffer, actual: string, ...parts: string[]): boolean {
  const expected = Buffer.from(bind(key, ...parts));
  const got = Buffer.from(actual);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** A new charge challenge for `amountMicroUsd`, its id bound to every other parameter with `key`. */
export function issueChallenge(
  key: Buffer,
  c: { amountMicroUsd: number; recipient: string; now: number },
): Challenge {
  const request = Buffer.from(
    JSON.stringify({ amount: String(c.amountMicroUsd), currency: PAYMENT_CURRENCY, recipient: c.recipient }),
  ).toString('base64url');
  const expires = new Date(c.now + CHALLENGE_TTL_MS).toISOString();
  const params = { realm: PAYMENT_REALM, method: PAYMENT_METHOD, intent: 'charge', request, expires };
  // A random nonce makes every challenge unique (two at the same instant for the same price are two
  // payments); the rest of the id binds the nonce and every parameter, so no state is kept per challenge.
  const nonce = randomBytes(12).toString('base64url');
  return { id: `${nonce}.${challengeBinding(key, nonce, params)}`, ...params };
}

function challengeBinding(key: Buffer, nonce: string, c: Omit<Challenge, 'id'>): string {
  return bind(key, nonce, c.realm, c.method, c.intent, c.request, c.expires);
}

/** True when `c` is a challenge this server issued with `key`, unchanged. */
export function isOwnChallenge(key: Buffer, c: Challenge): boolean {
  const [nonce, binding, extra] = c.id.split('.');
  if (!nonce || !binding || extra !== undefined) return false;
  return bindingMatches(key, binding, nonce, c.realm, c.method, c.intent, c.request, c.expires);
}

/** The `WWW-Authenticate` value of a challenge. */
export function formatChallenge(c: Challenge): string {
  return `Payment id="${c.id}", realm="${c.realm}", method="${c.method}", intent="${c.intent}", request="${c.request}", expires="${c.expires}"`;
}

/** Reads the auth-params of `Payment k="v", k2=v2`; undefined when the value is not a Payment challenge. */
export function parseChallenge(header: string): Challenge | undefined {
  const m = /^\s*Payment\s+(.*)$/is.exec(header);
  if (!m) return undefined;
  const p: Record<string, string> = {};
  for (const a of m[1]!.matchAll(/([A-Za-z_][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
    p[a[1]!.toLowerCase()] = (a[2] ?? a[3] ?? '').replace(/\\(.)/g, '$1');
  }
  return asChallenge(p);
}

/** A challenge from loose values (parsed params, or the `challenge` echoed in a credential). */
export function asChallenge(v: unknown): Challenge | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  const keys = ['id', 'realm', 'method', 'intent', 'request', 'expires'] as const;
  if (!keys.every((k) => typeof o[k] === 'string')) return undefined;
  const s = o as Record<(typeof keys)[number], string>;
  return {
    id: s.id,
    realm: s.realm,
    method: s.method,
    intent: s.intent,
    request: s.request,
    expires: s.expires,
  };
}

/** The decoded `request` of a charge challenge, or undefined when it is not one. */
export function chargeRequest(c: Challenge): ChargeRequest | undefined {
  try {
    const r = JSON.parse(Buffer.from(c.request, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof r.amount !== 'string' || typeof r.currency !== 'string' || typeof r.recipient !== 'string')
      return undefined;
    return { amount: r.amount, currency: r.currency, recipient: r.recipient };
  } catch {
    return undefined;
  }
}

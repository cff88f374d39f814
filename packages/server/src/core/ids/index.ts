import { randomFillSync, randomInt, randomUUID } from 'node:crypto';
import { SnowflakeIds } from './snowflake.js';

/**
 * The one id module (issue #13): every id this server makes comes from one of these generators. The wire
 * format of each resource's id is part of the contract (tests, the SDK and the CLI check them), so a resource
 * never changes generator. Under the opt-in contract, `@xsvc/sdk/contract` adds a kind prefix (`mon_`,
 * `evt_`, `wh_`, `drw_`, …) to the stored ids on the way out; ids listed here with a prefix store it.
 *
 * | resource                                             | format                                   | generator                          |
 * | ---------------------------------------------------- | ---------------------------------------- | ---------------------------------- |
 * | draws, extraction jobs, credit ledger rows           | UUIDv7 (time-ordered)                    | {@link timeUuid}`(now)`            |
 * | guest-wallet purchases                               | `gp_` + UUIDv7 hex, no dashes            | {@link timeHexId}`('gp', now)`     |
 * | webhooks, compose drafts and styles, support tickets and messages | big integer: ms << 32 \| 32 random bits | {@link timeId}`(now)` |
 * | support attachments                                  | `att_` + {@link timeId}                  | {@link attachmentId}               |
 * | support tickets' public id                           | `TCK-` + 8 Crockford base-32 characters  | {@link ticketPublicId}             |
 * | monitors, keyword monitors, stored events            | snowflake, 19 digits (node + sequence)   | {@link TimeIds} / {@link idsOf}    |
 * | webhook deliveries (`deliveryId`)                    | `dlv_` + UUIDv7 hex, no dashes           | {@link timeHexId}`('dlv', now)`    |
 * | guest wallets `gw_`, checkouts `cs_`, write actions `wa_`, connection attempts `xatt_` | prefix + 32 hex | {@link randomId}`(prefix)` |
 * | connection challenges                                | `xch_` + 24 base64url characters         | {@link randomId}`('xch', {…})`     |
 * | coverage walks (inside `cov_` cursors)               | 32 hex                                   | {@link randomId}`()`               |
 * | accounts, OAuth clients and grant families, X accounts, request ids, engine/runner owners | UUIDv4 | {@link uuid} |
 *
 * Credentials (API keys, session and OAuth tokens, signing secrets) are not ids: see `core/auth/keys.ts`.
 * The snowflake generator of tweet and user ids is `./snowflake.ts` (the simulated platform issues them).
 */

// ---------------------------------------------------------------------------------------------------------
// Random bytes, drawn in bulk: ids are made on hot paths (a ledger row per metered read, a delivery per
// subscribed endpoint per event), and one `randomFillSync` per 4 KiB is far cheaper than one call per id.

const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/** `n` (at most 64) fresh random bytes, valid until the next call. */
function randomSlice(n: number): Buffer {
  if (poolOffset + n > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const slice = pool.subarray(poolOffset, poolOffset + n);
  poolOffset += n;
  return slice;
}

// ---------------------------------------------------------------------------------------------------------
// Random ids.

/** A random UUID (version 4): accounts, OAuth clients, X accounts, request ids, owners of leases. */
export function uuid(): string {
  return randomUUID();
}

/** How {@link randomId} spells its random part. */
export interface RandomIdOptions {
  /** Random bytes (default 16: 128 bits, so an id never repeats in practice, even across instances). */
  bytes?: number;
  /** `hex` (default) or `base64url`. */
  encoding?: 'hex' | 'base64url';
}

/**
 * A random id: `<prefix>_` (when given) and 16 random bytes as 32 lowercase hex digits (`gw_…`,
 * `cs_…`, `wa_…`, `xatt_…`), or as the options say (`xch_` + 18 bytes base64url).
 */
export function randomId(prefix?: string, options: RandomIdOptions = {}): string {
  const body = randomSlice(options.bytes ?? 16).toString(options.encoding ?? 'hex');
  return prefix === undefined ? body : `${prefix}_${body}`;
}

/** Crockford's base-32 alphabet: no I, L, O or U, so a public id read aloud is not mistaken. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A support ticket's public id: `TCK-` and 8 random base-32 characters (40 bits). */
export function ticketPublicId(): string {
  let out = '';
  for (const b of randomSlice(8)) out += CROCKFORD[b & 31];
  return `TCK-${out}`;
}

// ---------------------------------------------------------------------------------------------------------
// Time-sortable ids.

/** The last {@link timeId} this process made. */
let lastTimeId = 0n;

/**
 * A time-sortable big-integer id (spec 2.1: a string holding a big integer): the time `now` (epoch ms) in
 * the high bits and 32 random bits below, so ids sort roughly by creation; two made in the same
 * millisecond by one process always differ (the later one counts up from the earlier). Webhooks, compose drafts and styles, support tickets and messages.
 */
export function timeId(now: number): string {
  const ms = BigInt(Math.max(0, Math.floor(now)));
  let id = (ms << 32n) | BigInt(randomSlice(4).readUInt32BE(0));
  // In one process, ids of the same millisecond count up from the last one: 32 random bits alone would
  // repeat within tens of thousands of ids (the birthday bound), and callers make that many in a burst.
  if (id <= lastTimeId && lastTimeId >> 32n === ms) id = lastTimeId + 1n;
  if (id > lastTimeId) lastTimeId = id;
  return id.toString();
}

/** A support attachment's id: `att_` and a {@link timeId}. */
export function attachmentId(now: number): string {
  return `att_${timeId(now)}`;
}

let uuidMs = -1;
let uuidSequence = 0;
let uuidPrefix = '';

/** Moves the UUIDs to millisecond `ms`: the first 15 characters of their text, sequence 0. */
function startMillisecond(ms: number): void {
  const hex = ms.toString(16).padStart(12, '0');
  uuidMs = ms;
  uuidSequence = 0;
  uuidPrefix = `${hex.slice(0, 8)}-${hex.slice(8)}-7`;
}

/**
 * A time-ordered UUID (version 7, RFC 9562) for time `now` (epoch ms): 48 bits of milliseconds, a 12-bit
 * sequence that keeps the ids of this process strictly increasing (within a millisecond, and when the clock
 * steps back), then the variant and 62 random bits. Draw and extraction ids are UUIDs (spec 2.1) and their
 * order breaks ties of newest-first listings; the credit ledger's primary key is a text index, where ordered
 * ids append at its right edge instead of landing on a random page at every insert.
 */
export function timeUuid(now: number): string {
  // More than 4096 ids within one millisecond (or the clock stepped back): borrow the next millisecond.
  if (now > uuidMs) startMillisecond(Math.floor(now));
  else if (++uuidSequence > 0xfff) startMillisecond(uuidMs + 1);
  const tail = randomSlice(8);
  const variant = (((tail[0] as number) & 0x3f) | 0x80).toString(16);
  const hex = tail.toString('hex', 1);
  return `${uuidPrefix}${uuidSequence.toString(16).padStart(3, '0')}-${variant}${hex.slice(0, 2)}-${hex.slice(2)}`;
}

/**
 * `<prefix>_` and a {@link timeUuid} as 32 lowercase hex digits (no dashes): the shape of a {@link randomId},
 * but time-ordered, so a table keyed by it grows at the right edge of its index instead of dirtying a random
 * page at every insert (webhook deliveries, whose rows and jobs are written thousands per second;
 * guest-wallet purchases).
 */
export function timeHexId(prefix: string, now: number): string {
  return `${prefix}_${timeUuid(now).replace(/-/g, '')}`;
}

const NODE_BITS = 10n;
const SEQUENCE_BITS = 12n;

/**
 * Time-sortable ids for monitors and stored events (spec 2.1: big integers as strings): the platform's
 * snowflake layout ({@link SnowflakeIds}: milliseconds since the platform epoch in the high bits, then 22
 * bits) with a 10-bit node number (random per generator, so two server instances rarely collide) above a
 * 12-bit sequence. Ids of one generator strictly increase; every id made after 2018 has 19 digits, so text
 * order is time order. On the rare collision with another instance the caller calls
 * {@link TimeIds.reroll} and retries.
 */
export class TimeIds {
  /** The time and sequence steps (the sequence stays below 4096, so it leaves the node bits free). */
  private readonly steps = new SnowflakeIds();
  private node = BigInt(randomInt(1 << Number(NODE_BITS)));

  /** The next id, for time `ms` (the injected clock's now). */
  next(ms: number): string {
    return (BigInt(this.steps.next(ms)) | (this.node << SEQUENCE_BITS)).toString();
  }

  /** Takes another node number, after an id of this generator collided with one made elsewhere. */
  reroll(): void {
    this.node = BigInt(randomInt(1 << Number(NODE_BITS)));
  }
}

const generators = new WeakMap<object, TimeIds>();

/** The {@link TimeIds} of one server (keyed by its database handle), shared by its request handlers. */
export function idsOf(owner: object): TimeIds {
  let ids = generators.get(owner);
  if (!ids) {
    ids = new TimeIds();
    generators.set(owner, ids);
  }
  return ids;
}

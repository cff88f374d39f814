import { WEBHOOK_TEST_EVENT_TYPE } from '@xsvc/sdk/contract';
import { signWebhookSync } from '@xsvc/webhook-verifier';

/** The agent string of every delivery (spec 6.3: a `xquik-webhooks/1.0` style agent). */
export const USER_AGENT = 'xsvc-webhooks/1.0';

/** A body ready to POST and the headers that go with it. */
export interface SignedRequest {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** Thrown when a stored event cannot be turned into a payload (its JSON is damaged). */
export class UndeliverableEventError extends Error {
  override readonly name = 'UndeliverableEventError';
}

/**
 * The body of an event delivery (spec 6.3): the event's stored payload plus this delivery's `deliveryId`,
 * with `streamEventId` always the stored event's id. A payload that is not a JSON object is refused
 * ({@link UndeliverableEventError}).
 */
export function eventBody(storedPayload: string, eventId: string, deliveryId: string): string {
  let payload: unknown;
  try {
    payload = JSON.parse(storedPayload);
  } catch {
    throw new UndeliverableEventError(`stored event ${eventId} has a payload that is not JSON`);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
    throw new UndeliverableEventError(`stored event ${eventId} has a payload that is not a JSON object`);
  const stored = payload as Record<string, unknown>;
  return splicedBody(storedPayload, stored, eventId, deliveryId) ?? builtBody(stored, eventId, deliveryId);
}

/**
 * The body of a payload in the layout the events' store writes (`JSON.stringify` of `eventPayload`:
 * `{"eventType":"…","schemaVersion":N,"streamEventId":"<the event's id>",…}`, no `deliveryId`): the stored
 * text with `"deliveryId":"…",` put in before `streamEventId`, which is what {@link builtBody} would
 * stringify, without stringifying the whole payload again (issue #30). Undefined for any other layout.
 * The text's head must hold, verbatim, what the parsed payload's first keys stringify to (plain strings, a
 * plain number); the rest is sent as stored, which is the writer's `JSON.stringify` output (no whitespace,
 * no key twice), so the same bytes.
 */
function splicedBody(
  text: string,
  stored: Record<string, unknown>,
  eventId: string,
  deliveryId: string,
): string | undefined {
  const { eventType, schemaVersion, streamEventId } = stored;
  if (
    typeof eventType !== 'string' ||
    typeof schemaVersion !== 'number' ||
    streamEventId !== eventId ||
    !PLAIN.test(eventType) ||
    !PLAIN.test(eventId) ||
    Object.hasOwn(stored, 'deliveryId') ||
    // An index-like key is stringified first wherever it is in the text: the text's order is not the body's.
    !firstKeyIs(stored, 'eventType') ||
    !text.endsWith('}')
  )
    return undefined;
  let at = TYPE_KEY.length;
  if (!text.startsWith(TYPE_KEY) || !text.startsWith(eventType, at)) return undefined;
  at += eventType.length;
  if (!text.startsWith(VERSION_KEY, at)) return undefined;
  at += VERSION_KEY.length;
  const version = String(schemaVersion);
  if (!text.startsWith(version, at)) return undefined;
  at += version.length;
  const head = at + 1;
  if (!text.startsWith(STREAM_KEY, at) || !text.startsWith(eventId, at + STREAM_KEY.length)) return undefined;
  at += STREAM_KEY.length + eventId.length;
  const next = text.charCodeAt(at + 1);
  if (text.charCodeAt(at) !== 0x22 /* " */ || (next !== 0x2c /* , */ && next !== 0x7d) /* } */)
    return undefined;
  return `${text.slice(0, head)}"deliveryId":${JSON.stringify(deliveryId)},${text.slice(head)}`;
}

/** How the writer's head starts, and goes on after the event type and after the schema version. */
const TYPE_KEY = '{"eventType":"';
const VERSION_KEY = '","schemaVersion":';
const STREAM_KEY = ',"streamEventId":"';

/** A string that `JSON.stringify` writes as it is between quotes (printable ASCII but `"` and `\`). */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

function firstKeyIs(o: object, key: string): boolean {
  for (const k in o) return k === key;
  return false;
}

/** {@link eventBody} by building the body's object and stringifying it (any layout). */
function builtBody(stored: Record<string, unknown>, eventId: string, deliveryId: string): string {
  // `{ eventType, schemaVersion, deliveryId, streamEventId, ...rest }`, built without copying `rest` first:
  // the same keys in the same order (a `__proto__` key, which an assignment would not make a key, takes the
  // spread).
  const out: Record<string, unknown> = {
    eventType: stored.eventType,
    schemaVersion: stored.schemaVersion,
    deliveryId,
    streamEventId: eventId,
  };
  for (const key of Object.keys(stored)) {
    if (key === 'eventType' || key === 'schemaVersion' || key === 'deliveryId' || key === 'streamEventId')
      continue;
    if (key === '__proto__') return spreadBody(stored, eventId, deliveryId);
    out[key] = stored[key];
  }
  return JSON.stringify(out);
}

function spreadBody(stored: Record<string, unknown>, eventId: string, deliveryId: string): string {
  const { eventType, schemaVersion, deliveryId: _stored, streamEventId: _event, ...rest } = stored;
  return JSON.stringify({ eventType, schemaVersion, deliveryId, streamEventId: eventId, ...rest });
}

/** The body of `webhook.test` (spec 6.3): `eventType`, `data.message` and `timestamp`, nothing else. */
export function testBody(now: number): string {
  return JSON.stringify({
    eventType: WEBHOOK_TEST_EVENT_TYPE,
    data: {
      message: 'Test delivery from xsvc: your endpoint is reachable and the signature can be verified.',
    },
    timestamp: new Date(now).toISOString(),
  });
}

/**
 * Signs a body with the endpoint secret through the verifier package's own signer (so sender and receiver
 * cannot disagree) and adds the other headers of spec 6.3.
 */
export function signRequest(body: string, secret: string, now: number): SignedRequest {
  const signature = signWebhookSync({ secret, payload: body, timestamp: Math.floor(now) });
  return {
    body,
    headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT, ...signature },
  };
}

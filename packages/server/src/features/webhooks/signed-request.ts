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
 * with `streamEventId` always the stored event's id.
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

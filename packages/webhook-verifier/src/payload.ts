import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './types.js';

const PARSED_BODY_HELP =
  'the body was parsed (for example by express.json()) before verifying. The signature covers the raw ' +
  'bytes, so pass them unparsed: express.raw({ type: "application/json" }) in Express, ' +
  'addContentTypeParser("application/json", { parseAs: "buffer" }, ...) in Fastify, or ' +
  'await request.arrayBuffer() (or verifyWebhookRequest) for a Fetch Request.';

/**
 * Checks the payload's type and returns it as a string or a byte view. Misuse is a `TypeError`, with the
 * most common mistake (an already-parsed JSON object) explained, since that is the top complaint of users
 * of every other verifier.
 */
export function toBody(payload: unknown, caller: string): string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  // Cross-realm values (a VM, a worker's structured clone) fail instanceof but keep their tag.
  const tag = Object.prototype.toString.call(payload);
  if (tag === '[object Uint8Array]' && ArrayBuffer.isView(payload)) {
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  }
  if (tag === '[object ArrayBuffer]') return new Uint8Array(payload as ArrayBuffer);
  if (typeof payload === 'object' && payload !== null && !ArrayBuffer.isView(payload)) {
    throw new TypeError(`${caller}: payload is an object, not the raw body: ${PARSED_BODY_HELP}`);
  }
  throw new TypeError(
    `${caller}: payload must be the raw body as a string, Uint8Array (a Node Buffer is one) or ArrayBuffer; got ${describe(payload)}.`,
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (ArrayBuffer.isView(value)) return Object.prototype.toString.call(value).slice(8, -1);
  return typeof value;
}

/**
 * Turns the decoded body into the event, or rejects it as `invalid_payload`: JSON, an object (not an array)
 * and a string `eventType`. Nothing else is checked, so fields the API adds later pass through.
 */
export function parseEvent(text: string): WebhookEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new WebhookVerificationError('invalid_payload', 'The signed body is not valid JSON.', { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new WebhookVerificationError('invalid_payload', 'The signed body is not a JSON object.');
  }
  if (typeof (value as { eventType?: unknown }).eventType !== 'string') {
    throw new WebhookVerificationError('invalid_payload', 'The signed body has no string "eventType".');
  }
  return value as WebhookEvent;
}

/** The rejection for a body that is not valid UTF-8, shared so both builds word it identically. */
export function invalidUtf8(cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError('invalid_payload', 'The signed body is not valid UTF-8.', { cause });
}

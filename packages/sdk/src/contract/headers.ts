import { z } from 'zod';
import { limits } from './limits.js';
import type { AnyOperation, HeaderName, RequestHeader } from './operation.js';
import { GUEST_IDEMPOTENCY_KEY } from './schemas/guest-wallets.js';
import { SUPPORT_IDEMPOTENCY_KEY } from './schemas/support.js';

/**
 * The request headers operations declare (`Operation.headers`): the one place that says which operations
 * take an `Idempotency-Key` and what a valid key is. The SDK, the server, the OpenAPI document, the CLI,
 * MCP and the reference read them from the operations.
 */

/** The `Idempotency-Key` of durable writes (spec 4.13): required, 1-255 printable ASCII characters. */
export const WRITE_IDEMPOTENCY_KEY: RequestHeader = {
  required: true,
  description:
    'A unique key per write (1-255 printable ASCII characters): a retried request with the same key returns ' +
    'the first answer instead of writing twice.',
  schema: z
    .string()
    .min(limits.idempotencyKey.min)
    .max(limits.idempotencyKey.max)
    .refine((v) => limits.idempotencyKey.pattern.test(v), 'must be printable ASCII characters'),
};

/** The `Idempotency-Key` of guest-wallet checkouts: required, a UUID v4. */
export const CHECKOUT_IDEMPOTENCY_KEY: RequestHeader = {
  required: true,
  description:
    'A new UUID v4 per checkout: a repeat with the same key answers the same checkout; the same key with ' +
    'another body answers 409.',
  schema: z.string().regex(GUEST_IDEMPOTENCY_KEY, 'must be a UUID v4'),
};

/** The optional `Idempotency-Key` of support tickets and replies: 8-128 letters, digits or `._:-`. */
export const SUPPORT_IDEMPOTENCY_KEY_HEADER: RequestHeader = {
  required: false,
  description:
    '8-128 letters, digits or `._:-`: a repeat with the same key answers the first receipt; the ' +
    'same key with another request answers 409.',
  schema: z.string().regex(SUPPORT_IDEMPOTENCY_KEY, 'must be 8-128 letters, digits or ._:-'),
};

/** The declared request header `name` of an operation, or undefined when it takes none. */
export function requestHeader(op: AnyOperation, name: HeaderName): RequestHeader | undefined {
  return op.headers?.[name];
}

/** True when the operation takes an `Idempotency-Key` (the SDK then sends one, kept across retries). */
export function takesIdempotencyKey(op: AnyOperation): boolean {
  return op.headers?.['Idempotency-Key'] !== undefined;
}

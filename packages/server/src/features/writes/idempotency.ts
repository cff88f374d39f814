import type { AnyOperation } from '@xsvc/sdk/contract';
import type { FastifyRequest } from 'fastify';
import { canonicalize, requestHash, requiredIdempotencyKey } from '../../core/idempotency/idempotency.js';

/**
 * The `Idempotency-Key` of a write (spec 4.13), as its operation declares it (`headers`): required (400
 * `missing_idempotency_key`), 1-255 printable ASCII characters (400 `invalid_idempotency_key`).
 */
export function idempotencyKey(request: FastifyRequest, op: AnyOperation): string {
  return requiredIdempotencyKey(request.headers, op, {
    missing: 'writes need an Idempotency-Key header (a new random value per write, repeated on a retry)',
    invalid: 'Idempotency-Key must be 1-255 printable ASCII characters',
  });
}

/** The scope of an account's write keys in the idempotency store (the answer kept is the action id). */
export const writeScope = (accountId: string) => `writes:${accountId}`;

/**
 * SHA-256 (hex) of a write request in canonical form (the one idempotency store's `requestHash`): the
 * operation, its path parameters and its body (a file counts by its type, size and content digest).
 */
export function writeRequestHash(operationId: string, params: unknown, body: unknown): Promise<string> {
  return requestHash([operationId, params, body]);
}

/**
 * The sanitized payload of a write (reference `XWriteActionRequest.payload`): its path parameters and body
 * in canonical form, without `account` (the action names it apart) and with files as their type, size and
 * digest (never their bytes). Null when nothing remains.
 */
export async function requestPayload(
  params: unknown,
  body: unknown,
): Promise<Record<string, unknown> | null> {
  const merged: Record<string, unknown> = {
    ...(params && typeof params === 'object' ? params : {}),
    ...(body && typeof body === 'object' && !(body instanceof Blob) ? body : {}),
  };
  delete merged.account;
  const payload = (await canonicalize(merged)) as Record<string, unknown>;
  return Object.keys(payload).length > 0 ? payload : null;
}

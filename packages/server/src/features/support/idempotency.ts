import type { AnyOperation } from '@xsvc/sdk/contract';
import { HttpError } from '../../core/http/errors.js';
import { idempotencyKey, requestHash } from '../../core/idempotency/idempotency.js';
import type { CheckedFile } from './attachments.js';

/**
 * The optional `Idempotency-Key` of a support create or reply (the one idempotency store, `core/idempotency`):
 * undefined when absent, 400 when malformed.
 */
export function supportKey(headers: Record<string, string | string[] | undefined>, op: AnyOperation) {
  return idempotencyKey(headers, op, {
    missing: 'send an Idempotency-Key header',
    invalid: 'Idempotency-Key: 8-128 letters, digits or ._:-',
  });
}

/** The scope of an account's support keys. */
export const supportScope = (accountId: string) => `support:${accountId}`;

/** 409 for a key used with another request. */
export const supportConflict = () =>
  new HttpError('idempotency_key_conflict', 'this Idempotency-Key was used with another request');

/** A digest of what a request asks for: the same request always has the same one, any change another. */
export function supportRequestHash(parts: {
  operation: string;
  ticket?: string;
  subject?: string;
  body: string;
  files: readonly CheckedFile[];
}): Promise<string> {
  const files = parts.files.map((f) => [f.filename, f.contentType, f.sha256]);
  return requestHash([parts.operation, parts.ticket ?? null, parts.subject ?? null, parts.body, files]);
}

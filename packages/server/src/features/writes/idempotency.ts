import { createHash } from 'node:crypto';
import type { AnyOperation } from '@xsvc/sdk/contract';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../core/http/errors.js';

/**
 * The `Idempotency-Key` of a write (spec 4.13), as its operation declares it (`headers`): required (400
 * `missing_idempotency_key`), 1-255 printable ASCII characters (400 `invalid_idempotency_key`).
 */
export function idempotencyKey(request: FastifyRequest, op: AnyOperation): string {
  const header = op.headers?.['Idempotency-Key'];
  if (!header) throw new Error(`${op.id} declares no Idempotency-Key: it is not a durable write`);
  const raw = request.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '')
    throw new HttpError(
      'missing_idempotency_key',
      'writes need an Idempotency-Key header (a new random value per write, repeated on a retry)',
    );
  if (!header.schema.safeParse(key).success)
    throw new HttpError(
      'invalid_idempotency_key',
      'Idempotency-Key must be 1-255 printable ASCII characters',
    );
  return key;
}

/**
 * SHA-256 (hex) of a write request in a canonical form: the operation, its path parameters and its body
 * with keys sorted (a file counts by its type, size and content digest). The same request always hashes
 * the same, whatever the key order or encoding (JSON or multipart) it came in.
 */
export async function requestHash(operationId: string, params: unknown, body: unknown): Promise<string> {
  const canonical = JSON.stringify([operationId, await canonicalize(params), await canonicalize(body)]);
  return createHash('sha256').update(canonical).digest('hex');
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

async function canonicalize(value: unknown): Promise<unknown> {
  if (value instanceof Blob) {
    const digest = createHash('sha256')
      .update(Buffer.from(await value.arrayBuffer()))
      .digest('hex');
    return { file: { type: value.type, size: value.size, sha256: digest } };
  }
  if (Array.isArray(value)) return Promise.all(value.map(canonicalize));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = await canonicalize(v);
    }
    return out;
  }
  return value;
}

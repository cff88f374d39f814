import { createHash } from 'node:crypto';
import { type AnyOperation, requestHeader } from '@xsvc/sdk/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { HttpError } from '../http/errors.js';

/**
 * The one idempotency store (issue #13). An operation that declares an `Idempotency-Key` header
 * (`op.headers['Idempotency-Key']`, required or optional, with the schema of a valid key) reads it with
 * {@link idempotencyKey}, hashes its request with {@link requestHash}, replays the stored answer of the same
 * key and request with {@link lookup} (another request under the key: the feature's 409), and stores its answer
 * with {@link remember} in the transaction that stored the request's effects: the first of two concurrent
 * requests with one key stores its answer, the other gets {@link IdempotencyRace} (its transaction rolls
 * back) and replays that answer. One table, `idempotency_keys`, keyed by scope (whose keys: an account's,
 * a feature's) and key.
 */

/** How a feature words its key errors (the codes are the spec's; each feature keeps its messages). */
export interface KeyMessages {
  /** 400 `missing_idempotency_key` (a required key absent). */
  missing: string;
  /** 400 `invalid_idempotency_key` (a key the declared schema refuses). */
  invalid: string;
}

/** The headers of a request, as Fastify gives them. */
type Headers = Record<string, string | string[] | undefined>;

/**
 * The `Idempotency-Key` of a request, checked as `op` declares it: undefined when an optional key is
 * absent; 400 `missing_idempotency_key` when a required one is (or is empty), 400 `invalid_idempotency_key`
 * when the declared schema refuses it. Throws (a programming error) when `op` declares no such header.
 */
export function idempotencyKey(
  headers: Headers,
  op: AnyOperation,
  messages: KeyMessages,
): string | undefined {
  const declared = requestHeader(op, 'Idempotency-Key');
  if (!declared) throw new Error(`${op.id} declares no Idempotency-Key`);
  const raw = headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || (declared.required && key === '')) {
    if (declared.required) throw new HttpError('missing_idempotency_key', messages.missing);
    return undefined;
  }
  if (!declared.schema.safeParse(key).success)
    throw new HttpError('invalid_idempotency_key', messages.invalid);
  return key;
}

/** {@link idempotencyKey} of an operation that requires the key. */
export function requiredIdempotencyKey(headers: Headers, op: AnyOperation, messages: KeyMessages): string {
  const key = idempotencyKey(headers, op, messages);
  if (key === undefined) throw new HttpError('missing_idempotency_key', messages.missing);
  return key;
}

/**
 * SHA-256 (hex) of a request in canonical form: `parts` (the operation, its parameters, its body, the
 * caller: whatever makes two requests the same) as JSON with object keys sorted and files as their type,
 * size and content digest. The same request always hashes the same, whatever its key order or encoding.
 */
export async function requestHash(parts: readonly unknown[]): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify(await canonicalize(parts)))
    .digest('hex');
}

/** `value` with object keys sorted, undefined members left out and files as `{ file: { type, size, sha256 } }`. */
export async function canonicalize(value: unknown): Promise<unknown> {
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

/** One key of one scope, with the hash of the request now sent under it. */
export interface KeyedRequest {
  scope: string;
  key: string;
  hash: string;
}

/** A stored answer: its request's hash and the answer as the feature encoded it. */
export interface StoredAnswer {
  requestHash: string;
  answer: string;
}

/**
 * The stored answer of the key when the request is the same; undefined when the key is new. The same key
 * with another request throws what `conflict` makes of the stored answer (each feature's 409).
 */
export async function lookup(
  db: Kysely<Database>,
  req: KeyedRequest,
  conflict: (stored: StoredAnswer) => HttpError | Promise<HttpError>,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'answer'])
    .where('scope', '=', req.scope)
    .where('key', '=', req.key)
    .executeTakeFirst();
  if (!row) return undefined;
  const stored = { requestHash: row.request_hash, answer: row.answer };
  if (row.request_hash !== req.hash) throw await conflict(stored);
  return row.answer;
}

/** Thrown by {@link remember} when a concurrent request stored an answer under the key first. */
export class IdempotencyRace extends Error {
  constructor(readonly req: KeyedRequest) {
    super(`another request stored an answer for Idempotency-Key ${req.key} first`);
  }
}

/**
 * Stores the answer of a key, in the caller's transaction (with the request's effects). When a concurrent
 * request stored one first, throws {@link IdempotencyRace}: the transaction rolls back and the caller
 * replays that answer ({@link lookup} again).
 */
export async function remember(
  trx: Kysely<Database>,
  req: KeyedRequest & { answer: string; now: number },
): Promise<void> {
  const r = await trx
    .insertInto('idempotency_keys')
    .values({
      scope: req.scope,
      key: req.key,
      request_hash: req.hash,
      answer: req.answer,
      created_at: req.now,
    })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .executeTakeFirst();
  if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) throw new IdempotencyRace(req);
}

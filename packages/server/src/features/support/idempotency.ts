import { createHash } from 'node:crypto';
import type { AnyOperation } from '@xsvc/sdk/contract';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { HttpError } from '../../core/http/errors.js';
import type { CheckedFile } from './attachments.js';

/**
 * The optional `Idempotency-Key` of a request, checked as its operation declares it (`headers`): undefined
 * when absent, 400 when malformed.
 */
export function idempotencyKeyOf(
  header: string | string[] | undefined,
  op: AnyOperation,
): string | undefined {
  const declared = op.headers?.['Idempotency-Key'];
  if (!declared) throw new Error(`${op.id} declares no Idempotency-Key`);
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined) return undefined;
  if (!declared.schema.safeParse(key).success)
    throw new HttpError('invalid_idempotency_key', 'Idempotency-Key: 8-128 letters, digits or ._:-');
  return key;
}

/** A digest of what a request asks for: the same request always has the same one, any change another. */
export function requestHash(parts: {
  operation: string;
  ticket?: string;
  subject?: string;
  body: string;
  files: readonly CheckedFile[];
}): string {
  const files = parts.files.map((f) => [f.filename, f.contentType, f.sha256]);
  return createHash('sha256')
    .update(JSON.stringify([parts.operation, parts.ticket ?? null, parts.subject ?? null, parts.body, files]))
    .digest('hex');
}

/**
 * The earlier answer to the same key: the stored receipt when the request is the same, 409
 * `idempotency_key_conflict` when the key was used for another request; undefined when the key is new.
 */
export async function replay(
  db: Kysely<Database>,
  accountId: string,
  key: string,
  hash: string,
): Promise<unknown | undefined> {
  const row = await db
    .selectFrom('support_idempotency')
    .select(['request_hash', 'receipt'])
    .where('account_id', '=', accountId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== hash)
    throw new HttpError('idempotency_key_conflict', 'this Idempotency-Key was used with another request');
  return JSON.parse(row.receipt) as unknown;
}

/** Records the receipt of a key (in the transaction that stored the request's effects). */
export async function remember(
  trx: Transaction<Database>,
  row: { accountId: string; key: string; hash: string; receipt: unknown; now: number },
): Promise<void> {
  await trx
    .insertInto('support_idempotency')
    .values({
      account_id: row.accountId,
      key: row.key,
      request_hash: row.hash,
      receipt: JSON.stringify(row.receipt),
      created_at: row.now,
    })
    .execute();
}

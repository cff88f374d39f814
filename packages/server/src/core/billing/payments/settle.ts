import { num } from '../../db/database.js';
import type { HttpError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { asChallenge, bindingMatches, chargeRequest, isOwnChallenge, PAYMENT_METHOD } from './challenge.js';
import { paymentKeys } from './keys.js';
import { paymentRequired } from './required.js';

/** What a settled payment answers with in `Payment-Receipt` (base64url JSON). */
export interface Receipt {
  readonly status: 'success';
  readonly method: string;
  readonly reference: string;
  readonly timestamp: string;
  readonly challengeId: string;
}

function refuse(
  services: Services,
  priceMicroUsd: number,
  reason: string,
  message: string,
): Promise<HttpError> {
  return paymentRequired(services, priceMicroUsd, 'payment_failed', message, { reason });
}

function decode(authorization: string): { challenge: unknown; payload: unknown } | undefined {
  const token = /^\s*Payment\s+([A-Za-z0-9_-]+=*)\s*$/i.exec(authorization)?.[1];
  if (!token) return undefined;
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Record<string, unknown>;
    return v && typeof v === 'object' ? { challenge: v.challenge, payload: v.payload } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Accepts an `Authorization: Payment <base64url JSON>` credential for a fixed-price read (spec 5.4) and
 * settles its payment, once: the challenge must be this server's, for this read's price, and paid on the
 * network (the payload's signature and the payment row agree); the conditional update that marks the
 * payment settled is the claim, so of two requests carrying the same credential only one is served. Any
 * refusal is 402 `payment_failed` with a fresh challenge and a `reason`. Returns the `Payment-Receipt` value.
 * A paid challenge is honoured after its `expires`: that time bounds paying, and the payment was made.
 */
export async function settlePayment(
  services: Services,
  operationId: string,
  priceMicroUsd: number,
  authorization: string,
): Promise<string> {
  const credential = decode(authorization);
  if (!credential)
    throw await refuse(
      services,
      priceMicroUsd,
      'malformed_credential',
      'the Payment credential is not base64url JSON',
    );
  const keys = await paymentKeys(services);
  const challenge = asChallenge(credential.challenge);
  if (!challenge || challenge.method !== PAYMENT_METHOD || !isOwnChallenge(keys.challenge, challenge))
    throw await refuse(
      services,
      priceMicroUsd,
      'unknown_challenge',
      'the credential answers no challenge of this server',
    );
  if (chargeRequest(challenge)?.amount !== String(priceMicroUsd))
    throw await refuse(
      services,
      priceMicroUsd,
      'wrong_amount',
      'the paid challenge is for another price than this read',
    );
  const payload = credential.payload as Record<string, unknown> | undefined;
  const reference = typeof payload?.reference === 'string' ? payload.reference : '';
  const signature = typeof payload?.signature === 'string' ? payload.signature : '';
  const db = services.database.db;
  const row =
    reference && bindingMatches(keys.network, signature, 'paid', reference, challenge.id)
      ? await db
          .selectFrom('mpp_payments')
          .select(['challenge_id', 'settled_at'])
          .where('reference', '=', reference)
          .executeTakeFirst()
      : undefined;
  if (row?.challenge_id !== challenge.id)
    throw await refuse(
      services,
      priceMicroUsd,
      'not_paid',
      'no payment of the network matches this credential',
    );
  const now = services.clock.now();
  const claimed = await db
    .updateTable('mpp_payments')
    .set({ settled_at: now, settled_operation: operationId })
    .where('reference', '=', reference)
    .where('settled_at', 'is', null)
    .executeTakeFirst();
  if (num(claimed.numUpdatedRows) !== 1)
    throw await refuse(
      services,
      priceMicroUsd,
      'already_settled',
      'this payment was already spent: pay a new challenge',
    );
  const receipt: Receipt = {
    status: 'success',
    method: PAYMENT_METHOD,
    reference,
    timestamp: new Date(now).toISOString(),
    challengeId: challenge.id,
  };
  return Buffer.from(JSON.stringify(receipt)).toString('base64url');
}

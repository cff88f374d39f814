import { HttpError } from '../../http/errors.js';
import { randomId } from '../../ids/index.js';
import type { Services } from '../../services.js';
import {
  bind,
  type Challenge,
  chargeRequest,
  isOwnChallenge,
  PAYMENT_METHOD,
  parseChallenge,
} from './challenge.js';
import { paymentKeys } from './keys.js';

/** The method payload of a network payment: its reference, signed by the network. */
export interface NetworkPayload {
  readonly reference: string;
  readonly signature: string;
}

/** A payment of the local network: what the payer sends back as `Authorization: Payment …`. */
export interface NetworkPayment {
  /** `Payment <base64url JSON>`: the challenge's parameters and the method payload. */
  readonly authorization: string;
  readonly reference: string;
  readonly payload: NetworkPayload;
}

/** The signature of a network payment's reference for one challenge. */
export function networkSignature(key: Buffer, reference: string, challengeId: string): string {
  return bind(key, 'paid', reference, challengeId);
}

/** The `Authorization` value of a paid challenge (the credential of spec 5.4). */
export function credentialFor(challenge: Challenge, payload: NetworkPayload): string {
  return `Payment ${Buffer.from(JSON.stringify({ challenge, payload })).toString('base64url')}`;
}

/**
 * Pays a challenge of this server on the simulated platform's local payment network (`POST /sim/payments`).
 * No money moves; the payment is a row that the paid request settles once. Paying the same challenge again
 * gives back the same payment, so a payer that lost the answer can ask again without paying twice.
 */
export async function payChallenge(services: Services, header: string): Promise<NetworkPayment> {
  const challenge = parseChallenge(header);
  if (!challenge) throw new HttpError('invalid_input', 'challenge: not a `Payment` challenge');
  const keys = await paymentKeys(services);
  const request = chargeRequest(challenge);
  if (challenge.method !== PAYMENT_METHOD || !request || !isOwnChallenge(keys.challenge, challenge))
    throw new HttpError('payment_failed', 'this challenge was not issued by this server', {
      reason: 'unknown_challenge',
    });
  const now = services.clock.now();
  if (Date.parse(challenge.expires) <= now)
    throw new HttpError(
      'payment_failed',
      `this challenge expired at ${challenge.expires}; ask for a new one`,
      {
        reason: 'challenge_expired',
      },
    );
  const db = services.database.db;
  await db
    .insertInto('mpp_payments')
    .values({
      reference: randomId('pay'),
      challenge_id: challenge.id,
      amount: request.amount,
      currency: request.currency,
      paid_at: now,
      settled_at: null,
      settled_operation: null,
    })
    .onConflict((oc) => oc.column('challenge_id').doNothing())
    .execute();
  const { reference } = await db
    .selectFrom('mpp_payments')
    .select('reference')
    .where('challenge_id', '=', challenge.id)
    .executeTakeFirstOrThrow();
  const payload = { reference, signature: networkSignature(keys.network, reference, challenge.id) };
  return { authorization: credentialFor(challenge, payload), reference, payload };
}

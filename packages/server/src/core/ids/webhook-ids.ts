import { randomBytes, randomUUID } from 'node:crypto';

/**
 * A new id: a string holding a big integer (spec 2.1), the creation time in ms in the high bits and 32
 * random bits below, so ids sort roughly by creation and two created in the same millisecond still differ.
 */
export function newId(now: number): string {
  return ((BigInt(Math.max(0, Math.floor(now))) << 32n) | BigInt(randomBytes(4).readUInt32BE(0))).toString();
}

/**
 * A new delivery id, the payload's `deliveryId`: the receiver's idempotency key, so it must never repeat
 * even across instances creating thousands per second; a random UUID (122 random bits, drawn from Node's
 * batched entropy cache, so cheap at any rate) makes that certain in practice.
 */
export function newDeliveryId(): string {
  return `dlv_${randomUUID().replaceAll('-', '')}`;
}

/** A new signing secret: 32 random bytes as hex (spec 2.6: a hex secret, shown once). */
export function newSecret(): string {
  return randomBytes(32).toString('hex');
}

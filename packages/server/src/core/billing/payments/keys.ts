import type { Services } from '../../services.js';

/** The two HMAC keys of machine payments: one binds challenges to this server, one signs network payments. */
export interface PaymentKeys {
  /** Binds a challenge's parameters to its `id`, so the server recognises its own challenges statelessly. */
  readonly challenge: Buffer;
  /** Signs the method payload of a payment made on the local payment network. */
  readonly network: Buffer;
}

const cache = new WeakMap<object, PaymentKeys>();

/**
 * The payment keys of a server, derived from its secret key (`XSVC_SECRET_KEY` or the key file), so that
 * every instance with that key issues and accepts the same challenges, and a copy of the database holds
 * none of them.
 */
export function paymentKeys(services: Pick<Services, 'secrets'>): Promise<PaymentKeys> {
  let keys = cache.get(services.secrets);
  if (!keys) {
    keys = {
      challenge: services.secrets.derive('mpp-challenge'),
      network: services.secrets.derive('mpp-network'),
    };
    cache.set(services.secrets, keys);
  }
  return Promise.resolve(keys);
}

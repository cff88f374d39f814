import { hkdfSync } from 'node:crypto';
import { storedSecret } from '../../db/server-secret.js';
import type { Services } from '../../services.js';

const SECRET_NAME = 'machine-payments';

/** The two HMAC keys of machine payments: one binds challenges to this server, one signs network payments. */
export interface PaymentKeys {
  /** Binds a challenge's parameters to its `id`, so the server recognises its own challenges statelessly. */
  readonly challenge: Buffer;
  /** Signs the method payload of a payment made on the local payment network. */
  readonly network: Buffer;
}

const cache = new WeakMap<object, Promise<PaymentKeys>>();

function derive(secret: string): PaymentKeys {
  const key = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'xsvc', info, 32));
  return { challenge: key('mpp-challenge'), network: key('mpp-network') };
}

/**
 * The payment keys of a server: derived from `XSVC_SECRET_KEY` when set, else from a secret kept in the
 * database, so that every instance on one database issues and accepts the same challenges.
 */
export function paymentKeys(services: Pick<Services, 'config' | 'database' | 'clock'>): Promise<PaymentKeys> {
  let keys = cache.get(services.database);
  if (!keys) {
    keys = services.config.secretKey
      ? Promise.resolve(derive(services.config.secretKey))
      : storedSecret(services.database.db, SECRET_NAME, services.clock.now()).then(derive);
    cache.set(services.database, keys);
    keys.catch(() => cache.delete(services.database));
  }
  return keys;
}

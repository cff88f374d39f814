import { randomBytes } from 'node:crypto';
import { UsageError } from '../shared/usage-error.js';

/** The environment variable read when `--secret` is not given. */
export const SECRET_ENV = 'XSVC_WEBHOOK_SECRET';

/** A fresh local signing secret: 32 random bytes as hex, the shape of the service's webhook secrets. */
export function generateSecret(): string {
  return randomBytes(32).toString('hex');
}

/**
 * The signing secret: `--secret`, else `XSVC_WEBHOOK_SECRET`, else a fresh one (`generated` tells the
 * caller to print it, as `stripe listen` prints its `whsec_`). A given secret must be hex, 16 bytes or more.
 */
export function resolveSecret(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { readonly secret: string; readonly generated: boolean } {
  const given = flag ?? (env[SECRET_ENV] || undefined);
  if (given === undefined) return { secret: generateSecret(), generated: true };
  if (!/^(?:[0-9a-fA-F]{2}){16,}$/.test(given)) {
    const source = flag === undefined ? SECRET_ENV : '--secret';
    throw new UsageError(`${source} must be a hex secret of at least 32 hex characters`, source);
  }
  return { secret: given, generated: false };
}

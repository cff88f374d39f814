import { HttpError } from '../../http/errors.js';
import type { Services } from '../../services.js';
import { formatChallenge, issueChallenge } from './challenge.js';
import { paymentKeys } from './keys.js';

/** The guest-wallet action offered to anonymous callers of paid reads (spec 5.5). */
export function guestWalletAction(services: Pick<Services, 'publicUrl'>): Record<string, string> {
  return { type: 'guest_wallet', createUrl: `${services.publicUrl()}/api/v1/guest-wallets` };
}

/**
 * A 402 with a fresh `WWW-Authenticate: Payment` challenge for `priceMicroUsd` (spec 5.4) and the optional
 * guest-wallet action. Nothing is paid or started: the caller decides.
 */
export async function paymentRequired(
  services: Services,
  priceMicroUsd: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
): Promise<HttpError> {
  const keys = await paymentKeys(services);
  const challenge = issueChallenge(keys.challenge, {
    amountMicroUsd: priceMicroUsd,
    recipient: services.publicUrl(),
    now: services.clock.now(),
  });
  return new HttpError(code, message, { ...extra, action: guestWalletAction(services) }, 402, {
    'www-authenticate': formatChallenge(challenge),
  });
}

import { createMagicLink } from '../core/auth/magic-links.js';
import { magicLinkUrl } from '../core/auth/send-link.js';
import type { Services } from '../core/services.js';

/** A single-use link that signs the owner in to the dashboard. */
export interface OwnerSignInLink {
  readonly url: string;
  /** Epoch ms after which it no longer works. */
  readonly expiresAt: number;
}

/**
 * A sign-in link for the owner account, opening the dashboard: the same single-use, 15-minute magic link
 * that `POST /auth/magic-link` sends (only its hash is stored), made at start so that the person who started
 * the server signs in with one click. `undefined` when there is no owner yet.
 */
export async function ownerSignInLink(
  services: Pick<Services, 'database' | 'clock' | 'publicUrl'>,
  next = '/dashboard',
): Promise<OwnerSignInLink | undefined> {
  const db = services.database.db;
  const owner = await db.selectFrom('accounts').select('email').where('is_owner', '=', 1).executeTakeFirst();
  if (!owner) return undefined;
  const { token, expiresAt } = await createMagicLink(db, owner.email, services.clock.now());
  return { url: magicLinkUrl(services.publicUrl(), token, next), expiresAt };
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { SignInLimiter } from '../limits/sign-in-limits.js';
import type { Services } from '../services.js';
import { createMagicLink } from './magic-links.js';
import { deliverMagicLink } from './outbox.js';

/** An e-mail address as the sign-in forms take it (trimmed, lower-cased). */
export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^[^\s@]+@[^\s@]+$/, 'must be an e-mail address');

/** Where to go after signing in: a path on this server only (never another origin). */
export const NextPath = z
  .string()
  .max(2_000)
  .regex(/^\/(?![/\\])[^\s]*$/, 'must be a path on this server');

/** What a sign-in link request names: who, from where, and where the link brings the browser back. */
export interface LinkRequest {
  readonly email: string;
  readonly ip: string;
  readonly next?: string | undefined;
}

/**
 * Sends a single-use sign-in link (spec 5.1) after counting the request against the sign-in limits (429
 * past them): the link goes to the server log and the outbox listeners. Shared by `POST /auth/magic-link`
 * and the dashboard's sign-in form. Returns when the link expires (epoch ms).
 */
export async function sendMagicLink(
  app: FastifyInstance,
  services: Services,
  limiter: SignInLimiter,
  input: LinkRequest,
): Promise<number> {
  const now = services.clock.now();
  await limiter.hit(input.email, input.ip, now);
  const { token, expiresAt } = await createMagicLink(services.database.db, input.email, now);
  const url = magicLinkUrl(services.publicUrl(), token, input.next);
  deliverMagicLink(app, { email: input.email, url, expiresAt });
  return expiresAt;
}

/** The URL a sign-in link opens: the callback on `base` with its token, and where to go next. */
export function magicLinkUrl(base: string, token: string, next?: string): string {
  const url = new URL('/auth/magic-link/callback', `${base}/`);
  url.searchParams.set('token', token);
  if (next) url.searchParams.set('next', next);
  return url.toString();
}

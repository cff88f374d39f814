import type { FastifyInstance } from 'fastify';

/** A sign-in link ready to be sent. */
export interface MagicLinkMessage {
  readonly email: string;
  readonly url: string;
  /** Epoch ms after which the link no longer works. */
  readonly expiresAt: number;
}

type Listener = (message: MagicLinkMessage) => void;

const listeners = new WeakMap<FastifyInstance, Set<Listener>>();

/**
 * Observes the sign-in links a server sends. A self-hosted server has no SMTP: links go to its log, and to
 * these listeners (tests, a local development tool). Returns a function that stops listening.
 */
export function watchMagicLinks(app: FastifyInstance, listener: Listener): () => void {
  let set = listeners.get(app);
  if (!set) {
    set = new Set();
    listeners.set(app, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

/** Sends a sign-in link: written to the server log (SMTP is not configured) and given to the listeners. */
export function deliverMagicLink(app: FastifyInstance, message: MagicLinkMessage): void {
  app.log.info(
    { email: message.email, url: message.url, expiresAt: new Date(message.expiresAt).toISOString() },
    'sign-in link (SMTP is not configured: open this URL to sign in)',
  );
  for (const listener of listeners.get(app) ?? []) listener(message);
}

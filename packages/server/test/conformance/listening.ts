/**
 * A server listening on loopback for the conformance suites, which drive it with clients nobody here wrote
 * (they speak HTTP, not `inject`), and the browser steps of an OAuth authorization (sign in with a magic
 * link, approve on the consent page) that those clients leave to a user.
 */

import { watchMagicLinks } from '../../src/core/auth/outbox.js';
import type { TierLimits } from '../../src/core/limits/rate-limiter.js';
import { bootstrapOwner, createServer, parseConfig, type XsvcServer } from '../../src/index.js';

/** A listening test server: its origin, the owner's API key and account, the sign-in links it sent. */
export interface Listening {
  readonly server: XsvcServer;
  readonly base: string;
  readonly key: string;
  readonly ownerId: string;
  readonly links: string[];
  close(): Promise<void>;
}

/** Starts a server on an in-memory database and the tiny simulated network, listening on 127.0.0.1. */
export async function listen(key: string, rateLimits?: TierLimits): Promise<Listening> {
  const config = parseConfig({ databaseUrl: ':memory:', seedSize: 'tiny', logLevel: 'silent', keyFile: '' });
  const server = await createServer(config, rateLimits ? { rateLimits } : {});
  const boot = await bootstrapOwner(
    server.services.database,
    { ...config, bootstrapApiKey: key },
    Date.now(),
  );
  const links: string[] = [];
  watchMagicLinks(server.app, (m) => links.push(m.url));
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return { server, base, key, ownerId: boot.accountId, links, close: () => server.close() };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * What the user does in the browser for an authorization request: signs in as `email` with the magic link
 * (which brings the browser back to the request), then approves. Answers where the server redirected to.
 */
export async function approveInBrowser(
  at: Listening,
  authorizeUrl: string | URL,
  email: string,
): Promise<URL> {
  const url = new URL(authorizeUrl);
  const sent = await fetch(`${at.base}/auth/magic-link`, {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({ email, next: `${url.pathname}${url.search}` }),
  });
  if (!sent.ok) throw new Error(`magic link refused: HTTP ${sent.status}`);
  const signedIn = await fetch(at.links.at(-1)!, { redirect: 'manual' });
  const cookie = signedIn.headers.get('set-cookie')?.split(';')[0];
  if (signedIn.status !== 303 || !cookie) throw new Error(`sign-in failed: HTTP ${signedIn.status}`);
  const consent = await fetch(`${at.base}${signedIn.headers.get('location')}`, { headers: { cookie } });
  const requestId = /name="request_id" value="([^"]+)"/.exec(await consent.text())?.[1];
  if (!requestId) throw new Error(`no consent form: HTTP ${consent.status}`);
  const approved = await fetch(`${at.base}/api/oauth/authorize/decision`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...FORM, cookie },
    body: new URLSearchParams({ request_id: requestId, decision: 'approve' }),
  });
  const location = approved.headers.get('location');
  if (approved.status !== 302 || !location) throw new Error(`approval failed: HTTP ${approved.status}`);
  return new URL(location);
}

/** The small HTML pages of the authorization flow: sign in, consent, and errors that cannot be redirected. */

import { escapeHtml } from './html.js';
import { dashboardHeaders, renderPage } from './layout.js';

/**
 * The security headers of every page of the flow: the dashboard's (its stylesheet only, never framed, never
 * cached), with forms only to this origin and (for the consent form, which redirects there) the client's
 * redirect origin.
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  return dashboardHeaders(formTargets);
}

/** A page of the flow in the dashboard's look (its shared layout, no navigation, no script). */
function page(title: string, body: string): string {
  return renderPage({ title, main: body });
}

/** Asks the user to sign in with an e-mail magic link, coming back to `next` (the authorize URL) afterwards. */
export function signInPage(clientName: string, next: string): string {
  return page(
    'Sign in',
    `<h1>Sign in to connect ${escapeHtml(clientName)}</h1>
<p><strong>${escapeHtml(clientName)}</strong> asks to use this service on your behalf. Sign in first: a one-time sign-in link is sent to your e-mail address (on a self-hosted server without SMTP, it is written to the server log).</p>
<form method="post" action="/auth/magic-link"><input type="hidden" name="next" value="${escapeHtml(next)}">
<label for="email">E-mail address</label><input type="email" id="email" name="email" required autocomplete="email">
<button type="submit">Send the sign-in link</button></form>`,
  );
}

/** The answer to the sign-in form: where the link went. */
export function linkSentPage(): string {
  return page(
    'Check for your sign-in link',
    `<h1>Check for your sign-in link</h1>
<p>A sign-in link is on its way. This self-hosted server has no SMTP configured, so the link is written to the server log: open it in this browser to continue. It works once, for 15 minutes.</p>`,
  );
}

/** Shows who asks for what, with Approve and Deny. */
export function consentPage(input: {
  clientName: string;
  clientId: string;
  redirectUri: string;
  email: string;
  requestId: string;
  scope: string;
}): string {
  const host = new URL(input.redirectUri).host;
  return page(
    'Approve access',
    `<h1>Allow ${escapeHtml(input.clientName)} to use your account?</h1>
<p>Signed in as <strong>${escapeHtml(input.email)}</strong>.</p>
<p><strong>${escapeHtml(input.clientName)}</strong> (${escapeHtml(host)}) asks for <code>${escapeHtml(input.scope)}</code>: it can call this service's tools as you, including those that spend your credits. You can revoke its access at any time.</p>
<form method="post" action="/api/oauth/authorize/decision"><input type="hidden" name="request_id" value="${escapeHtml(input.requestId)}">
<button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny" class="secondary">Deny</button></form>
<p class="muted">Client id: <code>${escapeHtml(input.clientId)}</code><br>Returns to: <code>${escapeHtml(input.redirectUri)}</code></p>`,
  );
}

/** An error the flow cannot send back to the client (unknown client, unregistered redirect URI, expired form). */
export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/** The small HTML pages of the authorization flow: sign in, consent, and errors that cannot be redirected. */

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#111}' +
  'h1{font-size:1.4rem}code{background:#f2f2f2;padding:0 .25rem}form{margin:1.5rem 0}' +
  'input[type=email]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}' +
  'button{font:inherit;padding:.5rem 1.25rem;margin:.5rem .5rem 0 0;cursor:pointer}' +
  '.muted{color:#555;font-size:.9rem}';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

/**
 * The security headers of every page: no script at all, forms only to this origin and (for the consent
 * form, which redirects there) the client's redirect origin, never framed, never cached.
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  const forms = ["'self'", ...formTargets].join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action ${forms}; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  };
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** Asks the user to sign in with an e-mail magic link, coming back to `next` (the authorize URL) afterwards. */
export function signInPage(clientName: string, next: string): string {
  return page(
    'Sign in',
    `<h1>Sign in to connect ${escapeHtml(clientName)}</h1>
<p><strong>${escapeHtml(clientName)}</strong> asks to use this service on your behalf. Sign in first: a one-time sign-in link is sent to your e-mail address (on a self-hosted server without SMTP, it is written to the server log).</p>
<form method="post" action="/auth/magic-link"><input type="hidden" name="next" value="${escapeHtml(next)}">
<label>E-mail address<br><input type="email" name="email" required autocomplete="email"></label><br>
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
<button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></form>
<p class="muted">Client id: <code>${escapeHtml(input.clientId)}</code><br>Returns to: <code>${escapeHtml(input.redirectUri)}</code></p>`,
  );
}

/** An error the flow cannot send back to the client (unknown client, unregistered redirect URI, expired form). */
export function errorPage(title: string, message: string): string {
  return page(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { requireOwner } from '../../core/auth/request-principal.js';
import { type CheckoutRow, checkoutExpiresAt, currentCheckout } from '../../core/billing/checkouts.js';
import { big, num } from '../../core/db/database.js';
import { registerFormBodies } from '../../core/http/form-body.js';
import { escapeHtml, page } from '../../core/http/html.js';
import { parseInput } from '../../core/http/parse-input.js';
import type { Services } from '../../core/services.js';
import { approveCheckout } from './approve.js';

const Params = z.object({ id: z.string().regex(/^cs_[0-9a-f]{32}$/, 'must be a checkout id') });

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(body);
}

function notFound(reply: FastifyReply): FastifyReply {
  return html(
    reply,
    404,
    page('Checkout not found', '<h1>Checkout not found</h1><p>No checkout has this id.</p>'),
  );
}

function details(c: CheckoutRow): string {
  const what = c.kind === 'subscription' ? 'Subscription' : 'Credit top-up';
  return `<dl>
<dt>Checkout</dt><dd><code>${escapeHtml(c.id)}</code></dd>
<dt>Purchase</dt><dd>${what}</dd>
<dt>Amount</dt><dd>$${num(c.dollars)}</dd>
<dt>Credits</dt><dd>${big(c.credits).toLocaleString('en-US')}</dd>
<dt>Status</dt><dd>${escapeHtml(c.status)}</dd>
${c.status === 'open' ? `<dt>Expires</dt><dd>${new Date(checkoutExpiresAt(c)).toISOString()}</dd>\n` : ''}</dl>`;
}

/**
 * The local checkout pages. A self-hosted server has no card processor: the checkout URL that `subscribe`
 * and `topUpCredits` return opens a page where the server's owner approves the grant (owner session or owner
 * API key), and `getCreditTopupStatus` then answers `paid`. A checkout not approved within 24 hours expires:
 * its page answers 410 and approving it 410 `expired`.
 */
export function registerCheckoutRoutes(app: FastifyInstance, services: Services): void {
  const db = services.database.db;
  registerFormBodies(app, ['POST /checkout/:id/approve']);

  app.get('/checkout/:id', async (request, reply) => {
    const { id } = parseInput(Params, request.params, 'path');
    const c = await currentCheckout(db, id, services.clock.now());
    if (!c) return notFound(reply);
    if (c.status === 'expired') {
      const body = `<h1>Checkout expired</h1>\n${details(c)}\n<p>This checkout was not approved in time. Start a new purchase.</p>`;
      return html(reply, 410, page('Checkout expired', body));
    }
    const action =
      c.status === 'open'
        ? `<form method="post" action="/checkout/${escapeHtml(c.id)}/approve"><button type="submit">Approve</button></form>
<p class="note">Only the owner of this server can approve: sign in as the owner (a sign-in link for
<code>owner@localhost</code> from <code>POST /auth/magic-link</code>), or call
<code>POST /checkout/${escapeHtml(c.id)}/approve</code> with the owner's API key. No money moves.</p>`
        : `<p>This checkout is <strong>${escapeHtml(c.status)}</strong>.</p>`;
    return html(reply, 200, page('Checkout', `<h1>Checkout</h1>\n${details(c)}\n${action}`));
  });

  app.get('/checkout/:id/done', async (request, reply) => {
    const { id } = parseInput(Params, request.params, 'path');
    const c = await currentCheckout(db, id, services.clock.now());
    if (!c) return notFound(reply);
    const message =
      c.status === 'paid'
        ? 'Payment received: the credits are on the account.'
        : c.status === 'expired'
          ? 'This checkout expired before it was paid: nothing was charged.'
          : 'The payment is being processed.';
    return html(reply, 200, page('Checkout', `<h1>${escapeHtml(message)}</h1>\n${details(c)}`));
  });

  app.post('/checkout/:id/approve', async (request, reply) => {
    const { id } = parseInput(Params, request.params, 'path');
    await requireOwner(request, services, 'approving a checkout');
    const { checkout, granted } = await approveCheckout(services, id);
    // The page's form (a browser) goes on to the confirmation page; API callers get JSON.
    if (String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return reply.redirect(`/checkout/${checkout.id}/done`, 303);
    }
    return reply.send({
      success: true,
      id: checkout.id,
      status: 'paid',
      granted,
      credits: String(big(checkout.credits)),
      amount_dollars: num(checkout.dollars),
    });
  });
}

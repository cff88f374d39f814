import { z } from 'zod';
import { csrfField, escapeHtml, notice, type PageInput } from '../../../core/http/layout.js';
import { badge, table, when } from '../format.js';
import { apiFailure, type DashboardRoutes } from '../http.js';
import type { DashboardSession } from '../session.js';

const TicketForm = z.object({
  subject: z.string().trim().min(1).max(500),
  body: z.string().trim().min(1).max(10_000),
});

/** The support page: the tickets and a form to open one. */
async function supportPage(s: DashboardSession, top = ''): Promise<PageInput> {
  const { tickets } = await s.api.support.tickets.list();
  const rows = tickets.map((t) => [
    escapeHtml(t.publicId),
    escapeHtml(t.subject),
    badge(t.status),
    String(t.messageCount),
    when(t.updatedAt),
  ]);
  return {
    title: 'Support',
    main: `<h1>Support tickets</h1>${top}
${table('Your tickets', ['Ticket', 'Subject', 'Status', 'Messages', 'Last change'], rows, 'No tickets.')}
<h2>Open a ticket</h2>
<form method="post" action="/dashboard/support">${csrfField(s.csrf)}
<label for="subject">Subject</label><input type="text" id="subject" name="subject" required maxlength="500">
<label for="body">Message</label><textarea id="body" name="body" required maxlength="10000" rows="5"></textarea>
<button type="submit">Open the ticket</button></form>`,
  };
}

/** Mounts the support tickets page and its form. */
export function registerSupportSection(routes: DashboardRoutes): void {
  routes.page('/dashboard/support', (s) => supportPage(s));
  routes.action('/dashboard/support', async (s, request) => {
    const form = TicketForm.safeParse(request.body);
    if (!form.success)
      return {
        page: await supportPage(s, notice('error', 'A subject and a message are both needed.')),
        status: 400,
      };
    try {
      const receipt = await s.api.support.tickets.create(form.data);
      return { page: await supportPage(s, notice('ok', `Ticket ${receipt.publicId} is open.`)) };
    } catch (err) {
      return { page: await supportPage(s, notice('error', apiFailure(err))), status: 400 };
    }
  });
}

import { limits } from '@xsvc/sdk/contract';
import { num } from '../../core/db/database.js';
import type { RouteRegistrar } from '../../core/feature.js';
import { HttpError } from '../../core/http/errors.js';
import { Answer, defineHandlers, type HandlerContext } from '../../core/http/handler.js';
import { filesOf, registerMultipartBodies } from '../../core/http/multipart.js';
import { IdempotencyRace, lookup, remember } from '../../core/idempotency/idempotency.js';
import { attachmentId, ticketPublicId, timeId } from '../../core/ids/index.js';
import { checkFiles } from './attachments.js';
import { contentDisposition, rangeOf } from './download.js';
import { supportConflict, supportKey, supportRequestHash, supportScope } from './idempotency.js';
import { toAttachmentReceipt, toMessage, toTicketSummary } from './mappers.js';
import { countSupportMessage } from './rate-limits.js';
import {
  conversation,
  findAttachment,
  findTicketRow,
  insertMessage,
  insertTicket,
  listTicketRows,
  setTicketStatus,
  type TicketRow,
  touchTicket,
} from './repository.js';
import { canMove, statusAfterReply } from './status.js';

/** A ticket's receipt (the answer of a create or a reply). */
interface Receipt {
  publicId: string;
  attachments: Record<string, unknown>[];
}

/** One ticket of the caller, or 404 `not_found` (another account's tickets are not found either). */
async function ownTicket(ctx: HandlerContext, publicId: string): Promise<TicketRow> {
  const { accountId } = ctx.requirePrincipal();
  const row = await findTicketRow(ctx.services.database.db, accountId, publicId);
  if (!row) throw new HttpError('not_found', `no support ticket ${publicId}`);
  return row;
}

/**
 * Posts a customer message, opening a ticket when `ticket` is undefined: the files are checked first, a
 * repeated `Idempotency-Key` answers its first receipt (200) or 409 for another request, the throttles
 * apply to new messages only, and the ticket, message, files and key are stored in one transaction.
 */
async function postMessage(
  ctx: HandlerContext,
  input: { ticket?: TicketRow; subject?: string; body: string },
): Promise<Answer> {
  const { accountId } = ctx.requirePrincipal();
  const db = ctx.services.database.db;
  const key = supportKey(ctx.request.headers, ctx.op);
  const files = await checkFiles(filesOf(ctx.request));
  const hash = await supportRequestHash({
    operation: ctx.op.id,
    ...(input.ticket && { ticket: input.ticket.public_id }),
    ...(input.subject !== undefined && { subject: input.subject }),
    body: input.body,
    files,
  });
  const keyed = key === undefined ? undefined : { scope: supportScope(accountId), key, hash };
  if (keyed) {
    const prior = await lookup(db, keyed, supportConflict);
    if (prior !== undefined) return new Answer(200, JSON.parse(prior));
  }
  const now = ctx.services.clock.now();
  const messageId = timeId(now);
  const attachmentIds = files.map(() => attachmentId(now));
  try {
    const receipt = await db.transaction().execute(async (trx): Promise<Receipt> => {
      await countSupportMessage(trx, accountId, files.length, now);
      let ticket = input.ticket;
      if (!ticket) {
        ticket = {
          id: timeId(now),
          public_id: ticketPublicId(),
          account_id: accountId,
          subject: input.subject ?? '',
          status: 'open',
          message_count: 0,
          created_at: now,
          updated_at: now,
        };
        await insertTicket(trx, ticket);
      }
      const metas = await insertMessage(trx, {
        id: messageId,
        ticketId: ticket.id,
        accountId,
        body: input.body,
        files,
        attachmentIds,
        now,
      });
      await touchTicket(trx, ticket.id, statusAfterReply(ticket.status), now);
      const out = { publicId: ticket.public_id, attachments: metas.map(toAttachmentReceipt) };
      if (keyed) await remember(trx, { ...keyed, answer: JSON.stringify(out), now });
      return out;
    });
    return new Answer(201, receipt);
  } catch (err) {
    // The same key sent twice at once: the loser answers what the winner stored.
    if (!keyed || (err instanceof HttpError && err.status === 429)) throw err;
    const prior = await lookup(db, keyed, supportConflict);
    if (prior !== undefined) return new Answer(200, JSON.parse(prior));
    if (err instanceof IdempotencyRace) throw new Error('idempotency race without a stored answer');
    throw err;
  }
}

/**
 * Support tickets (spec 2.14, 3.7, 4.14): open a ticket, reply, list (up to 200, most recently updated
 * first), read the conversation, change the status (open, resolved, closed; in_progress is support's), and
 * download attached files. JSON or `multipart/form-data` bodies (files attached as any form field); every
 * ticket and file is visible to its own account only. Free.
 */
export const supportHandlers = defineHandlers({
  createTicket: async (ctx) => postMessage(ctx, { subject: ctx.body.subject, body: ctx.body.body }),

  addTicketMessage: async (ctx) => {
    const ticket = await ownTicket(ctx, ctx.params.id);
    return postMessage(ctx, { ticket, body: ctx.body.body });
  },

  listTickets: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const rows = await listTicketRows(ctx.services.database.db, accountId, limits.supportTicketsMax);
    return { tickets: rows.map(toTicketSummary) };
  },

  getTicket: async (ctx) => {
    const ticket = await ownTicket(ctx, ctx.params.id);
    const { messages, attachments } = await conversation(ctx.services.database.db, ticket.id);
    const origin = ctx.services.publicUrl();
    const { messageCount: _count, ...summary } = toTicketSummary(ticket);
    return { ...summary, messages: messages.map((m) => toMessage(m, attachments, origin)) };
  },

  updateTicketStatus: async (ctx) => {
    const ticket = await ownTicket(ctx, ctx.params.id);
    const to = ctx.body.status;
    if (!canMove(ticket.status, to))
      throw new HttpError(
        'invalid_input',
        `status: a ${ticket.status} ticket cannot be set to ${to}${ticket.status === 'closed' ? '; reopen it first' : ''}`,
        { currentStatus: ticket.status },
      );
    if (ticket.status !== to)
      await setTicketStatus(ctx.services.database.db, ticket.id, to, ctx.services.clock.now());
    return { publicId: ticket.public_id, status: to };
  },

  downloadSupportAttachment: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const file = await findAttachment(ctx.services.database.db, accountId, ctx.params.id);
    if (!file) throw new HttpError('not_found', `no attachment ${ctx.params.id}`);
    const bytes = Buffer.from(file.data, 'base64');
    const size = num(file.size);
    const rangeHeader = ctx.request.headers.range;
    const range = rangeOf(Array.isArray(rangeHeader) ? rangeHeader[0] : rangeHeader, size);
    const headers: Record<string, string> = {
      'content-type': file.content_type,
      'content-disposition': contentDisposition(file.filename),
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      etag: `"${file.sha256}"`,
    };
    if (!range) return new Answer(200, bytes, headers);
    return new Answer(206, bytes.subarray(range.start, range.end + 1), {
      ...headers,
      'content-range': `bytes ${range.start}-${range.end}/${size}`,
    });
  },
});

/** Accepts the multipart bodies tickets and replies may be sent as (files attached to the message). */
export const registerSupport: RouteRegistrar = (app) => {
  registerMultipartBodies(app, ['POST /api/v1/support/tickets', 'POST /api/v1/support/tickets/:id/messages']);
};

import type { schemas } from '@xsvc/sdk/contract';
import type { z } from 'zod';
import { num } from '../../core/db/database.js';
import type { AttachmentMeta, MessageRow, TicketRow } from './repository.js';
import type { TicketStatus } from './status.js';

/** An attachment's metadata as answered (reference shapes 4): stored at once, so always `ready`. */
export function toAttachment(
  a: AttachmentMeta,
  origin: string,
): z.input<typeof schemas.SupportTicketAttachmentSchema> {
  const kind = a.content_type.startsWith('image/')
    ? 'image'
    : a.content_type.startsWith('video/')
      ? 'video'
      : 'file';
  return {
    publicId: a.id,
    filename: a.filename,
    contentType: a.content_type,
    kind,
    sizeBytes: num(a.size),
    status: 'ready',
    url: `${origin}/api/v1/support/attachments/${a.id}`,
  };
}

/** The receipt of a stored attachment (create and reply answers). */
export function toAttachmentReceipt(
  a: AttachmentMeta,
): z.input<typeof schemas.SupportAttachmentReceiptSchema> {
  return { publicId: a.id, status: 'ready' };
}

/** A ticket as listed (spec 2.14). */
export function toTicketSummary(row: TicketRow) {
  return {
    publicId: row.public_id,
    subject: row.subject,
    status: row.status as TicketStatus,
    messageCount: num(row.message_count),
    createdAt: new Date(num(row.created_at)).toISOString(),
    updatedAt: new Date(num(row.updated_at)).toISOString(),
  };
}

/** Who wrote a message, as answered: the account holder is `user` (stored as `customer`). */
const SENDERS: Readonly<Record<string, z.input<typeof schemas.SupportTicketMessageSchema>['sender']>> = {
  customer: 'user',
  support: 'support',
  system: 'system',
};

/** A message of the conversation (reference shapes 4): who wrote it, the text and its attachments. */
export function toMessage(
  m: MessageRow,
  attachments: AttachmentMeta[],
  origin: string,
): z.input<typeof schemas.SupportTicketMessageSchema> {
  return {
    body: m.body,
    sender: SENDERS[m.author] ?? 'system',
    createdAt: new Date(num(m.created_at)).toISOString(),
    attachments: attachments.filter((a) => a.message_id === m.id).map((a) => toAttachment(a, origin)),
  };
}

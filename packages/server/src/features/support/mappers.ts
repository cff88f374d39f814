import { num } from '../../db/database.js';
import type { AttachmentMeta, MessageRow, TicketRow } from './repository.js';
import type { TicketStatus } from './status.js';

/** An attachment's metadata as answered: its id, name, type, size, digest and download link. */
export function toAttachment(a: AttachmentMeta, origin: string): Record<string, unknown> {
  return {
    id: a.id,
    filename: a.filename,
    contentType: a.content_type,
    size: num(a.size),
    sha256: a.sha256,
    downloadUrl: `${origin}/api/v1/support/attachments/${a.id}`,
    createdAt: new Date(num(a.created_at)).toISOString(),
  };
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

/** A message of the conversation: who wrote it, the text and its attachments. */
export function toMessage(
  m: MessageRow,
  attachments: AttachmentMeta[],
  origin: string,
): Record<string, unknown> {
  return {
    id: m.id,
    author: m.author,
    body: m.body,
    createdAt: new Date(num(m.created_at)).toISOString(),
    attachments: attachments.filter((a) => a.message_id === m.id).map((a) => toAttachment(a, origin)),
  };
}

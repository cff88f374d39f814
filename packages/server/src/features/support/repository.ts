import type { Kysely, Selectable, Transaction } from 'kysely';
import { num } from '../../core/db/database.js';
import type { Database } from '../../core/db/schema.js';
import type { CheckedFile } from './attachments.js';
import type { SupportAttachmentsTable, SupportMessagesTable, SupportTicketsTable } from './tables.js';

/** A ticket row. */
export type TicketRow = Selectable<SupportTicketsTable>;
/** A message row. */
export type MessageRow = Selectable<SupportMessagesTable>;
/** An attachment's metadata (its content left out). */
export type AttachmentMeta = Omit<Selectable<SupportAttachmentsTable>, 'data'>;

type Db = Kysely<Database> | Transaction<Database>;

const META = [
  'id',
  'message_id',
  'account_id',
  'filename',
  'content_type',
  'size',
  'sha256',
  'created_at',
] as const;

/** An account's tickets, most recently updated first, at most `limit`. */
export function listTicketRows(db: Db, accountId: string, limit: number): Promise<TicketRow[]> {
  return db
    .selectFrom('support_tickets')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One ticket of an account by public id; undefined when missing or another account's. */
export function findTicketRow(db: Db, accountId: string, publicId: string): Promise<TicketRow | undefined> {
  return db
    .selectFrom('support_tickets')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('public_id', '=', publicId.toUpperCase())
    .executeTakeFirst();
}

/** The conversation of a ticket, oldest first, with the metadata of every attachment. */
export async function conversation(
  db: Db,
  ticketId: string,
): Promise<{ messages: MessageRow[]; attachments: AttachmentMeta[] }> {
  const messages = await db
    .selectFrom('support_messages')
    .selectAll()
    .where('ticket_id', '=', ticketId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const ids = messages.filter((m) => num(m.attachment_count) > 0).map((m) => m.id);
  const attachments = ids.length
    ? await db
        .selectFrom('support_attachments')
        .select(META)
        .where('message_id', 'in', ids)
        .orderBy('id')
        .execute()
    : [];
  return { messages, attachments };
}

/** What a new message holds. */
export interface NewMessage {
  id: string;
  ticketId: string;
  accountId: string;
  body: string;
  files: readonly CheckedFile[];
  /** Ids of the attachments, parallel to `files`. */
  attachmentIds: readonly string[];
  now: number;
}

/** Stores a customer message and its files (inside the caller's transaction); answers the files' metadata. */
export async function insertMessage(trx: Transaction<Database>, m: NewMessage): Promise<AttachmentMeta[]> {
  await trx
    .insertInto('support_messages')
    .values({
      id: m.id,
      ticket_id: m.ticketId,
      account_id: m.accountId,
      author: 'customer',
      body: m.body,
      attachment_count: m.files.length,
      created_at: m.now,
    })
    .execute();
  const rows = m.files.map((f, i) => ({
    id: m.attachmentIds[i] as string,
    message_id: m.id,
    account_id: m.accountId,
    filename: f.filename,
    content_type: f.contentType,
    size: f.bytes.length,
    sha256: f.sha256,
    created_at: m.now,
  }));
  for (const [i, row] of rows.entries()) {
    await trx
      .insertInto('support_attachments')
      .values({ ...row, data: (m.files[i] as CheckedFile).bytes.toString('base64') })
      .execute();
  }
  return rows;
}

/** Stores a new ticket row. */
export async function insertTicket(trx: Transaction<Database>, row: TicketRow): Promise<void> {
  await trx.insertInto('support_tickets').values(row).execute();
}

/** Counts a new message on a ticket and sets its status and update time. */
export async function touchTicket(
  trx: Transaction<Database>,
  id: string,
  status: string,
  now: number,
): Promise<void> {
  await trx
    .updateTable('support_tickets')
    .set((eb) => ({ message_count: eb('message_count', '+', 1), status, updated_at: now }))
    .where('id', '=', id)
    .execute();
}

/** Sets a ticket's status. */
export async function setTicketStatus(db: Db, id: string, status: string, now: number): Promise<void> {
  await db.updateTable('support_tickets').set({ status, updated_at: now }).where('id', '=', id).execute();
}

/** One attachment of an account, with its content; undefined when missing or another account's. */
export function findAttachment(
  db: Db,
  accountId: string,
  id: string,
): Promise<Selectable<SupportAttachmentsTable> | undefined> {
  return db
    .selectFrom('support_attachments')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
}

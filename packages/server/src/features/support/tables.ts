/**
 * The tables owned by `features/support` (tickets, messages, attachments, idempotency): their row types, and
 * their names. Only code under `features/support` writes them; any code may read them through `Database`. They
 * join `Database` by declaration merging (see `core/db/schema.ts`).
 */

import type { Int } from '../../core/db/columns.js';
import type { Database } from '../../core/db/schema.js';

declare module '../../core/db/schema.js' {
  interface Database {
    support_tickets: SupportTicketsTable;
    support_messages: SupportMessagesTable;
    support_attachments: SupportAttachmentsTable;
  }
}

/** The tables `features/support` owns. */
export const SUPPORT_TABLES = [
  'support_tickets',
  'support_messages',
  'support_attachments',
] as const satisfies readonly (keyof Database)[];

/** A support ticket (spec 2.14). */
export interface SupportTicketsTable {
  id: string;
  public_id: string;
  account_id: string;
  subject: string;
  status: string;
  message_count: Int;
  created_at: Int;
  updated_at: Int;
}

/** A message of a support ticket's conversation. */
export interface SupportMessagesTable {
  id: string;
  ticket_id: string;
  account_id: string;
  /** `customer` or `support`. */
  author: string;
  body: string;
  attachment_count: Int;
  created_at: Int;
}

/** A file attached to a support message, stored base64. */
export interface SupportAttachmentsTable {
  id: string;
  message_id: string;
  account_id: string;
  filename: string;
  content_type: string;
  size: Int;
  sha256: string;
  data: string;
  created_at: Int;
}

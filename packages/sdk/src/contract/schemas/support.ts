import { z } from 'zod';
import { openEnum } from '../zod-helpers.js';

/** States of a support ticket (spec 3.7); support staff set `in_progress`. */
export const TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed'] as const;

/** The states an account holder may set through the update operation (spec 3.7). */
export const SETTABLE_TICKET_STATUSES = ['open', 'resolved', 'closed'] as const;

/** The optional `Idempotency-Key` of ticket creation and replies: 8-128 of letters, digits and `._:-`. */
export const SUPPORT_IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{8,128}$/;

/** The optional `Range` header of attachment downloads (one byte range). */
export const ATTACHMENT_RANGE = /^bytes=(?:[0-9]+-[0-9]*|-[0-9]+)$/;

/** Text with at least one non-blank character. */
const nonBlank = (max: number) => z.string().min(1).max(max).regex(/\S/, 'must not be blank');

/** A ticket as listed (spec 2.14). */
export const SupportTicketSummarySchema = z.object({
  publicId: z.string().describe('Public identifier of the ticket.'),
  subject: z.string().describe('Subject of the ticket.'),
  status: openEnum(TICKET_STATUSES).describe('`open`, `in_progress`, `resolved` or `closed`.'),
  messageCount: z.number().int().describe('Messages in the conversation.'),
  createdAt: z.string().describe('When the ticket was opened (ISO 8601).'),
  updatedAt: z.string().describe('When the ticket last changed (ISO 8601).'),
});

/** Who wrote a ticket message: the account holder, support staff or the system. */
export const TICKET_MESSAGE_SENDERS = ['user', 'support', 'system'] as const;

/** Media types of ticket attachments as the service's SDK declares them. */
export const TICKET_ATTACHMENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/quicktime',
  'video/webm',
] as const;

/** Storage processing states of an attachment. */
export const TICKET_ATTACHMENT_STATUSES = ['pending', 'ready', 'failed'] as const;

/** An attachment of a ticket message: its metadata and download link. */
export const SupportTicketAttachmentSchema = z.object({
  publicId: z.string().describe('Public identifier of the attachment (`att_...`).'),
  filename: z.string().describe('File name as uploaded (paths and control characters removed).'),
  contentType: z
    .string()
    .describe(`Media type of the file (${TICKET_ATTACHMENT_TYPES.map((t) => `\`${t}\``).join(', ')}, ...).`),
  kind: openEnum(['image', 'video', 'file']).describe('`image`, `video`, or `file` for other types.'),
  sizeBytes: z.number().int().describe('Size of the file in bytes.'),
  status: openEnum(TICKET_ATTACHMENT_STATUSES).describe(
    'Storage processing: `pending`, `ready` or `failed`.',
  ),
  url: z.string().describe('Download URL (`GET /api/v1/support/attachments/{id}`).'),
});

/** A message of a ticket conversation. */
export const SupportTicketMessageSchema = z.object({
  body: z.string().describe('Text of the message.'),
  sender: openEnum(TICKET_MESSAGE_SENDERS).describe('Who wrote it: `user`, `support` or `system`.'),
  createdAt: z.string().describe('When it was posted (ISO 8601).'),
  attachments: z.array(SupportTicketAttachmentSchema).describe('Its attachments; may be empty.'),
});

/** A ticket with its whole conversation. */
export const SupportTicketSchema = z.object({
  publicId: z.string().describe('Public identifier of the ticket.'),
  subject: z.string().describe('Subject of the ticket.'),
  status: openEnum(TICKET_STATUSES).describe('`open`, `in_progress`, `resolved` or `closed`.'),
  createdAt: z.string().describe('When the ticket was opened (ISO 8601).'),
  updatedAt: z.string().describe('When the ticket last changed (ISO 8601).'),
  messages: z
    .array(SupportTicketMessageSchema)
    .describe('The messages, oldest first, with attachment metadata.'),
});

/** Receipt of an uploaded attachment. */
export const SupportAttachmentReceiptSchema = z.object({
  publicId: z.string().describe('Public identifier of the attachment (`att_...`).'),
  status: openEnum(TICKET_ATTACHMENT_STATUSES).describe(
    'Storage processing: `pending`, `ready` or `failed`.',
  ),
});

/** The answer of ticket creation and of a reply: the ticket and the attachments stored. */
export const SupportTicketReceiptSchema = z.object({
  publicId: z.string().describe('Public identifier of the ticket.'),
  attachments: z.array(SupportAttachmentReceiptSchema).describe('Attachments stored with the message.'),
});

/** The answer of a status change. */
export const SupportTicketStatusSchema = z.object({
  publicId: z.string().describe('Public identifier of the ticket.'),
  status: openEnum(SETTABLE_TICKET_STATUSES).describe('The status now.'),
});

/** The body of ticket creation (JSON form). */
export const CreateTicketRequestSchema = z.object({
  subject: nonBlank(500).describe('Subject, 1-500 characters, not blank.'),
  body: nonBlank(10_000).describe('First message, 1-10,000 characters, not blank.'),
});

/** The body of a reply (JSON form). */
export const TicketMessageRequestSchema = z.object({
  body: nonBlank(10_000).describe('The message, 1-10,000 characters, not blank.'),
});

/** The body of a status change. */
export const UpdateTicketStatusRequestSchema = z.object({
  status: z.enum(SETTABLE_TICKET_STATUSES).describe('New status: `open`, `resolved` or `closed`.'),
});

export type SupportTicketSummary = z.infer<typeof SupportTicketSummarySchema>;
export type SupportTicketAttachment = z.infer<typeof SupportTicketAttachmentSchema>;
export type SupportTicketMessage = z.infer<typeof SupportTicketMessageSchema>;
export type SupportTicket = z.infer<typeof SupportTicketSchema>;
export type SupportAttachmentReceipt = z.infer<typeof SupportAttachmentReceiptSchema>;
export type SupportTicketReceipt = z.infer<typeof SupportTicketReceiptSchema>;
export type SupportTicketStatus = z.infer<typeof SupportTicketStatusSchema>;
export type CreateTicketRequest = z.input<typeof CreateTicketRequestSchema>;
export type TicketMessageRequest = z.input<typeof TicketMessageRequestSchema>;
export type UpdateTicketStatusRequest = z.input<typeof UpdateTicketStatusRequestSchema>;

import { z } from 'zod';
import { SUPPORT_IDEMPOTENCY_KEY_HEADER } from '../headers.js';
import { limits } from '../limits.js';
import { defineOperation } from '../operation.js';
import {
  CreateTicketRequestSchema,
  SupportTicketReceiptSchema,
  SupportTicketSchema,
  SupportTicketStatusSchema,
  SupportTicketSummarySchema,
  TicketMessageRequestSchema,
  UpdateTicketStatusRequestSchema,
} from '../schemas/support.js';

const keyOrToken = ['apiKey', 'oauth', 'session'] as const;

const ticketId = z.object({ id: z.string().min(1).describe('Public identifier of the ticket.') });

/** Shared by the two operations that post a message. */
const messageNote =
  'Accepts an optional `Idempotency-Key` header (8-128 letters, digits or `._:-`): a repeat with the same key ' +
  'answers 200 with the first receipt instead of posting twice; the same key with another body answers 409. ' +
  'The SDK sends a key by itself. A `multipart/form-data` body with file attachments is also accepted.';

export const downloadSupportAttachment = defineOperation({
  id: 'downloadSupportAttachment',
  method: 'GET',
  path: '/api/v1/support/attachments/{id}',
  tag: 'Support',
  summary: 'Download a file attached to a support ticket',
  description:
    'Answers the file. An optional `Range: bytes=<from>-<to>` header asks for part of it (206); a range ' +
    'outside the file answers 416.',
  sdk: ['support', 'attachments', 'download'],
  auth: keyOrToken,
  params: z.object({ id: z.string().min(1).describe('Identifier of the attachment.') }),
  query: null,
  body: null,
  success: [200, 206],
  response: z.string(),
  responseKind: 'binary',
  errors: ['not_found', 'invalid_range'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'support attachments download att_1900000000000000500',
});

export const createTicket = defineOperation({
  id: 'createTicket',
  method: 'POST',
  path: '/api/v1/support/tickets',
  tag: 'Support',
  summary: 'Open a support ticket',
  description: `Answers 201 with the ticket's public id. ${messageNote}`,
  sdk: ['support', 'tickets', 'create'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: CreateTicketRequestSchema,
  success: [201, 200],
  response: SupportTicketReceiptSchema,
  errors: [
    'invalid_input',
    'invalid_idempotency_key',
    'idempotency_key_conflict',
    'support_request_rate_limit',
  ],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  headers: { 'Idempotency-Key': SUPPORT_IDEMPOTENCY_KEY_HEADER },
  example:
    'support tickets create --subject "Webhook deliveries failing" --body "Since 12:00 UTC every delivery fails."',
});

export const listTickets = defineOperation({
  id: 'listTickets',
  method: 'GET',
  path: '/api/v1/support/tickets',
  tag: 'Support',
  summary: 'List your support tickets, most recently updated first',
  description: `Returns up to ${limits.supportTicketsMax} ticket summaries sorted by \`updatedAt\` descending, without pagination. Free.`,
  sdk: ['support', 'tickets', 'list'],
  auth: keyOrToken,
  params: null,
  query: null,
  body: null,
  success: [200],
  response: z.object({
    tickets: z
      .array(SupportTicketSummarySchema)
      .max(limits.supportTicketsMax)
      .describe('The tickets, most recently updated first.'),
  }),
  errors: [],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'support tickets list',
});

export const getTicket = defineOperation({
  id: 'getTicket',
  method: 'GET',
  path: '/api/v1/support/tickets/{id}',
  tag: 'Support',
  summary: 'Get a support ticket with all its messages',
  sdk: ['support', 'tickets', 'get'],
  auth: keyOrToken,
  params: ticketId,
  query: null,
  body: null,
  success: [200],
  response: SupportTicketSchema,
  errors: ['not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'support tickets get TCK-7F3K2',
});

export const updateTicketStatus = defineOperation({
  id: 'updateTicketStatus',
  method: 'PATCH',
  path: '/api/v1/support/tickets/{id}',
  tag: 'Support',
  summary: 'Reopen, resolve or close a support ticket',
  description:
    'Account holders set `open`, `resolved` or `closed`; `in_progress` is set by support staff only.',
  sdk: ['support', 'tickets', 'update'],
  auth: keyOrToken,
  params: ticketId,
  query: null,
  body: UpdateTicketStatusRequestSchema,
  success: [200],
  response: SupportTicketStatusSchema,
  errors: ['invalid_input', 'not_found'],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: true,
  example: 'support tickets update TCK-7F3K2 --status resolved',
});

export const addTicketMessage = defineOperation({
  id: 'addTicketMessage',
  method: 'POST',
  path: '/api/v1/support/tickets/{id}/messages',
  tag: 'Support',
  summary: 'Reply to a support ticket',
  description: `Answers 201 with the ticket's public id. ${messageNote}`,
  sdk: ['support', 'tickets', 'reply'],
  auth: keyOrToken,
  params: ticketId,
  query: null,
  body: TicketMessageRequestSchema,
  success: [201, 200],
  response: SupportTicketReceiptSchema,
  errors: [
    'invalid_input',
    'not_found',
    'invalid_idempotency_key',
    'idempotency_key_conflict',
    'support_request_rate_limit',
  ],
  pagination: null,
  cost: { kind: 'free' },
  idempotent: false,
  headers: { 'Idempotency-Key': SUPPORT_IDEMPOTENCY_KEY_HEADER },
  example: 'support tickets reply TCK-7F3K2 --body "It works again, thanks."',
});

/** The Support operations. */
export const supportOperations = [
  downloadSupportAttachment,
  createTicket,
  listTickets,
  getTicket,
  updateTicketStatus,
  addTicketMessage,
] as const;

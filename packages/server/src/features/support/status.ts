import type { schemas } from '@xsvc/sdk/contract';

/** A ticket state (spec 3.7). */
export type TicketStatus = (typeof schemas.TICKET_STATUSES)[number];
/** A state an account holder may set. */
export type SettableStatus = (typeof schemas.SETTABLE_TICKET_STATUSES)[number];

/**
 * The moves an account holder may make (spec 3.7 names the states, not the moves): resolve or close an
 * open or in-progress ticket, reopen or close a resolved one, reopen a closed one. A closed ticket is not
 * resolved directly (reopen it first); setting the current state again changes nothing.
 */
const MOVES: Readonly<Record<TicketStatus, readonly SettableStatus[]>> = {
  open: ['resolved', 'closed'],
  in_progress: ['resolved', 'closed'],
  resolved: ['open', 'closed'],
  closed: ['open'],
};

/** True when an account holder may move a ticket from `from` to `to` (the same state included). */
export function canMove(from: string, to: SettableStatus): boolean {
  return from === to || (MOVES[from as TicketStatus] ?? []).includes(to);
}

/** The state a customer's reply leaves a ticket in: a resolved or closed ticket is reopened. */
export function statusAfterReply(current: string): string {
  return current === 'resolved' || current === 'closed' ? 'open' : current;
}

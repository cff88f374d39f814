import { limits } from '@xsvc/sdk/contract';
import { findEvent, queryEvents, toApiEvent } from '../../core/events/repository.js';
import { HttpError } from '../../core/http/errors.js';
import { defineHandlers } from '../../core/http/handler.js';
import { cursorCodec, legacyTagged } from '../../core/paging/cursor.js';

/** Cursors of the events list: the id of a page's last (oldest) event. */
const EVENTS_CURSOR = cursorCodec('events', { id: 'digits' }, { legacy: legacyTagged('ev') });

/**
 * The events operations (spec 4.5, 6.5): the events an account's monitors stored, newest first, paged with
 * `after` (or its alias `cursor`) and `limit` (pagination style A), scoped by `monitorId`,
 * `keywordMonitorId` or `eventType`; and one event by id (the `streamEventId` of its deliveries).
 */
export const eventHandlers = defineHandlers({
  listEvents: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { after, cursor, limit, monitorId, keywordMonitorId, eventType } = ctx.query;
    const token = after ?? cursor;
    const beforeId = EVENTS_CURSOR.decode(token)?.id;
    const pageSize = limit ?? limits.events.defaultLimit;
    const rows = await queryEvents(ctx.services.database.db, {
      accountId,
      monitorId,
      keywordMonitorId,
      eventType,
      beforeId,
      limit: pageSize,
    });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const hasMore = rows.length > pageSize && last !== undefined;
    return {
      events: page.map(toApiEvent),
      hasMore,
      ...(hasMore && { nextCursor: EVENTS_CURSOR.encode({ id: last.id }) }),
    };
  },

  getEvent: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const row = await findEvent(ctx.services.database.db, accountId, ctx.params.id);
    if (!row) throw new HttpError('not_found', `no event ${ctx.params.id}`);
    return toApiEvent(row);
  },
});

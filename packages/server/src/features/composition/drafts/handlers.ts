import type { schemas } from '@xsvc/sdk/contract';
import { num } from '../../../core/db/database.js';
import { HttpError } from '../../../core/http/errors.js';
import { defineHandlers, type HandlerContext } from '../../../core/http/handler.js';
import { timeId } from '../../../core/ids/index.js';
import { cursorCodec, LIST_POSITION, legacyTagged } from '../../../core/paging/cursor.js';
import { type DraftRow, deleteDraft, findDraft, insertDraft, queryDrafts } from './repository.js';

/** Page size of the drafts list when `limit` is not given (the contract's default). */
const DEFAULT_LIMIT = 50;
/** Cursors of the drafts list: the position of a page's last draft. */
const DRAFTS_CURSOR = cursorCodec('drafts', LIST_POSITION, { legacy: legacyTagged('dr') });

/** A draft as answered. */
function toDraft(row: DraftRow) {
  return {
    id: row.id,
    text: row.text,
    ...(row.topic !== null && { topic: row.topic }),
    ...(row.goal !== null && { goal: row.goal as (typeof schemas.COMPOSE_GOALS)[number] }),
    createdAt: new Date(num(row.created_at)).toISOString(),
    updatedAt: new Date(num(row.updated_at)).toISOString(),
  };
}

/** One draft of the caller, or 404 `draft_not_found`. */
async function ownDraft(ctx: HandlerContext, id: string): Promise<DraftRow> {
  const { accountId } = ctx.requirePrincipal();
  const row = await findDraft(ctx.services.database.db, accountId, id);
  if (!row) throw new HttpError('draft_not_found', `no draft ${id}`);
  return row;
}

/**
 * Saved drafts: create (201), list newest first in style-A pages (`after`, its aliases `afterCursor` and
 * `cursor`, and `limit`), get and delete (204); another account's draft is 404 `draft_not_found`. Free.
 */
export const draftHandlers = defineHandlers({
  createDraft: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const now = ctx.services.clock.now();
    const row: DraftRow = {
      id: timeId(now),
      account_id: accountId,
      text: ctx.body.text,
      topic: ctx.body.topic ?? null,
      goal: ctx.body.goal ?? null,
      created_at: now,
      updated_at: now,
    };
    await insertDraft(ctx.services.database.db, row);
    return toDraft(row);
  },

  listDrafts: async (ctx) => {
    const { accountId } = ctx.requirePrincipal();
    const { after, afterCursor, cursor, limit } = ctx.query;
    const token = after ?? afterCursor ?? cursor;
    const position = DRAFTS_CURSOR.decode(token);
    const pageSize = limit ?? DEFAULT_LIMIT;
    const rows = await queryDrafts(
      ctx.services.database.db,
      accountId,
      position && { createdAt: BigInt(position.createdAt), id: position.id },
      pageSize,
    );
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const hasMore = rows.length > pageSize && last !== undefined;
    return {
      drafts: page.map(toDraft),
      hasMore,
      ...(hasMore && {
        nextCursor: DRAFTS_CURSOR.encode({ createdAt: Number(last.created_at), id: last.id }),
      }),
    };
  },

  getDraft: async (ctx) => toDraft(await ownDraft(ctx, ctx.params.id)),

  deleteDraft: async (ctx) => {
    const row = await ownDraft(ctx, ctx.params.id);
    await deleteDraft(ctx.services.database.db, row.account_id, row.id);
    return undefined;
  },
});

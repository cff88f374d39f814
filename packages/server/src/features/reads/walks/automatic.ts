import { paidPage } from '../../../core/billing/metering.js';
import type { HandlerContext } from '../../../core/http/handler.js';
import { requestFingerprint } from './fingerprint.js';
import { COVERAGE_TTL_MS, STANDARD_MAX_PAGES } from './limits.js';
import { sweep } from './resume.js';
import { encodeToken, newWalkId } from './token.js';
import type { CoverageAnswer, CoverageRequest } from './types.js';
import { createWalk, recordSeen, START, type WalkState } from './walks.js';

/** A plain page; without `mode`, one cut short by the page budget becomes an automatic walk. */
export async function standardPage<T>(
  ctx: HandlerContext,
  req: CoverageRequest<T>,
): Promise<CoverageAnswer<T>> {
  const keep = req.keep ?? (() => true);
  const page = await paidPage(ctx, {
    want: req.want,
    cursor: req.cursor,
    read: req.read,
    keep,
    maxPages: STANDARD_MAX_PAGES,
  });
  const cutShort =
    req.mode === undefined &&
    page.nextCursor !== undefined &&
    page.items.length < req.want &&
    page.platformPages >= STANDARD_MAX_PAGES;
  if (!cutShort) return { items: page.items, nextCursor: page.nextCursor, totals: {} };
  const db = ctx.services.database.db;
  const now = ctx.services.clock.now();
  const totals = req.totals?.({}, page.items) ?? {};
  const state: WalkState = {
    platformCursor: page.nextCursor ?? null,
    returned: page.items.length,
    duplicates: 0,
    totals,
  };
  const id = newWalkId();
  const expiresAt = now + COVERAGE_TTL_MS;
  await sweep(db, now);
  await createWalk(db, {
    id,
    accountId: ctx.requirePrincipal().accountId,
    operation: ctx.op.id,
    fingerprint: requestFingerprint(ctx.params, ctx.query),
    mode: 'automatic',
    state,
    prevState: { ...START, platformCursor: req.cursor ?? null },
    expiresAt,
    now,
  });
  await recordSeen(db, id, page.items.map(req.idOf), 1);
  return {
    items: page.items,
    nextCursor: encodeToken(id, 1),
    totals,
    diagnostic: {
      mode: 'automatic',
      complete: false,
      stopReason: 'page_limit',
      platformPages: page.platformPages,
      duplicatesRemoved: 0,
      cursorExpiresAt: new Date(expiresAt).toISOString(),
    },
  };
}

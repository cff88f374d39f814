import { meter } from '../../../core/billing/metering.js';
import { HttpError } from '../../../core/http/errors.js';
import type { HandlerContext } from '../../../core/http/handler.js';
import { uuid } from '../../../core/ids/index.js';
import { gather } from '../../../core/paging/gather.js';
import { standardPage } from './automatic.js';
import { requestFingerprint } from './fingerprint.js';
import { COVERAGE_DEADLINE_MS, COVERAGE_MAX_PAGES, COVERAGE_TTL_MS } from './limits.js';
import { foreign, resume, sweep } from './resume.js';
import { coverageSlots } from './slots.js';
import { encodeToken, isCoverageToken, newWalkId } from './token.js';
import type { CoverageAnswer, CoverageRequest } from './types.js';
import { walkPages } from './walk.js';
import {
  createWalk,
  forgetFrom,
  recordSeen,
  releaseWalk,
  START,
  saveWalk,
  seenAmong,
  type WalkState,
} from './walks.js';

/**
 * A page of a read that supports resumable coverage (spec part 7, reference `mode`):
 * - `mode=standard`, or no mode and no coverage cursor: a plain page (platform cursor, stateless). Without
 *   `mode`, an answer cut short by the platform page budget switches to an `automatic` coverage walk.
 * - `mode=coverage` (or a coverage cursor, `cov_…`): a walk the server checkpoints after each answer. Results
 *   returned by earlier answers are dropped (`duplicatesRemoved`), an answer stops at `want`, the page
 *   budget, a deadline or a stall, and reports why. The latest cursor and the one before it resume (a lost
 *   answer can be fetched again); older ones, and any after an hour idle, are 410 `coverage_cursor_gone`. A
 *   cursor used by another request at the same moment is 409 `coverage_cursor_unavailable` with
 *   `Retry-After`; a cursor of another account, operation or query is 400 `invalid_coverage_cursor`. When
 *   the process already builds its maximum of coverage answers: 503 `service_unavailable` (`CoverageSlots`).
 * Per-result metering as for every read: only results returned are charged.
 */
export async function coveragePage<T>(
  ctx: HandlerContext,
  req: CoverageRequest<T>,
): Promise<CoverageAnswer<T>> {
  const token = isCoverageToken(req.cursor) ? req.cursor : undefined;
  if (token && req.mode === 'standard') {
    throw new HttpError(
      'invalid_coverage_request',
      'mode=standard cannot resume a coverage cursor: omit mode, or pass mode=coverage',
    );
  }
  if (!token && req.cursor && req.mode === 'coverage') {
    throw foreign('a coverage walk resumes only from its own next_cursor; start it without a cursor');
  }
  if (!token && req.mode !== 'coverage') return standardPage(ctx, req);
  const release = coverageSlots(ctx.services).acquire(ctx.requirePrincipal().accountId);
  try {
    return await walkAnswer(ctx, req, token);
  } finally {
    release();
  }
}

/** One answer of a coverage walk: a new walk, or the resumption of a checkpoint. */
async function walkAnswer<T>(
  ctx: HandlerContext,
  req: CoverageRequest<T>,
  token: string | undefined,
): Promise<CoverageAnswer<T>> {
  const db = ctx.services.database.db;
  const clock = ctx.services.clock;
  const owner = uuid();
  const held = token ? await resume(ctx, token, owner) : undefined;
  const step = held?.step ?? 0;
  const replay = held !== undefined && step === held.walk.step - 1;
  const from = held ? (replay ? held.walk.prevState : held.walk.state) : START;
  const keep = req.keep ?? (() => true);
  let items: T[];
  let walked: Awaited<ReturnType<typeof walkPages<T>>>;
  try {
    const m = meter(ctx);
    let want: number;
    try {
      want = await m.affordable(req.want);
    } catch (err) {
      // Nothing affordable: still free when there is nothing to pay for.
      const probe = await gather(req.read, 1, from.platformCursor ?? undefined, keep, 1);
      if (probe.items.length || probe.nextCursor !== undefined) throw err;
      want = 0;
    }
    // Serving an answer again: what it returned before no longer counts as seen.
    if (held && replay) await forgetFrom(db, held.walk.id, held.walk.step);
    const started = clock.now();
    walked = await walkPages({
      read: req.read,
      keep,
      idOf: req.idOf,
      from: from.platformCursor ?? undefined,
      want,
      maxPages: want === 0 ? 0 : (req.maxPages ?? COVERAGE_MAX_PAGES),
      now: () => clock.now(),
      deadline: started + COVERAGE_DEADLINE_MS,
      seenBefore: (ids) =>
        held ? seenAmong(db, held.walk.id, ids, step) : Promise.resolve(new Set<string>()),
      resumed: held !== undefined && from.platformCursor !== null,
    });
    if (want === 0) walked = { ...walked, platformCursor: undefined, stop: 'exhausted' };
    items = walked.items;
    await m.charge(items.length);
  } catch (err) {
    if (held) await releaseWalk(db, held.walk.id, owner, clock.now());
    throw err;
  }
  const now = clock.now();
  const totals = req.totals?.(from.totals, items) ?? {};
  const state: WalkState = {
    platformCursor: walked.platformCursor ?? null,
    returned: from.returned + items.length,
    duplicates: from.duplicates + walked.duplicates,
    totals,
  };
  const expiresAt = now + COVERAGE_TTL_MS;
  const ids = items.map(req.idOf);
  let walkId = held?.walk.id;
  let stop = walked.stop;
  if (held) {
    await recordSeen(db, held.walk.id, ids, step + 1);
    const saved = await saveWalk(db, held.walk.id, owner, {
      step: step + 1,
      state,
      prevState: from,
      expiresAt,
      now,
    });
    // The lease ran out and another request moved the walk: this answer's results stand, its cursor cannot.
    if (!saved) {
      walkId = undefined;
      stop = 'cursor_failure';
    }
  } else if (walked.platformCursor !== undefined) {
    walkId = newWalkId();
    await sweep(db, now);
    await createWalk(db, {
      id: walkId,
      accountId: ctx.requirePrincipal().accountId,
      operation: ctx.op.id,
      fingerprint: requestFingerprint(ctx.params, ctx.query),
      mode: 'coverage',
      state,
      prevState: START,
      expiresAt,
      now,
    });
    await recordSeen(db, walkId, ids, 1);
  }
  const nextCursor =
    walkId !== undefined && walked.platformCursor !== undefined ? encodeToken(walkId, step + 1) : undefined;
  return {
    items,
    nextCursor,
    totals,
    diagnostic: {
      mode: held?.walk.mode ?? 'coverage',
      complete: stop === 'exhausted',
      stopReason: stop,
      platformPages: walked.pages,
      duplicatesRemoved: state.duplicates,
      ...(nextCursor && { cursorExpiresAt: new Date(expiresAt).toISOString() }),
    },
  };
}

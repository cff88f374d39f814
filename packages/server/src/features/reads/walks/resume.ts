import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema.js';
import { HttpError } from '../../../core/http/errors.js';
import type { HandlerContext } from '../../../core/http/handler.js';
import { requestFingerprint } from './fingerprint.js';
import { COVERAGE_LEASE_MS } from './limits.js';
import { decodeToken } from './token.js';
import { claimWalk, deleteWalk, loadWalk, sweepWalks, type Walk } from './walks.js';

const lastSweep = new WeakMap<Kysely<Database>, number>();

/** Removes expired walks, at most once a minute per database. */
export async function sweep(db: Kysely<Database>, now: number): Promise<void> {
  if (now - (lastSweep.get(db) ?? 0) < 60_000) return;
  lastSweep.set(db, now);
  await sweepWalks(db, now);
}

/** 410 `coverage_cursor_gone`: the walk cannot be resumed; the client restarts it. */
export function gone(message: string): HttpError {
  return new HttpError('coverage_cursor_gone', `${message}: restart without a cursor and de-duplicate by id`);
}

/** 400 `invalid_coverage_cursor`: the cursor is not one of this walk's, for this caller and query. */
export function foreign(message: string): HttpError {
  return new HttpError('invalid_coverage_cursor', `cursor: ${message}`);
}

/** Resolves a coverage cursor to its walk, held by this request; every refusal has its code. */
export async function resume(
  ctx: HandlerContext,
  token: string,
  owner: string,
): Promise<{ walk: Walk; step: number }> {
  const db = ctx.services.database.db;
  const now = ctx.services.clock.now();
  const t = decodeToken(token);
  const walk = await loadWalk(db, t.walkId);
  if (!walk) throw gone('this coverage cursor has expired or never existed');
  if (walk.accountId !== ctx.requirePrincipal().accountId) throw foreign('not a cursor of this account');
  if (walk.operation !== ctx.op.id || walk.fingerprint !== requestFingerprint(ctx.params, ctx.query)) {
    throw foreign('this cursor belongs to another query; resume it with the parameters that started it');
  }
  if (walk.expiresAt <= now) {
    await deleteWalk(db, walk.id);
    throw gone(`this coverage cursor expired at ${new Date(walk.expiresAt).toISOString()}`);
  }
  if (t.step > walk.step) throw foreign('this walk never issued this cursor');
  if (t.step < walk.step - 1) {
    throw gone(
      'this coverage cursor was superseded (only the latest cursor of a walk and the one before it resume)',
    );
  }
  if (!(await claimWalk(db, walk.id, owner, now, now + COVERAGE_LEASE_MS))) {
    const held = (await loadWalk(db, walk.id))?.leaseUntil ?? now + 1_000;
    const retryAfter = Math.max(1, Math.ceil((held - now) / 1000));
    throw new HttpError(
      'coverage_cursor_unavailable',
      'another request is reading this walk right now; retry the same cursor after Retry-After',
      { retryAfter },
      409,
      { 'retry-after': String(retryAfter) },
    );
  }
  return { walk, step: t.step };
}

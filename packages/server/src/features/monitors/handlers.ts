import { HttpError } from '../../core/http/errors.js';
import { defineHandlers } from '../../core/http/handler.js';
import { withPlatformErrors } from '../../core/http/platform-errors.js';
import { monitorLifecycle } from './lifecycle.js';
import { admitMonitor } from './pace.js';
import { type ApiMonitor, toApiMonitor } from './repository.js';
import { takeWatchStart, type WatchStart } from './watch-state.js';

/** Account monitors in the life cycle both kinds share: unique per watched platform user. */
const accountMonitors = monitorLifecycle<'monitors', ApiMonitor>({
  table: 'monitors',
  noun: 'monitor',
  unique: 'x_user_id',
  toApi: toApiMonitor,
});

/** The columns a create or a resume takes from the watched account's start (profile, stamp, watermark). */
const startColumns = (start: WatchStart) => ({
  username: start.profile.username,
  baseline_tweet_id: start.baseline,
  profile_snapshot: JSON.stringify(start.snapshot),
  profile_stamp: start.stamp,
  joined: 0,
});

const alreadyExists = (id: string, username: string) =>
  new HttpError(
    'monitor_already_exists',
    `monitor ${id} already watches @${username}: update its event types instead`,
    { monitorId: id },
  );

/** The fields of a monitor that never change (spec 3.1): naming one in an update is a mistake to report. */
const FIXED_FIELDS = ['username', 'xUserId', 'x_user_id'] as const;

/** 400 `unsupported_field` when an update body names a field that cannot change. */
function rejectFixedFields(body: unknown): void {
  if (!body || typeof body !== 'object') return;
  const named = FIXED_FIELDS.find((f) => Object.hasOwn(body, f));
  if (named) {
    throw new HttpError(
      'unsupported_field',
      `${named} cannot change; delete the monitor and create one for the other account`,
      { field: named },
    );
  }
}

/**
 * The account-monitor operations (spec 4.5, 3.1). Creation resolves the username through the platform,
 * takes the baseline (profile snapshot, newest tweet id) and charges the first hour; PATCH replaces the
 * event types and pauses or resumes (a resume takes a new baseline and charges a new hour unless the paid one
 * is still running); delete stops everything for good. A create or a resume the platform's request budget
 * cannot serve within the longest accepted check interval is refused (`admitMonitor`).
 */
export const monitorHandlers = withPlatformErrors(
  defineHandlers({
    listMonitors: (ctx) => accountMonitors.list(ctx),

    createMonitor: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const username = ctx.body.username.replace(/^@/, '');
      const start = await takeWatchStart(ctx.services.platform, username);
      if (!start) throw new HttpError('user_not_found', `no user @${username} that can be watched`);
      const { profile } = start;
      const existing = await accountMonitors.findDuplicate(ctx.services, accountId, profile.id);
      if (existing) throw alreadyExists(existing.id, existing.username);
      await admitMonitor(ctx.services, { xUserId: profile.id });
      return accountMonitors.create(ctx.services, {
        accountId,
        eventTypes: ctx.body.eventTypes,
        now: ctx.services.clock.now(),
        columns: { x_user_id: profile.id, ...startColumns(start) },
        duplicate: async () => {
          const winner = await accountMonitors.findDuplicate(ctx.services, accountId, profile.id);
          return alreadyExists(winner?.id ?? '', profile.username);
        },
      });
    },

    getMonitor: (ctx) => accountMonitors.get(ctx),

    updateMonitor: (ctx) => {
      rejectFixedFields(ctx.request.body);
      return accountMonitors.update(ctx, async (row) => {
        await admitMonitor(ctx.services, { xUserId: row.x_user_id });
        const start = await takeWatchStart(ctx.services.platform, row.x_user_id);
        if (!start) {
          throw new HttpError('user_not_found', `@${row.username} no longer exists or cannot be seen`);
        }
        return startColumns(start);
      });
    },

    deleteMonitor: (ctx) => accountMonitors.remove(ctx),
  }),
);

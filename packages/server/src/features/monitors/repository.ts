import type { schemas } from '@xsvc/sdk/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { isoTime, lifecycleFields, parseEventTypes } from './monitor-rows.js';
import type { MonitorsTable } from './tables.js';

/** An account-monitor row. */
export type MonitorRow = Selectable<MonitorsTable>;

type PausedReason = NonNullable<ApiMonitor['pausedReason']>;

/** A monitor in the API's shape, as the server emits it. */
export type ApiMonitor = z.input<typeof schemas.MonitorSchema>;

/** A row in the API's `Monitor` shape (spec 2.4). */
export function toApiMonitor(row: MonitorRow): ApiMonitor {
  return {
    id: row.id,
    username: row.username,
    xUserId: row.x_user_id,
    eventTypes: parseEventTypes(row.event_types),
    ...lifecycleFields(row),
    ...(row.paused_reason !== null && { pausedReason: row.paused_reason as PausedReason }),
    ...(row.paused_reason !== null && row.paused_at !== null && { pausedAt: isoTime(row.paused_at) }),
  };
}

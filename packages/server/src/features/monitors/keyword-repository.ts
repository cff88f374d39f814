import type { schemas, TweetEventType } from '@xsvc/sdk/contract';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import { lifecycleFields, parseEventTypes } from './monitor-rows.js';
import type { KeywordMonitorsTable } from './tables.js';

/** A keyword-monitor row. */
export type KeywordMonitorRow = Selectable<KeywordMonitorsTable>;

/** A query as stored: trimmed, inner spacing collapsed. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ');
}

/** The duplicate-check key of a query: normalized and case-folded (`Foo  bar` and `foo bar` are one monitor). */
export function queryKey(query: string): string {
  return normalizeQuery(query).toLowerCase();
}

/** A keyword monitor in the API's shape, as the server emits it. */
export type ApiKeywordMonitor = z.input<typeof schemas.KeywordMonitorSchema>;

/** A row in the API's `KeywordMonitor` shape (spec 2.4). */
export function toApiKeywordMonitor(row: KeywordMonitorRow): ApiKeywordMonitor {
  return {
    id: row.id,
    query: row.query,
    eventTypes: parseEventTypes(row.event_types) as TweetEventType[],
    ...lifecycleFields(row),
  };
}

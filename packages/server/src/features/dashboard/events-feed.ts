import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { type ApiEvent, toApiEvent } from '../../core/events/repository.js';
import { escapeHtml } from '../../core/http/layout.js';
import { badge, when } from './format.js';

/** Rows the page shows, and the most one poll of the live feed returns. */
export const FEED_SIZE = 25;

/**
 * The account's events newer than `afterId` (all recent ones without it), newest first, in the API's shape.
 * The live feed polls this every few seconds, so it reads the events table directly instead of going through
 * the API, whose rate limit it would otherwise eat into.
 */
export async function newerEvents(
  db: Kysely<Database>,
  accountId: string,
  afterId: string | undefined,
): Promise<ApiEvent[]> {
  let query = db.selectFrom('events').selectAll().where('account_id', '=', accountId);
  if (afterId !== undefined) query = query.where('id', '>', afterId);
  const rows = await query.orderBy('id', 'desc').limit(FEED_SIZE).execute();
  return rows.map(toApiEvent);
}

/** What an event is about, in a few words: a tweet's text, or what changed on a profile. */
function summary(event: ApiEvent): string {
  const data = event.data;
  if (typeof data.text === 'string') return data.text;
  if ('current' in data) return `now: ${String(data.current)}`;
  return '';
}

/** The table rows of events (escaped HTML), as the page and the live feed render them. */
export function eventRows(events: readonly ApiEvent[]): string {
  return events
    .map(
      (e) =>
        `<tr data-event="${escapeHtml(e.id)}"><td>${when(e.occurredAt)}</td><td>${badge(e.type)}</td><td>${escapeHtml(e.username ? `@${e.username}` : (e.query ?? ''))}</td><td>${escapeHtml(summary(e).slice(0, 280))}</td></tr>`,
    )
    .join('\n');
}

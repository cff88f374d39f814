import { HttpError } from '../../core/http/errors.js';
import { defineHandlers } from '../../core/http/handler.js';
import { withPlatformErrors } from '../../core/http/platform-errors.js';
import type { Platform } from '../../core/platform/platform.js';
import {
  type ApiKeywordMonitor,
  normalizeQuery,
  queryKey,
  toApiKeywordMonitor,
} from './keyword-repository.js';
import { monitorLifecycle } from './lifecycle.js';
import { admitMonitor } from './pace.js';
import { idBefore, maxId } from './watermark.js';

/** Keyword monitors in the life cycle both kinds share: unique per query key ({@link queryKey}). */
const keywordMonitors = monitorLifecycle<'keyword_monitors', ApiKeywordMonitor>({
  table: 'keyword_monitors',
  noun: 'keyword monitor',
  unique: 'query_key',
  toApi: toApiKeywordMonitor,
});

const alreadyExists = (id: string, query: string) =>
  new HttpError(
    'monitor_already_exists',
    `keyword monitor ${id} already watches "${query}": update its event types instead`,
    { monitorId: id },
  );

/**
 * The watermark of a keyword monitor: above the newest tweet matching the query now and above everything
 * posted before now, so only tweets posted from now on are reported. Running the search also checks the
 * query (one the platform refuses is 400 `invalid_input`).
 */
async function keywordBaseline(platform: Platform, query: string, now: number): Promise<string> {
  // A platform that watches queries itself (X's filtered stream) starts before the watermark is taken.
  await platform.watchKeyword?.(query);
  const page = await platform.searchTweets({ q: query, queryType: 'Latest' }, { pageSize: 10 });
  return maxId(page.items[0]?.id ?? '0', idBefore(now));
}

/**
 * The keyword-monitor operations (reference: `/monitors/keywords` and `/monitors/keywords/{id}`): the same
 * life cycle as account monitors (first hour charged at creation, pause and resume, hourly billing while
 * active), for a search query and tweet event types only. One account cannot watch the same query twice
 * (compared ignoring case and spacing): 409 `monitor_already_exists`.
 */
export const keywordMonitorHandlers = withPlatformErrors(
  defineHandlers({
    listKeywordMonitors: (ctx) => keywordMonitors.list(ctx),

    createKeywordMonitor: async (ctx) => {
      const { accountId } = ctx.requirePrincipal();
      const query = normalizeQuery(ctx.body.query);
      if (!query) throw new HttpError('invalid_input', 'query: must not be blank');
      const key = queryKey(query);
      const existing = await keywordMonitors.findDuplicate(ctx.services, accountId, key);
      if (existing) throw alreadyExists(existing.id, existing.query);
      await admitMonitor(ctx.services, { query });
      const now = ctx.services.clock.now();
      const baseline = await keywordBaseline(ctx.services.platform, query, now);
      return keywordMonitors.create(ctx.services, {
        accountId,
        eventTypes: ctx.body.eventTypes,
        now,
        columns: { query, query_key: key, baseline_tweet_id: baseline, cursor_tweet_id: baseline },
        duplicate: async () => {
          const winner = await keywordMonitors.findDuplicate(ctx.services, accountId, key);
          return alreadyExists(winner?.id ?? '', query);
        },
      });
    },

    getKeywordMonitor: (ctx) => keywordMonitors.get(ctx),

    updateKeywordMonitor: (ctx) =>
      keywordMonitors.update(ctx, async (row, now) => {
        await admitMonitor(ctx.services, { query: row.query });
        const baseline = await keywordBaseline(ctx.services.platform, row.query, now);
        return { baseline_tweet_id: baseline, cursor_tweet_id: baseline };
      }),

    deleteKeywordMonitor: (ctx) => keywordMonitors.remove(ctx),
  }),
);

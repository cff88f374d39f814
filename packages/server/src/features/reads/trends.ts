import { paidCall } from '../../core/billing/metering.js';
import type { HandlerContext } from '../../core/http/handler.js';
import type { PlatformTrend } from '../../core/platform/platform.js';
import { defineReadHandlers } from '../../core/reads/define.js';

/** A trend in the API's shape (spec 2.12): optional fields omitted when the platform has none. */
function toTrend(t: PlatformTrend) {
  return {
    name: t.name,
    ...(t.description && { description: t.description }),
    ...(Number.isInteger(t.rank) && t.rank >= 1 && { rank: t.rank }),
    ...(t.query && { query: t.query }),
  };
}

/**
 * The trends of a region (spec 4.9), one charge of 3 credits per call. `woeid` is validated and `count`
 * clamped by the contract (1-50, non-numbers 30); `total` counts the trends before the cut.
 */
async function regionTrends(ctx: HandlerContext<'getTrends' | 'getXTrends'>) {
  const { woeid, count } = ctx.query;
  const all = await paidCall(ctx, () => ctx.services.platform.trends(woeid));
  return { trends: all.slice(0, count).map(toTrend), total: all.length, woeid };
}

/** `GET /x/trends` and its alias `GET /trends`. */
export const trendHandlers = defineReadHandlers({
  getXTrends: async (ctx) => {
    const answer = await regionTrends(ctx);
    return { ...answer, count: answer.trends.length };
  },
  getTrends: async (ctx) => regionTrends(ctx),
});
